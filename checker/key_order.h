// KeyOrder: the new states of a level as one list in step-key order, read straight from the
// workers' own key-sorted lists (checker/level_explorer.h) without merging them into one. Any
// rank of the merged order is found by a binary search over the keys, so that each thread can
// take an equal part of the merged order and write its states' ids and trace records on its
// own: the end of a level runs on every thread, not on one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace preemptcheck::checker::detail {

/// See the file comment. Entry has key() (unique over all lists); each list ascends by it.
template <class Entry>
class KeyOrder {
 public:
  explicit KeyOrder(const std::vector<std::vector<Entry>>& lists) : lists_(lists) {
    for (const std::vector<Entry>& list : lists_) {
      size_ += list.size();
    }
  }

  /// Entries over all lists.
  std::size_t size() const { return size_; }

  /// How many entries have a key below `key`.
  std::size_t below(std::uint64_t key) const {
    std::size_t n = 0;
    for (const std::vector<Entry>& list : lists_) {
      n += lower(list, key);
    }
    return n;
  }

  /// The key of the entry at merged rank `rank` (< size()).
  std::uint64_t key_at(std::size_t rank) const {
    // The smallest key with more than `rank` keys at or below it.
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    for (const std::vector<Entry>& list : lists_) {
      if (!list.empty()) {
        hi = std::max(hi, list.back().key());
      }
    }
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (below(mid + 1) > rank) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /// Per list, how many of its entries come before merged rank `rank` (<= size()).
  std::vector<std::size_t> split(std::size_t rank) const {
    std::vector<std::size_t> at(lists_.size());
    if (rank >= size_) {
      for (std::size_t w = 0; w < lists_.size(); ++w) {
        at[w] = lists_[w].size();
      }
      return at;
    }
    const std::uint64_t key = key_at(rank);
    for (std::size_t w = 0; w < lists_.size(); ++w) {
      at[w] = lower(lists_[w], key);
    }
    return at;
  }

  /// Calls f(rank, list, entry) for the merged ranks [from, to), in key order.
  template <class F>
  void for_range(std::size_t from, std::size_t to, const F& f) const {
    std::vector<std::size_t> head = split(from);
    for (std::size_t rank = from; rank < to; ++rank) {
      std::size_t best = lists_.size();
      for (std::size_t w = 0; w < lists_.size(); ++w) {
        if (head[w] < lists_[w].size() &&
            (best == lists_.size() || lists_[w][head[w]].key() < lists_[best][head[best]].key())) {
          best = w;
        }
      }
      f(rank, best, lists_[best][head[best]++]);
    }
  }

 private:
  static std::size_t lower(const std::vector<Entry>& list, std::uint64_t key) {
    return static_cast<std::size_t>(
        std::lower_bound(list.begin(), list.end(), key,
                         [](const Entry& e, std::uint64_t k) { return e.key() < k; }) -
        list.begin());
  }

  const std::vector<std::vector<Entry>>& lists_;
  std::size_t size_ = 0;
};

}  // namespace preemptcheck::checker::detail
