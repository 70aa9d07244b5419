// LevelTable: the states discovered during one breadth-first level, claimed concurrently (by the
// level search's threads; a rank of the distributed search claims the states it receives here
// too, on one thread).
//
// Why our own table: every worker thread looks up and inserts each successor here, so this is the
// hottest shared structure of the search. It is lock-free open addressing with linear probing over
// one flat array of pairs of atomic 64-bit words — a fingerprint is published with one
// compare-and-swap on its slot's fingerprint word, and the slot's claim key is lowered with a
// compare-and-swap loop (atomic minimum). Nothing is ever deleted during a level, so there is no
// ABA hazard; growth is stop-the-world between rounds of the level, which keeps the probe loop free
// of any resize protocol. A general concurrent map (oneTBB's) would lock buckets and store a
// pointer-sized node per entry.
//
// The claim key of a step is (parent id << 16 | action index); the smallest key among the steps
// that reach a fingerprint is the step the sequential breadth-first search would have discovered it
// by, which makes ids, parents and counterexamples independent of threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "checker/store/hash_slots.h"
#include "checker/store/huge_pages.h"

namespace preemptcheck::checker {

class LevelTable {
 public:
  /// No claim yet.
  static constexpr std::uint64_t kNoKey = std::numeric_limits<std::uint64_t>::max();

  /// How a claim went.
  enum class Claim {
    kInserted,  ///< this call added the fingerprint
    kLowered,   ///< the fingerprint was there with a larger key; its key is now this call's
    kPresent,   ///< the fingerprint was there with a smaller key, which it keeps
    kFull,      ///< the table must grow before it takes another fingerprint
  };

  /// An empty table of `slots` slots (any count), cleared through `on_parts`
  /// (checker/store/hash_slots.h).
  template <class OnParts = OnePart>
  explicit LevelTable(std::size_t slots, const OnParts& on_parts = {}) {
    allocate(slots, on_parts);
  }

  /// Empties the table and makes it `slots` slots, reusing the memory it holds when that is
  /// enough, clearing it through `on_parts` (no claim running). May throw std::bad_alloc,
  /// leaving the table empty or as it was.
  template <class OnParts = OnePart>
  void reset(std::size_t slots, const OnParts& on_parts = {}) {
    if (slots > allocated_) {
      allocate(slots, on_parts);
      return;
    }
    clear(slots, on_parts);
  }

  /// Adds `fingerprint` with `key`, or lowers its key to `key`; `slot` receives its slot
  /// (slot_count() for the fingerprint 0). Thread-safe against other claims.
  Claim claim(std::uint64_t fingerprint, std::uint64_t key, std::size_t& slot) {
    if (fingerprint == 0) {
      slot = slots_;
      const bool lowered = lower(zero_key_, key);
      if (!zero_present_.exchange(true, std::memory_order_acq_rel)) {
        return Claim::kInserted;
      }
      return lowered ? Claim::kLowered : Claim::kPresent;
    }
    for (std::size_t i = home_slot(fingerprint, slots_);; i = next(i)) {
      Word word(cells_[i].fingerprint);
      std::uint64_t seen = word.load(std::memory_order_acquire);
      if (seen == 0) {
        if (size_.load(std::memory_order_relaxed) >= max_fill_) {
          return Claim::kFull;
        }
        if (word.compare_exchange_strong(seen, fingerprint, std::memory_order_acq_rel)) {
          size_.fetch_add(1, std::memory_order_relaxed);
          lower(Word(cells_[i].key), key);
          slot = i;
          return Claim::kInserted;
        }
      }
      if (seen == fingerprint) {
        slot = i;
        return lower(Word(cells_[i].key), key) ? Claim::kLowered : Claim::kPresent;
      }
    }
  }

  /// Reads the slot where claim(fingerprint, ...) begins and returns its key, so that a
  /// batch of claims can miss the cache together (see FingerprintSet::home_value).
  std::uint64_t home_key(std::uint64_t fingerprint) const {
    return Word(cells_[home_slot(fingerprint, slots_)].key).load(std::memory_order_relaxed);
  }

