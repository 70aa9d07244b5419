// ChunkedArray: a growable array in fixed-size blocks, so that the explorer's dense per-state
// arrays never copy themselves on growth, never hold twice their size while growing, and can
// reserve room up front so that appending cannot throw.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "checker/store/huge_pages.h"

namespace preemptcheck::checker {

template <class T>
class ChunkedArray {
 public:
  /// Elements per block.
  static constexpr std::size_t kBlock = std::size_t{1} << 18;

  std::size_t size() const { return size_; }

  T& operator[](std::size_t i) { return blocks_[i / kBlock][i % kBlock]; }
  const T& operator[](std::size_t i) const { return blocks_[i / kBlock][i % kBlock]; }

  /// Allocates blocks so that `n` elements fit; may throw std::bad_alloc, leaving the array
  /// as it was apart from extra room.
  void reserve(std::size_t n) {
    blocks_.reserve((n + kBlock - 1) / kBlock);
    while (blocks_.size() * kBlock < n) {
      blocks_.push_back(make_huge_array<T>(kBlock));
    }
  }

  /// Appends; cannot throw when reserve(size() + 1) was called before.
  void push_back(const T& value) {
    if (size_ == blocks_.size() * kBlock) {
      reserve(size_ + 1);
    }
    (*this)[size_++] = value;
  }

  /// Bytes held, reserved room included.
  std::size_t bytes() const {
    return blocks_.size() * kBlock * sizeof(T) + blocks_.capacity() * sizeof(void*);
  }

 private:
  std::vector<HugeArray<T>> blocks_;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker
