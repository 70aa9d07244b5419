// RankGroup: the collectives the distributed search runs over the ranks of an MPI
// communicator — minimum, maximum, sum and bitwise or of one number, the element-wise minimum
// of a list, the exchange of one batch per rank (MPI_Alltoallv), the gathering of every rank's
// list on every rank and the broadcast of a string — each called alike on every rank.
// In the MPI build only.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace preemptcheck::checker::detail {

/// The ranks of `comm`, and the collectives over them.
class RankGroup {
 public:
  explicit RankGroup(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  MPI_Comm comm() const { return comm_; }
  /// This process's rank.
  int rank() const { return rank_; }
  /// The number of ranks.
  int size() const { return size_; }

  /// The minimum, maximum, sum and bitwise or of every rank's `x`.
  std::uint64_t all_min(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_MIN, comm_);
    return out;
  }

  /// The element-wise minimum of every rank's `xs` (the same length on every rank).
  std::vector<std::uint64_t> all_min(const std::vector<std::uint64_t>& xs) const {
    std::vector<std::uint64_t> out(xs.size());
    MPI_Allreduce(xs.data(), out.data(), as_count(xs.size()), MPI_UINT64_T, MPI_MIN, comm_);
    return out;
  }

  std::uint64_t all_max(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_MAX, comm_);
    return out;
  }

  std::uint64_t all_sum(std::uint64_t x) const {
    std::uint64_t out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UINT64_T, MPI_SUM, comm_);
    return out;
  }

  unsigned all_or(unsigned x) const {
    unsigned out = 0;
    MPI_Allreduce(&x, &out, 1, MPI_UNSIGNED, MPI_BOR, comm_);
    return out;
  }

  /// `n` bytes as an MPI count; throws std::length_error past 2 GiB.
  static int as_count(std::size_t n) {
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      throw std::length_error("a distributed batch is larger than 2 GiB");
    }
    return static_cast<int>(n);
  }

  /// Sends out[r] to rank r and returns what every rank sent here, concatenated by rank;
  /// `from` receives the start of each rank's part (size_ + 1 entries).
  template <class T>
  std::vector<T> exchange(const std::vector<std::vector<T>>& out,
                          std::vector<std::size_t>& from) const {
    std::vector<int> send_counts(size_), recv_counts(size_), send_at(size_), recv_at(size_);
    std::vector<T> send;
    for (int r = 0; r < size_; ++r) {
      send_at[r] = as_count(send.size() * sizeof(T));
      send_counts[r] = as_count(out[r].size() * sizeof(T));
      send.insert(send.end(), out[r].begin(), out[r].end());
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_);
    std::size_t total = 0;
    from.assign(size_ + 1, 0);
    for (int r = 0; r < size_; ++r) {
      recv_at[r] = as_count(total);
      total += static_cast<std::size_t>(recv_counts[r]);
      from[r + 1] = total / sizeof(T);
    }
    std::vector<T> recv(total / sizeof(T));
    MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, recv.data(),
                  recv_counts.data(), recv_at.data(), MPI_BYTE, comm_);
    return recv;
  }

  /// Every rank's `mine`, concatenated by rank, on every rank.
  template <class T>
  std::vector<T> all_gather(const std::vector<T>& mine) const {
    std::vector<std::size_t> from;
    return exchange(std::vector<std::vector<T>>(static_cast<std::size_t>(size_), mine), from);
  }

  /// Broadcasts a string from `root`.
  std::string broadcast(std::string text, int root) const {
    std::uint64_t length = text.size();
    MPI_Bcast(&length, 1, MPI_UINT64_T, root, comm_);
    text.resize(length);
    MPI_Bcast(text.data(), as_count(length), MPI_CHAR, root, comm_);
    return text;
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace preemptcheck::checker::detail
