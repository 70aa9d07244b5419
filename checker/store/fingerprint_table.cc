// FingerprintTable: construction and growth.
#include "checker/store/fingerprint_table.h"

#include <bit>

namespace preemptcheck::checker {
namespace {

constexpr std::size_t kMinSlots = 1024;

}  // namespace

FingerprintTable::FingerprintTable(std::size_t expected) {
  const std::size_t slots = std::bit_ceil(expected + expected / 3 + 1);
  slots_.resize(slots < kMinSlots ? kMinSlots : slots);
  mask_ = slots_.size() - 1;
}

void FingerprintTable::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id == kNoId) {
      continue;
    }
    std::size_t i = home(slot.fingerprint);
    while (slots_[i].id != kNoId) {
      i = (i + 1) & mask_;
    }
    slots_[i] = slot;
  }
}

}  // namespace preemptcheck::checker
