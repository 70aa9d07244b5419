// RankSearch: the state of one rank of the distributed search (checker/mpi/distributed_explorer.h)
// — its limits and options, its part of the visited set and of the frontier (checker/store/),
// the level under way and what its steps found (checker/level_findings.h) — with the helpers
// every phase uses: which rank owns a fingerprint, the stop flags OR-ed over the ranks, the
// clock, memory and progress. The phases build on it one class each, one header each:
// RankCommit (checker/mpi/rank_commit.h) ends a level, DistributedExplorer expands and runs the
// levels. Included by checker/explore_auto.h in the MPI build only.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "checker/explore_failure.h"
#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/level_findings.h"
#include "checker/model.h"
#include "checker/mpi/rank_group.h"
#include "checker/mpi/state_codec.h"
#include "checker/store/chunked_array.h"
#include "checker/store/rank_visited_set.h"

namespace preemptcheck::checker::detail {

/// See the file comment; everything is for the classes derived from it.
template <Model M>
class RankSearch {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  RankSearch(const M& model, const Limits& limits, const ExploreOptions<Action>& opts,
             MPI_Comm comm)
      : model_(model),
        limits_(limits),
        opts_(opts),
        ranks_(comm),
        rank_(ranks_.rank()),
        size_(ranks_.size()),
        threads_(std::max(1U, opts.threads)),
        codec_(model),
        capacity_(state_capacity(limits, kMaxIds)) {}

 protected:
  static constexpr bool kPacked = StateCodec<M>::kPacked;
  static constexpr bool kRaw = StateCodec<M>::kRaw;
  static constexpr std::uint64_t kMaxIds = VisitedSet::kNoId;
  static constexpr std::size_t kRoundParents = 2048;  // frontier states per thread per round
  // Set in a step record's length word when the step violated a property and every
  // violating state is recorded (per property, or past the first violation).
  static constexpr std::uint64_t kViolatingBit = std::uint64_t{1} << 63;

  // Stop flags, OR-ed over the ranks; the lowest set bit names the limit.
  static constexpr unsigned kStopError = 1;
  static constexpr unsigned kStopOom = 2;
  static constexpr unsigned kStopMemory = 4;
  static constexpr unsigned kStopTime = 8;
  static constexpr unsigned kStopInterrupt = 16;

  // The rank that owns a fingerprint.
  int owner(std::uint64_t fingerprint) const {
    const std::uint64_t mixed = (fingerprint ^ (fingerprint >> 31)) * 0x9e3779b97f4a7c15ULL;
    return static_cast<int>((mixed >> 32) % static_cast<std::uint64_t>(size_));
  }

  // Throws RankFailure on every rank when any rank failed (`stop` has kStopError).
  void raise_failure(unsigned stop) {
    if ((stop & kStopError) == 0) {
      return;
    }
    const auto failing =
        static_cast<int>(ranks_.all_min(error_.empty() ? std::numeric_limits<std::uint64_t>::max()
                                                       : static_cast<std::uint64_t>(rank_)));
    const std::string message = ranks_.broadcast(error_, failing);
    throw RankFailure("rank " + std::to_string(failing) + " of " + std::to_string(size_) +
                      " failed: " + message);
  }

  // Sets the limit the stop flags name; returns whether the search must stop.
  bool stop_for(unsigned stop) {
    raise_failure(stop);
    if ((stop & kStopOom) != 0) {
      result_.limit = kOutOfMemory;
    } else if ((stop & kStopMemory) != 0) {
      result_.limit = kMemoryLimit;
    } else if ((stop & kStopTime) != 0) {
      result_.limit = kTimeLimit;
    } else if ((stop & kStopInterrupt) != 0) {
      result_.limit = kInterrupted;
    }
    return stop != 0;
  }

  // A new fingerprint received in this level.
  struct Candidate {
    std::uint64_t key = 0;
    std::size_t at = 0;  // its encoding in level_bytes_
    std::size_t length = 0;
  };

  bool stops_at_first() const { return rule_.stops_at_first(); }

  bool all_decided() const { return remaining_ == 0 && !decided_.empty(); }

  // This rank's clock, memory and interrupt flag at the start of a level, as stop flags.
  unsigned level_start_checks() const {
    unsigned stop = 0;
    if (is_time_up(limits_, clock_.seconds())) {
      stop |= kStopTime;
    }
    if (is_over_memory_or_rss(limits_, memory_bytes())) {
      stop |= kStopMemory;
    }
    if (is_interrupted(limits_)) {
      stop |= kStopInterrupt;
    }
    return stop;
  }

  // During a level: this rank's clock, memory and error, as stop flags.
  unsigned round_checks() const {
    unsigned stop = error_.empty() ? 0U : kStopError;
    if (oom_) {
      stop |= kStopOom;
    }
    return stop | level_start_checks();
  }

  // Rank 0 prints the progress line with the figures of all ranks, at level starts.
  void report_progress() {
    if (!opts_.progress) {
      return;
    }
    const std::uint64_t memory = ranks_.all_max(memory_bytes());
    const double seconds = clock_.seconds();
    if (rank_ != 0 || seconds < next_progress_) {
      return;
    }
    next_progress_ = seconds + opts_.progress_interval_seconds;
    opts_.progress(progress_stats(count_, transitions_, result_, seconds, frontier_total_, memory));
  }

  std::uint64_t memory_bytes() const {
    return visited_.bytes() + ids_.capacity() * sizeof(std::uint32_t) + parent_.bytes() +
           action_.bytes() + frontier_.memory() + level_bytes_.capacity() +
           candidates_.size() * (sizeof(Candidate) + 4 * sizeof(void*)) +
           findings_.violating.capacity() * sizeof(findings_.violating[0]);
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  const FindingsRule rule_{opts_.per_property, opts_.stop_at_violation};
  const RankGroup ranks_;
  const int rank_;
  const int size_;
  const unsigned threads_;  // expanding this rank's part of a round
  const StateCodec<M> codec_;
  const std::uint64_t capacity_;
  const Stopwatch clock_;

  // This rank's states: local index -> fingerprint (visited_), global id, parent, action.
  VisitedSet visited_;
  std::vector<std::uint32_t> ids_;  // ascending
  ChunkedArray<std::uint32_t> parent_;
  ChunkedArray<std::uint16_t> action_;
  EncodedFrontier frontier_;
  std::uint64_t frontier_total_ = 0;  // frontier states over all ranks
  std::uint64_t count_ = 0;           // states over all ranks
  std::uint64_t transitions_ = 0;
  std::vector<bool> decided_;  // per property: its own counterexample is recorded
  std::size_t remaining_ = 0;  // `always` properties not yet decided
  double next_progress_ = opts_.progress_interval_seconds;
  std::string error_;  // this rank's failure, if any
  bool oom_ = false;

  // The level being expanded.
  std::uint64_t level_start_ = 0;
  std::uint64_t level_size_ = 0;
  std::vector<std::uint32_t> succ_;  // succ_[i]: steps out of local frontier state i
  std::unordered_map<std::uint64_t, Candidate> candidates_;
  std::vector<std::byte> level_bytes_;
  // What this rank's steps found (checker/level_findings.h); its `violating` holds the
  // violating steps into states this rank owns, when all are recorded.
  LevelFindings findings_;

  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail
