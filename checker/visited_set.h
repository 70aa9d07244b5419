// VisitedSet: the explorer's set of visited states, stored as 64-bit fingerprints only. Each
// state is a dense id; the fingerprint of id i is fingerprints()[i], and an open-addressing
// table of 32-bit ids (linear probing, compared through the fingerprint array) maps a
// fingerprint back to its id. That costs 8 bytes per state plus 4 bytes per slot, instead of a
// copy of the state.
//
// Concurrency: lookups (find) may run on many threads at once while no thread inserts; the
// explorer inserts only between two levels of its breadth-first search, on one thread. The
// states discovered during a level are claimed in a separate LevelTable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>

#include "checker/chunked_array.h"

namespace preemptcheck::checker {

/// splitmix64's finaliser: spreads a fingerprint's bits so that weak fingerprints (small
/// packed integers) still probe well.
inline std::uint64_t spread_bits(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
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
    if (mask_ == 0 && slots_ == nullptr) {
      return kNoId;
    }
    for (std::size_t i = spread_bits(fingerprint) & mask_;; i = (i + 1) & mask_) {
      const std::uint32_t id = slots_[i];
      if (id == kNoId || fingerprints_[id] == fingerprint) {
        return id;
      }
    }
  }

  /// Starts loading the slot where find(fingerprint) begins, so that a batch of lookups waits
  /// for memory once rather than once each.
  void prefetch_slot(std::uint64_t fingerprint) const {
    if (slots_ != nullptr) {
      __builtin_prefetch(&slots_[spread_bits(fingerprint) & mask_]);
    }
  }

  /// After prefetch_slot(): starts loading the fingerprint that slot names, which find()
  /// compares next.
  void prefetch_id(std::uint64_t fingerprint) const {
    if (slots_ != nullptr) {
      const std::uint32_t id = slots_[spread_bits(fingerprint) & mask_];
      if (id != kNoId) {
        __builtin_prefetch(&fingerprints_[id]);
      }
    }
  }

  /// Makes room for `extra` more states, so that add() cannot throw; may throw
  /// std::bad_alloc, leaving the set as it was.
  void reserve(std::size_t extra) {
    const std::size_t want = size() + extra;
    fingerprints_.reserve(want);
    std::size_t slots = capacity_ == 0 ? kMinSlots : capacity_;
    while (want * 4 > slots * 3) {
      slots *= 2;
    }
    if (slots != capacity_) {
      rehash(slots);
    }
  }

  /// The bytes reserve(extra) would hold in all.
  std::size_t bytes_after_reserve(std::size_t extra) const {
    const std::size_t want = size() + extra;
    std::size_t slots = capacity_ == 0 ? kMinSlots : capacity_;
    while (want * 4 > slots * 3) {
      slots *= 2;
    }
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
  static constexpr std::size_t kMinSlots = 1U << 12;

  void place(std::uint64_t fingerprint, std::uint32_t id) {
    std::size_t i = spread_bits(fingerprint) & mask_;
    while (slots_[i] != kNoId) {
      i = (i + 1) & mask_;
    }
    slots_[i] = id;
  }

  void rehash(std::size_t slots) {
    auto fresh = std::make_unique_for_overwrite<std::uint32_t[]>(slots);
    for (std::size_t i = 0; i < slots; ++i) {
      fresh[i] = kNoId;
    }
    slots_ = std::move(fresh);
    capacity_ = slots;
    mask_ = slots - 1;
    for (std::size_t id = 0; id < fingerprints_.size(); ++id) {
      place(fingerprints_[id], static_cast<std::uint32_t>(id));
    }
  }

  ChunkedArray<std::uint64_t> fingerprints_;
  std::unique_ptr<std::uint32_t[]> slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
};

}  // namespace preemptcheck::checker
