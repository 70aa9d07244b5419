// ChunkPool: fixed-size blocks of memory that the explorer's per-level buffers take and give
// back, so that a level reuses the memory the level before it freed. A fresh allocation of
// that size is a fresh mapping from the system, whose every page faults on first touch; a
// chunk taken back from the pool is already mapped. Chunks are given back to the system only
// when the pool is destroyed, at the end of the search, so the pool holds the most the search
// ever had in use at once — which is the peak it would have reached anyway.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace preemptcheck::checker {

/// Makes room in `v` for one more element, doubling its capacity when it is full, so that the
/// push_back after it cannot throw. (reserve(size() + 1) alone would reallocate, and copy, on
/// every call: libstdc++ reserves exactly what is asked.)
template <class Vector>
void reserve_one_more(Vector& v) {
  if (v.size() == v.capacity()) {
    v.reserve(v.capacity() < 8 ? 8 : v.capacity() * 2);
  }
}

class ChunkPool {
 public:
  /// Bytes per chunk.
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

  ChunkPool() = default;
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  /// A chunk of kChunkBytes bytes, from the free ones if any; thread-safe. May throw
  /// std::bad_alloc, leaving the pool as it was.
  std::byte* acquire() {
    const std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::byte* chunk = free_.back();
      free_.pop_back();
      return chunk;
    }
    reserve_one_more(all_);
    free_.reserve(all_.capacity());  // so that release() cannot throw
    all_.push_back(std::make_unique_for_overwrite<std::byte[]>(kChunkBytes));
    return all_.back().get();
  }

  /// Gives a chunk from acquire() back; thread-safe, cannot throw.
  void release(std::byte* chunk) noexcept {
    const std::lock_guard lock(mutex_);
    free_.push_back(chunk);
  }

  /// Bytes held, in use or free.
  std::size_t bytes() const {
    const std::lock_guard lock(mutex_);
    return all_.size() * kChunkBytes;
  }

  /// Bytes in use.
  std::size_t used_bytes() const {
    const std::lock_guard lock(mutex_);
    return (all_.size() - free_.size()) * kChunkBytes;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<std::byte[]>> all_;
  std::vector<std::byte*> free_;
};

/// A dense array of trivially copyable T in chunks of a ChunkPool, given back when the
/// array is destroyed or cleared.
template <class T>
class PooledArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kPerChunk = ChunkPool::kChunkBytes / sizeof(T);

  explicit PooledArray(ChunkPool& pool) : pool_(&pool) {}
  PooledArray(PooledArray&& other) noexcept
      : pool_(other.pool_),
        chunks_(std::move(other.chunks_)),
        size_(std::exchange(other.size_, 0)) {
    other.chunks_.clear();
  }
  PooledArray& operator=(PooledArray&& other) noexcept {
    if (this != &other) {
      clear();
      pool_ = other.pool_;
      chunks_ = std::move(other.chunks_);
      other.chunks_.clear();
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PooledArray(const PooledArray&) = delete;
  PooledArray& operator=(const PooledArray&) = delete;
  ~PooledArray() { clear(); }

  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data(i / kPerChunk)[i % kPerChunk]; }
  const T& operator[](std::size_t i) const { return data(i / kPerChunk)[i % kPerChunk]; }

  /// Appends; may throw std::bad_alloc, leaving the array as it was.
  void push_back(const T& value) {
    if (size_ == chunks_.size() * kPerChunk) {
      grow_one();
    }
    (*this)[size_++] = value;
  }

  /// Makes the size n, new elements uninitialised; may throw std::bad_alloc, leaving the
  /// size as it was.
  void resize(std::size_t n) {
    while (chunks_.size() * kPerChunk < n) {
      grow_one();
    }
    size_ = n;
  }

  /// Gives every chunk back to the pool.
  void clear() noexcept {
    for (std::byte* chunk : chunks_) {
      pool_->release(chunk);
    }
    chunks_.clear();
    size_ = 0;
  }

 private:
  T* data(std::size_t chunk) const { return reinterpret_cast<T*>(chunks_[chunk]); }

  void grow_one() {
    reserve_one_more(chunks_);
    chunks_.push_back(pool_->acquire());
  }

  ChunkPool* pool_;
  std::vector<std::byte*> chunks_;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker
