// RankIds: the global ids of the states one rank of the distributed search owns
// (checker/mpi/rank_search.h), by the rank's own index — the order of its trace
// (checker/store/trace_store.h), which holds each state's fingerprint, parent and action. The ids
// ascend (a rank stores a level's new states in key order, and the levels in order), so the
// index of an id is found by a binary search; a counterexample's path asks once per step, and
// the naming of violating states once per state, so all but the newest ids are kept in a
// temporary file (checker/store/temp_file.h), as the trace is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "checker/store/hash_slots.h"
#include "checker/store/temp_file.h"

namespace preemptcheck::checker {

class RankIds {
 public:
  /// Ids kept in memory before they go to the file.
  static constexpr std::size_t kTail = std::size_t{1} << 16;

  RankIds() { tail_.reserve(kTail); }

  std::size_t size() const { return written_ + tail_.size(); }

  /// Appends the id of the next index, greater than every id before it; throws TempFileError
  /// when the file cannot be written.
  void push_back(std::uint32_t id) {
    if (tail_.size() == kTail) {
      file_.append(tail_.data(), tail_.size() * sizeof(std::uint32_t));
      written_ += tail_.size();
      tail_.clear();
    }
    tail_.push_back(id);
  }

  /// The id at index `i`; throws TempFileError when the file cannot be read.
  std::uint32_t operator[](std::size_t i) const {
    if (i >= written_) {
      return tail_[i - written_];
    }
    std::uint32_t id = 0;
    file_.read(i * sizeof(std::uint32_t), &id, sizeof(id));
    return id;
  }

  /// The index of `id`, or kNoId when this rank does not own it.
  std::uint32_t find(std::uint32_t id) const {
    std::size_t lo = 0;
    std::size_t hi = size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if ((*this)[mid] < id) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < size() && (*this)[lo] == id ? static_cast<std::uint32_t>(lo) : kNoId;
  }

  /// Bytes held in memory.
  std::size_t bytes() const { return tail_.capacity() * sizeof(std::uint32_t); }

 private:
  TempFile file_;
  std::size_t written_ = 0;  // ids in the file
  std::vector<std::uint32_t> tail_;
};

}  // namespace preemptcheck::checker
