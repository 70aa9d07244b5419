// DistributedExplorer: the breadth-first search of explore() spread over the ranks of an MPI
// job, with every figure and the counterexample identical to the single-process search.
//
// Design (after Stern and Dill's parallel Murphi, DiVinE and PREACH): a state belongs to the
// rank its fingerprint hashes to; each rank keeps its own part of the visited set and of the
// frontier, in the level search's stores (checker/store/): the fingerprints of its states in a
// FingerprintSet, their parent links and global ids on disk (TraceStore, RankIds), its frontier
// as encodings in a FrontierStore that goes to disk past 16 MiB, a level's new states claimed in
// a LevelTable, so that N ranks together hold about what one process holds. The search is
// level-synchronous. A level runs in rounds: each rank expands a chunk of its
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
// (checker/mpi/rank_group.h). The search is three classes, one header each, each built on the
// one before: RankSearch (checker/mpi/rank_search.h) holds a rank's state and the helpers,
// RankCommit (checker/mpi/rank_commit.h) is the owner's side of a level (what it receives, the
// end of the level, the walk of a counterexample across ranks), and DistributedExplorer, here,
// expands the levels in rounds and runs them.
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
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/model.h"
#include "checker/mpi/rank_commit.h"
#include "checker/store/frontier_store.h"
#include "checker/store/temp_file.h"
#include "checker/threads.h"

namespace preemptcheck::checker::detail {

/// The level-synchronous breadth-first search over the ranks of `comm`; see explore_auto().
template <Model M>
class DistributedExplorer : RankCommit<M> {
 public:
  using State = typename M::State;
  using Action = typename M::Action;
  using RankCommit<M>::RankCommit;

  Result<Action> run() {
    if (opts_.on_edge) {
      throw std::invalid_argument("a distributed search cannot show its edges");
    }
    begin_result(result_, model_.properties(), opts_.per_property);
    decided_.assign(result_.properties.size(), false);
    remaining_ = checked_always_properties(result_.properties);
    search();
    name_states();
    const std::uint64_t memory = ranks_.all_max(memory_bytes());
    return finish_result(result_, count_, transitions_, clock_.seconds(), memory);
  }

 private:
  using Base = RankCommit<M>;
  using Base::all_decided;
  using Base::capacity_;
  using Base::clock_;
  using Base::codec_;
  using Base::commit;
  using Base::count_;
  using Base::decided_;
  using Base::error_;
  using Base::findings_;
  using Base::found_;
  using Base::found_fps_;
  using Base::frontier_;
  using Base::frontier_ids_;
  using Base::frontier_total_;
  using Base::global_positions;
  using Base::ids_;
  using Base::kFrontierMemory;
  using Base::kMaxIds;
  using Base::kPacked;
  using Base::kRaw;
  using Base::kRoundUnits;
  using Base::kStopError;
  using Base::kStopInterrupt;
  using Base::kStopMemory;
  using Base::kStopOom;
  using Base::kStopTime;
  using Base::kViolatingBit;
  using Base::last_new_;
  using Base::level_size_;
  using Base::level_start_;
  using Base::level_start_checks;
  using Base::limits_;
  using Base::local_steps_below;
  using Base::memory_bytes;
  using Base::model_;
  using Base::name_states;
  using Base::next_progress_;
  using Base::oom_;
  using Base::opts_;
  using Base::own_unnamed_;
  using Base::owner;
  using Base::path_through;
  using Base::pick_violation;
  using Base::pool_;
  using Base::raise_failure;
  using Base::rank_;
  using Base::ranks_;
  using Base::receive;
  using Base::remaining_;
  using Base::report_progress;
  using Base::reserve_visited;
  using Base::result_;
  using Base::round_checks;
  using Base::rule_;
  using Base::shared_unnamed_;
  using Base::size_;
  using Base::stop_for;
  using Base::stops_at_first;
  using Base::succ_;
  using Base::table_;
  using Base::threads_;
  using Base::trace_;
  using Base::transitions_;
  using Base::units_;
  using Base::visited_;
  using typename Base::Frontier;
  using typename Base::Unnamed;
  using typename Base::UnnamedState;

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
      reserve_visited(1);
      visited_.insert(fingerprint);
      trace_.push_back(fingerprint, 0, 0);
      ids_.push_back(0);
      std::vector<std::byte> encoded;
      codec_.encode(initial, {}, 0, encoded);
      if constexpr (!kPacked && !kRaw) {
        encoded.clear();  // the initial state is the empty path
      }
      frontier_.push_encoded(encoded);
      frontier_ids_.push_back(0);
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

  bool any_enabled() {
    std::vector<Action> actions;
    bool any = false;
    units_.clear();
    frontier_.units(0, units_);
    for (const FrontierUnit& unit : units_) {
      frontier_.read_encoded(unit, 0, [&](std::uint32_t i, std::span<const std::byte> encoded) {
        if (frontier_ids_[i] == kNoId) {
          return true;  // replaced by another state of its fingerprint
        }
        actions.clear();
        model_.enabled_actions(codec_.decode(encoded), actions);
        any = !actions.empty();
        return !any;
      });
      if (any) {
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
    units_.clear();
    frontier_.units(0, units_);
    findings_.reset(result_.properties.size(), rule_);
    // Room for a quarter more new states than this rank stored in the last level; the table
    // grows in the level if that is too few.
    const std::size_t slots =
        std::max<std::size_t>(1U << 10, (last_new_ + last_new_ / 4) / 7 * 10 + 16);
    try {
      table_ = std::make_unique<LevelTable>(slots, parts_on_threads(threads_));
    } catch (const std::bad_alloc&) {
      oom_ = true;
    }
    std::uint64_t stop_parent = kNoKey;
    std::size_t next = 0;
    for (;;) {
      std::vector<std::vector<std::byte>> out(size_);
      const std::size_t end = std::min(units_.size(), next + threads_ * kRoundUnits);
      if (error_.empty() && !oom_) {
        expand_round(next, end, stop_parent, out);
      }
      next = end;
      std::vector<std::size_t> from;
      const std::vector<std::byte> in = ranks_.exchange(out, from);
      out.clear();
      if (error_.empty() && !oom_) {
        try {
          receive(in);
        } catch (const std::bad_alloc&) {
          oom_ = true;
        } catch (const TempFileError& e) {
          error_ = e.what();
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
      if (ranks_.all_or(next >= units_.size() ? 0U : 1U) == 0) {
        break;
      }
    }
    return commit();
  }

  // What one thread of this rank produced in a round.
  struct Expander {
    std::vector<std::vector<std::byte>> out;  // per owner rank, its steps
    LevelFindings findings;
    std::vector<Action> actions;
    Observation obs;
    std::string error;
    bool oom = false;
  };

  // Expands the frontier's units [from, to) on the rank's threads, each an equal part into
  // batches of its own, then joined per owner in thread order and the findings merged:
  // nothing here depends on the thread count, since an owner keeps the smallest key of each
  // state whatever order its steps arrive in. A state past `stop_parent` is not expanded.
  void expand_round(std::size_t from, std::size_t to, std::uint64_t stop_parent,
                    std::vector<std::vector<std::byte>>& out) {
    std::vector<Expander> expanders(threads_);
    on_threads(threads_, [&](std::size_t t) {
      Expander& x = expanders[t];
      x.out.resize(static_cast<std::size_t>(size_));
      x.findings.reset(result_.properties.size(), rule_);
      try {
        for (std::size_t u = from + (to - from) * t / threads_;
             u < from + (to - from) * (t + 1) / threads_; ++u) {
          const FrontierUnit& unit = units_[u];
          bool any = false;
          // (kNoId: a state another of its fingerprint replaced, never expanded)
          const auto expands = [&](std::uint32_t i) {
            return frontier_ids_[i] != kNoId && frontier_ids_[i] <= stop_parent;
          };
          for (std::uint32_t i = unit.first; i < unit.end && !any; ++i) {
            any = expands(i);
          }
          if (!any) {
            continue;
          }
          frontier_.read_encoded(unit, 0, [&](std::uint32_t i, std::span<const std::byte> encoded) {
            if (expands(i)) {
              expand(i, encoded, x);
            }
            return true;
          });
        }
      } catch (const std::bad_alloc&) {
        x.oom = true;
      } catch (const std::exception& e) {
        x.error = e.what();
      } catch (...) {
        x.error = "unknown exception";
      }
    });
    for (Expander& x : expanders) {
      oom_ = oom_ || x.oom;
      if (error_.empty()) {
        error_ = x.error;
      }
      findings_.merge(x.findings);
      for (std::size_t r = 0; r < out.size(); ++r) {
        out[r].insert(out[r].end(), x.out[r].begin(), x.out[r].end());
      }
    }
  }

  // Generates the steps of local frontier state i (encoded as `encoded`) into the owners'
  // batches.
  void expand(std::size_t i, std::span<const std::byte> encoded, Expander& x) {
    std::vector<Action>& actions = x.actions;
    Observation& obs = x.obs;
    const std::uint32_t id = frontier_ids_[i];
    const State state = codec_.decode(encoded);
    actions.clear();
    model_.enabled_actions(state, actions);
    check_action_count(actions.size());
    succ_[i] = static_cast<std::uint32_t>(actions.size());
    for (std::size_t a = 0; a < actions.size(); ++a) {
      obs.clear();
      const State next = model_.next_state(state, actions[a], obs);
      const std::uint64_t fingerprint = model_.fingerprint(next);
      const std::uint64_t key = key_of(id, a);
      std::vector<std::byte>& batch = x.out[owner(fingerprint)];
      append_u64(batch, fingerprint);
      append_u64(batch, key);
      const std::size_t length_at = batch.size();
      append_u64(batch, std::uint64_t{0});
      codec_.encode(next, encoded, a, batch);
      std::uint64_t length = batch.size() - length_at - sizeof(std::uint64_t);
      if (!obs.violated.empty() && !stops_at_first()) {
        length |= kViolatingBit;  // the owner records the state this step enters
      }
      std::memcpy(batch.data() + length_at, &length, sizeof(length));
      // The violating steps' states are recorded by their owner (receive()).
      x.findings.note(obs, key, fingerprint, result_.properties, decided_, rule_, false);
    }
  }
};

}  // namespace preemptcheck::checker::detail