  std::size_t slot_count() const { return slots_; }
  std::size_t size() const {
    return size_.load(std::memory_order_relaxed) + (zero_present_.load() ? 1 : 0);
  }
  /// Bytes held, reserved room included.
  std::size_t bytes() const { return allocated_ * 2 * sizeof(std::uint64_t); }

  /// The key of `fingerprint`, which must be present (single-threaded, after the level).
  std::uint64_t find_key(std::uint64_t fingerprint) const {
    if (fingerprint == 0) {
      return zero_key_.load(std::memory_order_relaxed);
    }
    for (std::size_t i = home_slot(fingerprint, slots_);; i = next(i)) {
      const std::uint64_t seen = Word(cells_[i].fingerprint).load(std::memory_order_relaxed);
      if (seen == fingerprint || seen == 0) {
        return seen == 0 ? kNoKey : Word(cells_[i].key).load(std::memory_order_relaxed);
      }
    }
  }

  /// Makes half as much room again, the claims moved through `on_parts` (no claim running).
  /// May throw std::bad_alloc, leaving the table as it was.
  template <class OnParts = OnePart>
  void grow(const OnParts& on_parts = {}) {
    LevelTable bigger(slots_ + slots_ / 2, on_parts);
    on_parts([&](std::size_t part, std::size_t parts) {
      const std::size_t end = part_begin(slots_, part + 1, parts);
      for (std::size_t i = part_begin(slots_, part, parts); i < end; ++i) {
        const std::uint64_t fingerprint = cells_[i].fingerprint;
        if (fingerprint != 0) {
          std::size_t slot = 0;
          bigger.claim(fingerprint, cells_[i].key, slot);
        }
      }
    });
    cells_ = std::move(bigger.cells_);
    allocated_ = bigger.allocated_;
    slots_ = bigger.slots_;
    max_fill_ = bigger.max_fill_;
    size_.store(bigger.size_.load());
  }

 private:
  std::size_t next(std::size_t i) const { return i + 1 == slots_ ? 0 : i + 1; }

  using Word = std::atomic_ref<std::uint64_t>;

  template <class W>  // Word or std::atomic<std::uint64_t>
  static bool lower(W&& word, std::uint64_t key) {
    std::uint64_t current = word.load(std::memory_order_relaxed);
    while (key < current) {
      if (word.compare_exchange_weak(current, key, std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  template <class OnParts>
  void allocate(std::size_t slots, const OnParts& on_parts) {
    cells_.reset();
    allocated_ = 0;
    cells_ = make_huge_array<Cell>(slots);  // not written: the clear touches its pages first
    allocated_ = slots;
    clear(slots, on_parts);
  }

  template <class OnParts>
  void clear(std::size_t slots, const OnParts& on_parts) {
    on_parts([&](std::size_t part, std::size_t parts) {
      const std::size_t end = part_begin(slots, part + 1, parts);
      for (std::size_t i = part_begin(slots, part, parts); i < end; ++i) {
        cells_[i] = {0, kNoKey};
      }
    });
    slots_ = slots;
    max_fill_ = slots / 10 * 7;
    size_.store(0, std::memory_order_relaxed);
    zero_key_.store(kNoKey, std::memory_order_relaxed);
    zero_present_.store(false, std::memory_order_relaxed);
  }

  // A slot: its fingerprint (0: empty) and its claim key, side by side so that a claim
  // misses the cache once. Plain words, read and written through atomic_ref while claims run:
  // a std::atomic would be zeroed when the array is made, on one thread.
  struct alignas(16) Cell {
    std::uint64_t fingerprint;
    std::uint64_t key;
  };
  HugeArray<Cell> cells_;
  std::size_t allocated_ = 0;  // slots the arrays have room for
  std::size_t slots_ = 0;      // slots in use
  std::size_t max_fill_ = 0;
  std::atomic<std::size_t> size_{0};
  std::atomic<std::uint64_t> zero_key_{kNoKey};
  std::atomic<bool> zero_present_{false};
};

}  // namespace preemptcheck::checker
