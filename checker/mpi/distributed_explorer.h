// DistributedExplorer: the breadth-first search of explore() spread over the ranks of an MPI
// job, with every figure and the counterexample identical to the single-process search.
//
// Design (after Stern and Dill's parallel Murphi, DiVinE and PREACH): a state belongs to the
// rank its fingerprint hashes to; each rank keeps its own part of the visited set (with the
// global id, parent id and action index of each of its states) and of the frontier. The
// search is level-synchronous. A level runs in rounds: each rank expands a chunk of its
// frontier and sends every successor (fingerprint, key, encoded state) to its owner in one
// batch per owner (MPI_Alltoallv); the owner keeps, per new fingerprint, the smallest key
// (parent id << 16 | action index) — the step the sequential search discovers it by.
// After the level, global ids follow the sequential order: the keys are sent to the rank
// that owns their parent-id block, merged there, offset by an exclusive scan of the block
// totals, and the ids sent back. The step that ends the search (first violation, first new
// state past max_states, or with per-property results the last of the remaining properties'
// own first violations) is found from the smallest keys over all ranks (MPI_Allreduce), and
// only steps below it are counted, as in LevelExplorer: the same violations in the same
// canonical order as one process. When every violating state is recorded (per property, or
// past the first violation), a violating step is flagged in its record and its owner reports
// the state's id. A counterexample is rebuilt by walking the parent links across ranks (one
// collective per step) and re-running the model along the action indices on every rank.
//
// States travel as bytes (checker/mpi/state_codec.h); the collectives are RankGroup's
// (checker/mpi/rank_group.h). This header holds the class and the level loop (expanding rounds,
// stop flags, progress); what an owner does with the successors it receives, the end of a
// level and the walk of a counterexample across ranks are in
// checker/mpi/distributed_explorer_commit.h, included at the end of this one.
//
// Failures: an exception on one rank is reported to all at the end of the round and every
// rank throws RankFailure naming the lowest failing rank; std::bad_alloc stops the search
// with "out of memory", the per-rank memory and the time limits with their names, with the
// figures as of the start of the level, as in one process. A rank that dies is handled by
// Open MPI, which aborts the job (mpirun exits non-zero with a message).
// Included by checker/explore_auto.h in the MPI build only.
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

/// The level-synchronous breadth-first search over the ranks of `comm`; see explore_auto().
template <Model M>
class DistributedExplorer {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  DistributedExplorer(const M& model, const Limits& limits, const ExploreOptions<Action>& opts,
                      MPI_Comm comm)
      : model_(model),
        limits_(limits),
        opts_(opts),
        ranks_(comm),
        rank_(ranks_.rank()),
        size_(ranks_.size()),
        codec_(model),
        capacity_(state_capacity(limits, kMaxIds)) {}

  Result<Action> run() {
    if (opts_.on_edge) {
      throw std::invalid_argument("a distributed search cannot show its edges");
    }
    begin_result(result_, model_.properties(), opts_.per_property);
    decided_.assign(result_.properties.size(), false);
    remaining_ = checked_always_properties(result_.properties);
    search();
    const std::uint64_t memory = ranks_.all_max(memory_bytes());
    return finish_result(result_, count_, transitions_, clock_.seconds(), memory);
  }

 private:
  static constexpr bool kPacked = StateCodec<M>::kPacked;
  static constexpr bool kRaw = StateCodec<M>::kRaw;
  static constexpr std::uint64_t kMaxIds = VisitedSet::kNoId;
  static constexpr std::size_t kRoundParents = 2048;  // frontier states per rank per round
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

  void search() {
    if (capacity_ == 0) {
      result_.limit = kMaxStatesLimit;
      return;
    }
    if (!start()) {
      return;
    }
    for (std::uint32_t depth = 0; frontier_total_ != 0; ++depth) {
      if (stop_for(ranks_.all_or(level_start_checks()))) {
        return;
      }
      report_progress();
      if (limits_.max_depth && depth >= *limits_.max_depth) {
        if (ranks_.all_or(any_enabled() ? 1U : 0U) != 0) {
          result_.limit = kMaxDepthLimit;
        }
        return;
      }
      if (!expand_level()) {
        return;
      }
    }
  }

  // Every rank checks the initial state the same way; its owner stores it.
  bool start() {
    const State initial = model_.initial_state();
    const std::uint64_t fingerprint = model_.fingerprint(initial);
    result_.level_starts.push_back(0);
    count_ = 1;
    frontier_total_ = 1;
    if (owner(fingerprint) == rank_) {
      visited_.reserve(1);
      visited_.add(fingerprint);
      ids_.push_back(0);
      parent_.push_back(0);
      action_.push_back(0);
      std::vector<std::byte> encoded;
      codec_.encode(initial, {}, 0, encoded);
      if constexpr (!kPacked && !kRaw) {
        encoded.clear();  // the initial state is the empty path
      }
      frontier_.push(encoded, 0);
    }
    Observation obs;
    model_.check_initial(initial, obs);
    note_reached(obs, result_);
    if (!obs.violated.empty() &&
        record_initial_violation(obs, opts_, result_, decided_, remaining_)) {
      return false;
    }
    return true;
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

  bool any_enabled() const {
    std::vector<Action> actions;
    for (std::size_t i = 0; i < frontier_.size(); ++i) {
      actions.clear();
      model_.enabled_actions(codec_.decode(frontier_.encoding(i)), actions);
      if (!actions.empty()) {
        return true;
      }
    }
    return false;
  }

  // Expands the whole level on every rank; returns whether the search goes on.
  bool expand_level() {
    level_start_ = result_.level_starts.back();
    level_size_ = frontier_total_;
    succ_.assign(frontier_.size(), 0);
    candidates_.clear();
    level_bytes_.clear();
    findings_.reset(result_.properties.size(), rule_);
    std::uint64_t stop_parent = kNoKey;
    std::size_t next = 0;
    for (;;) {
      std::vector<std::vector<std::byte>> out(size_);
      const std::size_t end = std::min(frontier_.size(), next + kRoundParents);
      if (error_.empty() && !oom_) {
        try {
          for (; next < end && frontier_.ids[next] <= stop_parent; ++next) {
            expand(next, out);
          }
        } catch (const std::bad_alloc&) {
          oom_ = true;
        } catch (const std::exception& e) {
          error_ = e.what();
        } catch (...) {
          error_ = "unknown exception";
        }
      }
      if (next < frontier_.size() && frontier_.ids[next] > stop_parent) {
        next = frontier_.size();
      }
      std::vector<std::size_t> from;
      const std::vector<std::byte> in = ranks_.exchange(out, from);
      out.clear();
      if (error_.empty() && !oom_) {
        try {
          receive(in);
        } catch (const std::bad_alloc&) {
          oom_ = true;
        }
      }
      const unsigned stop = ranks_.all_or(round_checks());
      if (stop_for(stop)) {
        return false;
      }
      if (stops_at_first()) {
        // No parent after the first violating one can hold the first violation: skip them.
        const std::uint64_t first = findings_.first_key;
        stop_parent =
            std::min(stop_parent, ranks_.all_min(first == kNoKey ? kNoKey : key_parent(first)));
      }
      const bool done = next >= frontier_.size() || frontier_.ids[next] > stop_parent;
      if (ranks_.all_or(done ? 0U : 1U) == 0) {
        break;
      }
    }
    return commit();
  }

  // Generates the steps of local frontier state i into the owners' batches.
  void expand(std::size_t i, std::vector<std::vector<std::byte>>& out) {
    const std::uint32_t id = frontier_.ids[i];
    const std::span<const std::byte> encoded = frontier_.encoding(i);
    const State state = codec_.decode(encoded);
    actions_.clear();
    model_.enabled_actions(state, actions_);
    check_action_count(actions_.size());
    succ_[i] = static_cast<std::uint32_t>(actions_.size());
    for (std::size_t a = 0; a < actions_.size(); ++a) {
      obs_.clear();
      const State next = model_.next_state(state, actions_[a], obs_);
      const std::uint64_t fingerprint = model_.fingerprint(next);
      const std::uint64_t key = key_of(id, a);
      std::vector<std::byte>& batch = out[owner(fingerprint)];
      append_u64(batch, fingerprint);
      append_u64(batch, key);
      const std::size_t length_at = batch.size();
      append_u64(batch, std::uint64_t{0});
      codec_.encode(next, encoded, a, batch);
      std::uint64_t length = batch.size() - length_at - sizeof(std::uint64_t);
      if (!obs_.violated.empty() && !stops_at_first()) {
        length |= kViolatingBit;  // the owner records the state this step enters
      }
      std::memcpy(batch.data() + length_at, &length, sizeof(length));
      // The violating steps' states are recorded by their owner (receive()).
      findings_.note(obs_, key, fingerprint, result_.properties, decided_, rule_, false);
    }
  }

  // The owner's side of a level and the counterexample
  // (checker/mpi/distributed_explorer_commit.h).
  void receive(const std::vector<std::byte>& in);
  std::vector<std::uint64_t> global_positions(const std::vector<std::uint64_t>& keys) const;
  bool commit();
  std::uint64_t local_steps_below(std::uint64_t key) const;
  Violation<Action> pick_violation(std::uint64_t key, std::uint64_t local_key,
                                   const Observation& local_obs, std::uint64_t local_fp,
                                   std::optional<std::size_t> property);
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const;
  std::vector<std::uint32_t> violating_ids(std::uint64_t bound) const;

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
  std::vector<Action> actions_;
  Observation obs_;

  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail

#include "checker/mpi/distributed_explorer_commit.h"
