// FingerprintTable: the sequential explorer's visited set (the search that shows its edges,
// checker/sequential_explorer.h), an open-addressing map from 64-bit state fingerprints to
// dense state ids. Flat and linearly probed, since it is the hot path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace preemptcheck::checker {

class FingerprintTable {
 public:
  /// The id that marks "absent"; real ids are smaller.
  static constexpr std::uint32_t kNoId = std::numeric_limits<std::uint32_t>::max();

  /// An empty table with room for `expected` entries before it grows.
  explicit FingerprintTable(std::size_t expected = 0);

  /// The id stored for `fingerprint`, or kNoId.
  std::uint32_t find(std::uint64_t fingerprint) const {
    for (std::size_t i = home(fingerprint);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.id == kNoId || slot.fingerprint == fingerprint) {
        return slot.id;
      }
    }
  }

  /// Stores `id` (not kNoId) for `fingerprint` unless it is present; returns the id now
  /// stored for it and whether this call inserted it.
  std::pair<std::uint32_t, bool> insert(std::uint64_t fingerprint, std::uint32_t id) {
    if ((size_ + 1) * 4 > slots_.size() * 3) {
      grow();
    }
    for (std::size_t i = home(fingerprint);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.id == kNoId) {
        slot = Slot{fingerprint, id};
        ++size_;
        return {id, true};
      }
      if (slot.fingerprint == fingerprint) {
        return {slot.id, false};
      }
    }
  }

  /// The number of fingerprints stored.
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t fingerprint = 0;
    std::uint32_t id = kNoId;
  };

  // Spreads the fingerprint's bits (the splitmix64 finaliser), so that models with weak
  // fingerprints such as small packed integers still probe well.
  std::size_t home(std::uint64_t fingerprint) const {
    std::uint64_t x = fingerprint;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return static_cast<std::size_t>(x) & mask_;
  }

  void grow();

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker
