// FingerprintSet: the visited set of the level search and of each rank of the distributed
// search (which keeps the fingerprints of the states it owns) — the 64-bit fingerprints of the
// visited states and nothing else, in one open-addressing table (linear probing) whose slots are
// the fingerprints themselves.
//
// Why its own table: the lookup of every successor is the search's hottest memory access. A
// table of ids that compares through an array of fingerprints by id misses the cache once for
// the slot and once more for every occupied slot it probes, each a random line; here the probe
// sequence is one line, or two, and an absent fingerprint (most lookups) costs one miss. The ids
// and the fingerprints by id that a counterexample needs are in the trace
// (checker/store/trace_store.h), which keeps them on disk; the table is rebuilt from there when it
// grows, so it never holds an old and a new array at once. 8 bytes per slot, at most 3/4 full: 10.7
// to 16 bytes per state.
//
// Concurrency: contains() may run on many threads at once while no thread inserts, and
// inserts (each thread through its own Inserter) may run on many threads at once while no
// thread looks up: the level search looks up during a level and inserts between two. A slot
// is taken with one compare-and-swap; which slot a fingerprint lands in may then differ from
// run to run, whether it is found never does.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <stdexcept>

#include "checker/store/hash_slots.h"
#include "checker/store/huge_pages.h"

namespace preemptcheck::checker {

class FingerprintSet {
 public:
  /// The number of fingerprints stored.
  std::size_t size() const { return size_.load(std::memory_order_relaxed); }

  /// Whether `fingerprint` is stored. Safe to call from many threads between inserts.
  bool contains(std::uint64_t fingerprint) const {
    return contains(fingerprint, home_value(fingerprint));
  }

  /// The slot where the probe for `fingerprint` begins: read it for a batch of lookups
  /// first, in a loop of loads alone, so that their cache misses overlap (a software
  /// prefetch is not enough: one whose address translation is not cached may be dropped, and
  /// prefetching measured no gain on the reference machine, where these loads took the
  /// lookups from a quarter of the time to a sixth), then pass it to contains().
  std::uint64_t home_value(std::uint64_t fingerprint) const {
    return capacity_ == 0 ? 0 : slots_[home_slot(fingerprint, capacity_)];
  }

  /// contains(fingerprint), given home_value(fingerprint).
  bool contains(std::uint64_t fingerprint, std::uint64_t home) const {
    if (fingerprint == 0) {
      return has_zero_.load(std::memory_order_relaxed);
    }
    if (home == fingerprint) {
      return true;
    }
    if (home == 0) {
      return false;
    }
    for (std::size_t i = next(home_slot(fingerprint, capacity_));; i = next(i)) {
      const std::uint64_t seen = slots_[i];
      if (seen == fingerprint) {
        return true;
      }
      if (seen == 0) {
        return false;
      }
    }
  }

  /// Makes room for `extra` more fingerprints, so that inserting them cannot throw. When the
  /// table must grow, its slots are freed, the new ones cleared through `on_parts`
  /// (checker/store/hash_slots.h), and `refill(*this)` must insert every fingerprint stored so
  /// far, through Inserters, on as many threads as it likes (the caller keeps them; here, the
  /// trace). May throw std::bad_alloc, leaving the table as it was when the new slots cannot be
  /// had, or what `refill` throws, leaving it unusable.
  template <class Refill, class OnParts = OnePart>
  void reserve(std::size_t extra, Refill&& refill, const OnParts& on_parts = {}) {
    const std::size_t slots = slots_for(size() + extra);
    if (slots == capacity_) {
      return;
    }
    const std::size_t old = capacity_;
    slots_.reset();
    capacity_ = 0;
    const std::size_t stored = size();
    size_.store(0);
    const bool zero = has_zero_.exchange(false);
    std::size_t size = slots;
    try {
      slots_ = make_huge_array<std::uint64_t>(slots);
    } catch (const std::bad_alloc&) {
      if (old == 0) {
        throw;
      }
      // The old size was just freed: rebuild it, then report the failure.
      size = old;
      slots_ = make_huge_array<std::uint64_t>(old);
    }
    on_parts([&](std::size_t part, std::size_t parts) {
      const std::size_t end = part_begin(size, part + 1, parts);
      for (std::size_t i = part_begin(size, part, parts); i < end; ++i) {
        slots_[i] = 0;
      }
    });
    capacity_ = size;
    refill(*this);
    if (this->size() != stored || has_zero_.load() != zero) {
      throw std::logic_error("the fingerprints refilled are not those stored");
    }
    if (size != slots) {
      throw std::bad_alloc();
    }
  }

  /// The bytes the table would hold after reserve(extra).
  std::size_t bytes_after_reserve(std::size_t extra) const {
    return slots_for(size() + extra) * sizeof(std::uint64_t);
  }

  /// Adds a fingerprint not yet present; reserve() first. One thread at a time; several
  /// threads insert through Inserters.
  void insert(std::uint64_t fingerprint) {
    place(fingerprint);
    size_.fetch_add(1, std::memory_order_relaxed);
  }

  /// Bytes held.
  std::size_t bytes() const { return capacity_ * sizeof(std::uint64_t); }

  /// Inserts fingerprints (not yet present; reserve() first) a batch at a time, the batch's
  /// home slots read together first so that their cache misses overlap; the last batch when
  /// it is destroyed. Each thread has its own; they may insert at the same time.
  class Inserter {
   public:
    explicit Inserter(FingerprintSet& set) : set_(set) {}
    Inserter(const Inserter&) = delete;
    Inserter& operator=(const Inserter&) = delete;
    ~Inserter() { flush(); }

    void add(std::uint64_t fingerprint) {
      batch_[size_++] = fingerprint;
      if (size_ == kBatch) {
        flush();
      }
    }

   private:
    static constexpr std::size_t kBatch = 16;

    void flush() {
      std::uint64_t homes = 0;
      for (std::size_t k = 0; k < size_; ++k) {
        homes += set_.home_value(batch_[k]);
      }
      set_.homes_.store(homes, std::memory_order_relaxed);  // only so that those loads are made
      for (std::size_t k = 0; k < size_; ++k) {
        set_.place(batch_[k]);
      }
      set_.size_.fetch_add(size_, std::memory_order_relaxed);
      size_ = 0;
    }

    FingerprintSet& set_;
    std::array<std::uint64_t, kBatch> batch_{};
    std::size_t size_ = 0;
  };

 private:
  std::size_t slots_for(std::size_t want) const { return grown_slots(capacity_, want); }

  std::size_t next(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  // Puts a fingerprint not yet present in a free slot, safely against other threads doing
  // the same (fingerprints are never removed while they insert).
  void place(std::uint64_t fingerprint) {
    if (fingerprint == 0) {
      has_zero_.store(true, std::memory_order_relaxed);
      return;
    }
    for (std::size_t i = home_slot(fingerprint, capacity_);; i = next(i)) {
      std::atomic_ref<std::uint64_t> slot(slots_[i]);
      std::uint64_t seen = slot.load(std::memory_order_relaxed);
      if (seen == 0 && slot.compare_exchange_strong(seen, fingerprint, std::memory_order_relaxed)) {
        return;
      }
    }
  }

  HugeArray<std::uint64_t> slots_;  // 0: empty; the fingerprint 0 is has_zero_
  std::size_t capacity_ = 0;
  std::atomic<std::size_t> size_{0};
  std::atomic<bool> has_zero_{false};
  std::atomic<std::uint64_t> homes_{0};  // see Inserter
};

}  // namespace preemptcheck::checker
