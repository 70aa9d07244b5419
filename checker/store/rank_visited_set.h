// VisitedSet: a rank's part of the visited set in the distributed search
// (checker/mpi/distributed_explorer.h), whose kNoId the level search's stores share too;
// stored as 64-bit fingerprints only. Each state is a dense id; the fingerprint of id i is
// fingerprints()[i], and an open-addressing table of 32-bit ids (linear probing, compared through
// the fingerprint array) maps a fingerprint back to its id. That costs 8 bytes per state plus 4
// bytes per slot, instead of a copy of the state.
//
// The distributed search (checker/mpi/distributed_explorer.h) keeps its part of the visited set
// here, since it needs each state's id at once; the level search keeps fingerprints only
// (checker/store/level_visited_set.h).
//
// Concurrency: lookups (find) may run on many threads at once while no thread inserts; the
// explorer inserts only between two levels of its breadth-first search, on one thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>

#include "checker/store/chunked_array.h"
#include "checker/store/huge_pages.h"

namespace preemptcheck::checker {

/// splitmix64's finaliser: spreads a fingerprint's bits so that weak fingerprints (small
/// packed integers) still probe well.
inline std::uint64_t spread_bits(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The home slot of a fingerprint in a table of `slots` slots, any count (not only powers
/// of two, so that a table need not hold up to twice the room it needs): the spread
/// fingerprint's high word scaled to the slot count.
__extension__ typedef unsigned __int128 Product128;  // GCC's and Clang's 128-bit integer
inline std::size_t home_slot(std::uint64_t fingerprint, std::size_t slots) {
  return static_cast<std::size_t>((static_cast<Product128>(spread_bits(fingerprint)) * slots) >>
                                  64);
}

/// The slots an open-addressing table of `capacity` slots (0: none yet) needs for `want`
/// entries: it grows by half while it would be over 3/4 full, from 4,096.
inline std::size_t grown_slots(std::size_t capacity, std::size_t want) {
  std::size_t slots = capacity == 0 ? std::size_t{1} << 12 : capacity;
  while (want * 4 > slots * 3) {
    slots += slots / 2;
  }
  return slots;
}

class VisitedSet {
 public:
  /// The id that marks "absent"; real ids are smaller.
  static constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

  /// The number of states stored.
  std::size_t size() const { return fingerprints_.size(); }

  /// The fingerprints by id.
  const ChunkedArray<std::uint64_t>& fingerprints() const { return fingerprints_; }

  /// The id of `fingerprint`, or kNoId. Safe to call from many threads between inserts.
  std::uint32_t find(std::uint64_t fingerprint) const {
    if (slots_ == nullptr) {
      return kNoId;
    }
    for (std::size_t i = home_slot(fingerprint, capacity_);; i = next(i)) {
      const std::uint32_t id = slots_[i];
      if (id == kNoId || fingerprints_[id] == fingerprint) {
        return id;
      }
    }
  }

  /// Makes room for `extra` more states, so that add() cannot throw; may throw
  /// std::bad_alloc, leaving the set as it was.
  void reserve(std::size_t extra) {
    const std::size_t want = size() + extra;
    fingerprints_.reserve(want);
    const std::size_t slots = slots_for(want);
    if (slots != capacity_) {
      rehash(slots);
    }
  }

  /// The bytes reserve(extra) would hold in all.
  std::size_t bytes_after_reserve(std::size_t extra) const {
    const std::size_t want = size() + extra;
    const std::size_t slots = slots_for(want);
    const std::size_t blocks =
        (want + ChunkedArray<std::uint64_t>::kBlock - 1) / ChunkedArray<std::uint64_t>::kBlock;
    return slots * sizeof(std::uint32_t) +
           blocks * ChunkedArray<std::uint64_t>::kBlock * sizeof(std::uint64_t);
  }

  /// Adds a fingerprint not yet present as the next id; reserve() first.
  void add(std::uint64_t fingerprint) {
    const auto id = static_cast<std::uint32_t>(fingerprints_.size());
    fingerprints_.push_back(fingerprint);
    place(fingerprint, id);
  }

  /// Bytes held.
  std::size_t bytes() const { return capacity_ * sizeof(std::uint32_t) + fingerprints_.bytes(); }

 private:
  std::size_t slots_for(std::size_t want) const { return grown_slots(capacity_, want); }

  std::size_t next(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  void place(std::uint64_t fingerprint, std::uint32_t id) {
    std::size_t i = home_slot(fingerprint, capacity_);
    while (slots_[i] != kNoId) {
      i = next(i);
    }
    slots_[i] = id;
  }

  // Rebuilds the slots from the fingerprints. The old slots are freed first, so that the
  // set never holds both; if the new ones cannot be had, the old size is rebuilt (it was
  // just freed) and std::bad_alloc goes on.
  void rehash(std::size_t slots) {
    const std::size_t old = capacity_;
    slots_.reset();
    capacity_ = 0;
    try {
      slots_ = make_huge_array<std::uint32_t>(slots);
    } catch (const std::bad_alloc&) {
      if (old != 0) {
        slots_ = make_huge_array<std::uint32_t>(old);
        fill(old);
      }
      throw;
    }
    fill(slots);
  }

  void fill(std::size_t slots) {
    for (std::size_t i = 0; i < slots; ++i) {
      slots_[i] = kNoId;
    }
    capacity_ = slots;
    for (std::size_t id = 0; id < fingerprints_.size(); ++id) {
      place(fingerprints_[id], static_cast<std::uint32_t>(id));
    }
  }

  ChunkedArray<std::uint64_t> fingerprints_;
  HugeArray<std::uint32_t> slots_;
  std::size_t capacity_ = 0;
};

}  // namespace preemptcheck::checker
