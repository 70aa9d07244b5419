// Ranks: this process's part in a run launched by mpirun (docs/mpi.md). The lead — rank 0, or
// the one process outside mpirun — prints and writes; a follower searches its part and returns
// the lead's status. The commands see ranks only through this value; checker/mpi/ starts MPI
// and does the collectives.
#pragma once

#include <cstdint>

namespace preemptcheck {

class Ranks {
 public:
  /// This process's ranks: starts MPI when mpirun launched it (and the build has MPI); outside
  /// mpirun, the one lead of a run of one.
  static Ranks of_this_process();

  /// Whether this process prints the results and writes the files.
  bool is_lead() const { return rank_ == 0; }
  /// The number of ranks (1 outside mpirun).
  int size() const { return size_; }
  /// Whether more than one rank takes part.
  bool distributed() const { return size_ > 1; }

  /// The lead's `value`, on every rank (collective: every rank calls it; the others wait
  /// without spinning while the lead works alone). Outside mpirun: `value`.
  int from_lead(int value) const;
  /// The largest of every rank's `value` (collective). Outside mpirun: `value`.
  std::uint32_t largest(std::uint32_t value) const;

 private:
  Ranks(int rank, int size) : rank_(rank), size_(size) {}
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace preemptcheck
