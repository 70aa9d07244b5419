// RankSearch: the state of one rank of the distributed search (checker/mpi/distributed_explorer.h)
// — its limits and options, its part of the visited set, trace and frontier, kept in the level
// search's stores (checker/store/: the fingerprints of the states it owns in a FingerprintSet,
// their parent links in a TraceStore and their global ids in RankIds, both on disk, the frontier
// as encodings in a FrontierStore that spills to disk, a level's claims in a LevelTable), the level
// under way and what its steps found (checker/level_findings.h) — with the helpers every phase
// uses: which rank owns a fingerprint, the stop flags OR-ed over the ranks, the clock, memory,
// progress, the visited set's growth and the naming of violating states at the end. The phases
// build on it one class each, one header each: RankCommit (checker/mpi/rank_commit.h) ends a level,
// DistributedExplorer expands and runs the levels. Included by checker/explore_auto.h in the MPI
// build only.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
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
#include "checker/store/chunk_pool.h"
#include "checker/store/fingerprint_set.h"
#include "checker/store/frontier_store.h"
#include "checker/store/hash_slots.h"
#include "checker/store/level_table.h"
#include "checker/store/rank_ids.h"
#include "checker/store/temp_file.h"
#include "checker/store/trace_store.h"
#include "checker/threads.h"
#include "checker/visited_growth.h"

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
        capacity_(state_capacity(limits, kMaxIds)),
        merges_(merges_states(model)) {}

 protected:
  static constexpr bool kPacked = StateCodec<M>::kPacked;
  static constexpr bool kRaw = StateCodec<M>::kRaw;
  static constexpr std::uint64_t kMaxIds = kNoId;
  static constexpr std::size_t kRoundUnits = 8;  // frontier units per thread per round
  // The chunk pool's bytes in use past which the frontier's filled chunks go to its
  // temporary file, as in the level search.
  static constexpr std::size_t kFrontierMemory = std::size_t{16} << 20;
  using Frontier = FrontierStore<EncodedStates>;
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

  // A state that a violation entered, named at the end of the search (level_findings.h).
  using Unnamed = detail::Unnamed;
  using UnnamedState = detail::UnnamedState;

  // Makes room in the visited set for `extra` more states (visited_growth.h).
  void reserve_visited(std::size_t extra) {
    detail::reserve_visited(visited_, trace_, threads_, extra);
  }

  // Names the states the violations entered by their global ids, with one read of each
  // rank's trace: the shared ones (the same list on every rank) by their owner, and each
  // rank's own violating states gathered from every rank.
  void name_states() {
    std::unordered_map<std::uint64_t, std::uint32_t> local;
    for (const UnnamedState& u : shared_unnamed_) {
      local.emplace(u.fingerprint, kNoId);
    }
    for (const std::uint64_t f : own_unnamed_) {
      local.emplace(f, kNoId);
    }
    if (!local.empty()) {
      trace_.for_each_fingerprint([&](std::size_t i, std::uint64_t f) {
        if (const auto it = local.find(f); it != local.end()) {
          it->second = static_cast<std::uint32_t>(i);
        }
      });
    }
    const auto global = [&](std::uint64_t f) -> std::uint64_t {
      const std::uint32_t i = local.at(f);
      return i == kNoId ? kNoKey : ids_[i];
    };
    std::vector<std::uint64_t> shared;
    for (const UnnamedState& u : shared_unnamed_) {
      shared.push_back(global(u.fingerprint));
    }
    shared = ranks_.all_min(shared);
    std::vector<std::uint32_t> own;
    for (const std::uint64_t f : own_unnamed_) {
      const std::uint64_t id = global(f);
      if (id == kNoKey) {
        throw std::logic_error("a violating state is not in its owner's trace");
      }
      own.push_back(static_cast<std::uint32_t>(id));
    }
    own = ranks_.all_gather(own);
    result_.violating_states.insert(result_.violating_states.end(), own.begin(), own.end());
    for (std::size_t k = 0; k < shared_unnamed_.size(); ++k) {
      const UnnamedState& u = shared_unnamed_[k];
      if (shared[k] == kNoKey) {
        throw std::logic_error("a violating state is in no rank's trace");
      }
      const auto id = static_cast<std::uint32_t>(shared[k]);
      name_state(result_, u, id);
    }
    shared_unnamed_.clear();
    own_unnamed_.clear();
  }

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
    std::uint64_t bytes = visited_.bytes() + trace_.bytes() + ids_.bytes() + pool_.bytes() +
                          frontier_.bytes() + found_.bytes() +
                          units_.capacity() * sizeof(FrontierUnit) +
                          succ_.capacity() * sizeof(std::uint32_t) +
                          findings_.violating.capacity() * sizeof(findings_.violating[0]);
    if (table_) {
      bytes += table_->bytes();
    }
    return bytes + TempFile::bytes_in_memory();
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
  const bool merges_;
  const Stopwatch clock_;

  // This rank's states, each with its own index (the order of its trace): the fingerprints,
  // and by index the fingerprint, parent id and action (trace_) and the global id (ids_).
  ChunkPool pool_;  // before everything that takes chunks from it
  FingerprintSet visited_;
  TraceStore trace_;
  RankIds ids_;
  std::vector<UnnamedState> shared_unnamed_;  // the same on every rank; named at the end
  std::vector<std::uint64_t> own_unnamed_;    // violating states this rank owns
  // The level's states this rank owns (their encodings, and by index their global ids).
  Frontier frontier_{pool_, kFrontierMemory};
  PooledArray<std::uint32_t> frontier_ids_{pool_};
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
  std::size_t last_new_ = 0;         // new states this rank stored in the last level
  std::vector<FrontierUnit> units_;  // the frontier's
  std::vector<std::uint32_t> succ_;  // succ_[i]: steps out of local frontier state i
  // The new states received: claimed with their smallest key, their encodings and
  // fingerprints in the order they were first received.
  std::unique_ptr<LevelTable> table_;
  Frontier found_{pool_, kFrontierMemory};
  PooledArray<std::uint64_t> found_fps_{pool_};
  // With merges_ (two different states may share a fingerprint, checker/model.h): also the
  // states whose claim lowered the key, and each one's own step key; the commit keeps those
  // whose key stayed smallest, and the others get the id kNoId and are not expanded.
  PooledArray<std::uint64_t> found_keys_{pool_};
  // What this rank's steps found (checker/level_findings.h); its `violating` holds the
  // violating steps into states this rank owns, when all are recorded.
  LevelFindings findings_;

  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail
