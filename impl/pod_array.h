// PodArray: one value per pod, stored inline so that copying a World — which the explorer
// does for every step — copies bytes instead of allocating.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "impl/scenario.h"

namespace preemptcheck {

/// A fixed-capacity array of kMaxPods values of which the first size() are in use.
template <class T>
class PodArray {
 public:
  void assign(std::size_t n, const T& value) {
    assert(n <= kMaxPods && "too many pods");
    size_ = static_cast<std::uint32_t>(n);
    values_.fill(value);
  }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return values_[i]; }
  const T& operator[](std::size_t i) const { return values_[i]; }
  T* begin() { return values_.data(); }
  T* end() { return values_.data() + size_; }
  const T* begin() const { return values_.data(); }
  const T* end() const { return values_.data() + size_; }

  friend bool operator==(const PodArray&, const PodArray&) = default;

 private:
  std::array<T, kMaxPods> values_{};
  std::uint32_t size_ = 0;  // 32 bits: no padding after values_ for T of alignment up to 4
};

}  // namespace preemptcheck
