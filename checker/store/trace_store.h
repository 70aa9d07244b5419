// TraceStore: each state's fingerprint, parent id and action index, by id, for rebuilding a
// counterexample, for naming the states a search's violations entered, and for rebuilding
// the visited set (checker/store/fingerprint_set.h) when it grows. The search appends them level
// by level and reads them back only for those, so all but the newest are kept in a
// temporary file (checker/store/temp_file.h), as TLC keeps its trace, instead of in memory. A rank
// of the distributed search keeps the records of the states it owns here, by its own index
// (checker/store/rank_ids.h holds their global ids).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "checker/store/temp_file.h"

namespace preemptcheck::checker {

/// One state's record in the trace.
struct TraceRecord {
  std::uint64_t fingerprint;
  std::uint32_t parent;
  std::uint16_t action;
  std::uint16_t unused;
};

class TraceStore {
 public:
  using Record = TraceRecord;

  /// Records kept in memory before they go to the file.
  static constexpr std::size_t kTail = std::size_t{1} << 16;

  TraceStore() { tail_.reserve(kTail); }

  std::size_t size() const { return written_ + tail_.size(); }

  /// Appends the record of the next id (the initial state's parent and action are 0),
  /// writing the records held in memory to the file first when there are kTail of them;
  /// throws TempFileError when the file cannot be written, and nothing else.
  void push_back(std::uint64_t fingerprint, std::uint32_t parent, std::uint16_t action) {
    if (tail_.size() == kTail) {
      file_.append(tail_.data(), tail_.size() * sizeof(Record));
      written_ += tail_.size();
      tail_.clear();
    }
    tail_.push_back({fingerprint, parent, action, 0});
  }

  /// Makes room for the next `n` records, all in the file, and returns the id of the first;
  /// write() then fills them, on many threads at once. Throws TempFileError when the records
  /// held in memory cannot be written.
  std::size_t extend(std::size_t n) {
    if (!tail_.empty()) {
      file_.append(tail_.data(), tail_.size() * sizeof(Record));
      written_ += tail_.size();
      tail_.clear();
    }
    const std::size_t first = written_;
    file_.extend(n * sizeof(Record));
    written_ += n;
    return first;
  }

  /// Writes the records of ids [id, id + n), which extend() made room for; safe on many
  /// threads at once for ranges that do not overlap. Throws TempFileError.
  void write(std::size_t id, const Record* records, std::size_t n) const {
    file_.write_at(id * sizeof(Record), records, n * sizeof(Record));
  }

  /// Record i's fields; throw TempFileError when the file cannot be read.
  std::uint64_t fingerprint(std::size_t i) const { return at(i).fingerprint; }
  std::uint32_t parent(std::size_t i) const { return at(i).parent; }
  std::uint16_t action(std::size_t i) const { return at(i).action; }

  /// Calls f(id, fingerprint) for every record, in id order, reading the file front to back;
  /// throws TempFileError when it cannot be read.
  template <class F>
  void for_each_fingerprint(F&& f) const {
    for_each_fingerprint(0, size(), f);
  }

  /// The same for the records [from, to) only; safe on many threads at once.
  template <class F>
  void for_each_fingerprint(std::size_t from, std::size_t to, F&& f) const {
    const std::size_t file_end = std::min(to, written_);
    std::vector<Record> buffer(from < file_end ? std::min(file_end - from, kTail) : 0);
    for (std::size_t at = from; at < file_end; at += buffer.size()) {
      const std::size_t n = std::min(buffer.size(), file_end - at);
      file_.read(at * sizeof(Record), buffer.data(), n * sizeof(Record));
      for (std::size_t k = 0; k < n; ++k) {
        f(at + k, buffer[k].fingerprint);
      }
    }
    for (std::size_t i = std::max(from, written_); i < to; ++i) {
      f(i, tail_[i - written_].fingerprint);
    }
  }

  /// Bytes held in memory.
  std::size_t bytes() const { return tail_.capacity() * sizeof(Record); }
  /// Bytes in the file.
  std::size_t file_bytes() const { return file_.size(); }

 private:
  Record at(std::size_t i) const {
    if (i >= written_) {
      return tail_[i - written_];
    }
    Record r{};
    file_.read(i * sizeof(Record), &r, sizeof(Record));
    return r;
  }

  TempFile file_;
  std::size_t written_ = 0;  // records in the file
  std::vector<Record> tail_;
};

}  // namespace preemptcheck::checker
