// HugeArray: the arrays the search probes at random (the visited set's slots and
// fingerprints, the level table) on 2 MiB pages where the system allows it — Linux's
// transparent huge pages in "madvise" mode, Debian's default, give them only to memory that
// asks. One TLB entry then covers 512 times as much of a table, so a random probe misses the
// cache without also missing the TLB, and a table faults in once per 2 MiB instead of once
// per 4 KiB. Where the request is refused the memory is ordinary; nothing else changes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#include <sys/mman.h>

namespace preemptcheck::checker {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

/// Frees a HugeArray's memory (its elements are trivially destructible).
struct HugeArrayFree {
  void operator()(void* p) const noexcept { std::free(p); }
};

template <class T>
using HugeArray = std::unique_ptr<T[], HugeArrayFree>;

/// An array of n default-initialised T, on huge pages when it is at least one huge page
/// long; throws std::bad_alloc when the memory cannot be had.
template <class T>
HugeArray<T> make_huge_array(std::size_t n) {
  static_assert(std::is_trivially_destructible_v<T>);
  if (n > SIZE_MAX / sizeof(T) - kHugePage) {
    throw std::bad_alloc();
  }
  const std::size_t bytes = n * sizeof(T);
  const bool huge = bytes >= kHugePage;
  const std::size_t align = huge ? kHugePage : std::max<std::size_t>(alignof(T), 16);
  const std::size_t size = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, size == 0 ? align : size);
  if (p == nullptr) {
    throw std::bad_alloc();
  }
#ifdef MADV_HUGEPAGE
  if (huge) {
    ::madvise(p, size, MADV_HUGEPAGE);  // advice only: refused, the pages stay small
  }
#endif
  T* array = static_cast<T*>(p);
  std::uninitialized_default_construct_n(array, n);
  return HugeArray<T>(array);
}

}  // namespace preemptcheck::checker
