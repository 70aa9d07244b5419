// BoundedVec: a vector with its capacity inline, so that a World holding its queues in one —
// the watch events, activeQ, the executor's jobs — is copied as flat bytes, with no heap
// allocation per explored step. It offers the subset of std::vector's interface the
// components use. Going past the capacity throws std::length_error naming the queue; it is
// never undefined behaviour.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace preemptcheck {

/// At most N values of T in insertion order. Slots past size() always hold T{}, so two equal
/// vectors have equal bytes (which the packed encoding of a World relies on for its size,
/// not for its correctness).
template <class T, std::size_t N>
class BoundedVec {
  static_assert(N > 0 && N <= 255, "at most 255 entries");
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](std::size_t i) { return values_[i]; }
  const T& operator[](std::size_t i) const { return values_[i]; }
  T& front() { return values_[0]; }
  const T& front() const { return values_[0]; }
  T& back() { return values_[size_ - 1U]; }
  const T& back() const { return values_[size_ - 1U]; }

  T* begin() { return values_.data(); }
  T* end() { return values_.data() + size_; }
  const T* begin() const { return values_.data(); }
  const T* end() const { return values_.data() + size_; }

  /// Appends v; throws std::length_error when full.
  void push_back(const T& v) { insert(end(), v); }

  /// Inserts v before `at`; throws std::length_error when full.
  T* insert(const T* at, const T& v) {
    if (size_ == N) {
      throw std::length_error(overflow_message());
    }
    const auto i = static_cast<std::size_t>(at - values_.data());
    const T copy = v;  // v may live in this vector
    std::copy_backward(values_.data() + i, values_.data() + size_, values_.data() + size_ + 1);
    values_[i] = copy;
    ++size_;
    return values_.data() + i;
  }

  /// Removes [first, last), keeping the order of the rest.
  T* erase(const T* first, const T* last) {
    const auto i = static_cast<std::size_t>(first - values_.data());
    const auto j = static_cast<std::size_t>(last - values_.data());
    std::copy(values_.data() + j, values_.data() + size_, values_.data() + i);
    const std::size_t kept = size_ - (j - i);
    std::fill(values_.data() + kept, values_.data() + size_, T{});
    size_ = static_cast<std::uint32_t>(kept);
    return values_.data() + i;
  }
  T* erase(const T* at) { return erase(at, at + 1); }

  void clear() { erase(begin(), end()); }

  friend bool operator==(const BoundedVec& x, const BoundedVec& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }
  /// Element-wise, as std::vector compares (tests state expected queues as vectors).
  friend bool operator==(const BoundedVec& x, const std::vector<T>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }

 private:
  static std::string overflow_message() {
    return "a bounded queue of the World is full (" + std::to_string(N) +
           " entries, sized from the pod limit); the scenario is outside what the model was "
           "sized for";
  }

  std::array<T, N> values_{};
  std::uint32_t size_ = 0;  // 32 bits: no padding after values_ for T of alignment up to 4
};

}  // namespace preemptcheck
