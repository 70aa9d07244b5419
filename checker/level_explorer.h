// LevelExplorer: the breadth-first search behind explore() when no edge visitor is set —
// level-synchronous, on one or several threads, with a fingerprint-only visited set and a
// packed frontier, and with results identical to the sequential search for every thread
// count.
//
// How one level runs: the level's states are split into units of work
// (checker/store/frontier_store.h) that worker threads take in turn, reading each store front
// to back. Every successor is looked up in the visited set (read-only during the level); a
// fingerprint not there is claimed in the LevelTable with the key (parent id << 16 | action
// index), keeping the smallest key. The sequential search numbers states in exactly that key
// order, so after the level the new states are sorted by key and given the next ids, and the
// step that ends the search (the first violation, or the first new state past max_states) is
// the smallest such key: only the steps below it are counted. Violations, witnesses and counts
// found by the workers past that point are discarded.
//
// The search is four classes, one header each, each built on the one before: LevelSearch
// (checker/level_search.h) holds the state and the helpers, LevelWorkers
// (checker/level_workers.h) expands a level, LevelCommit (checker/level_commit.h) ends it, and
// LevelExplorer, here, runs the levels.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/level_commit.h"
#include "checker/model.h"

namespace preemptcheck::checker::detail {

/// The level-synchronous breadth-first search; see explore().
template <Model M>
class LevelExplorer : LevelCommit<M> {
 public:
  using State = typename M::State;
  using Action = typename M::Action;
  using LevelCommit<M>::LevelCommit;

  Result<Action> run() {
    begin_result(result_, model_.properties(), opts_.per_property);
    decided_.assign(result_.properties.size(), false);
    remaining_ = checked_always_properties(result_.properties);
    try {
      search();
      name_states();
    } catch (const std::bad_alloc&) {
      stop_for(kOutOfMemory);
    } catch (const std::length_error& e) {
      stop_for(kModelCapacityLimit);
      result_.limit_detail = e.what();
    } catch (const TempFileError& e) {
      stop_for(kTempFileLimit);
      result_.limit_detail = e.what();
    }
    return finish_result(result_, visited_.size(), transitions_, clock_.seconds(), memory_bytes());
  }

 private:
  using Base = LevelCommit<M>;
  using Base::abort_;
  using Base::all_decided;
  using Base::before_;
  using Base::capacity_;
  using Base::clock_;
  using Base::commit;
  using Base::decided_;
  using Base::fits;
  using Base::frontier_;
  using Base::kBatch;
  using Base::kFrontierMemory;
  using Base::kMaxIds;
  using Base::kTraceBlock;
  using Base::last_new_;
  using Base::level_size_;
  using Base::level_start_;
  using Base::limits_;
  using Base::memory_bytes;
  using Base::model_;
  using Base::name_states;
  using Base::next_progress_;
  using Base::next_rss_;
  using Base::next_unit_;
  using Base::on_clock;
  using Base::on_parts;
  using Base::oom_;
  using Base::opts_;
  using Base::pool_;
  using Base::release;
  using Base::remaining_;
  using Base::reserve_visited;
  using Base::result_;
  using Base::rule_;
  using Base::run_workers;
  using Base::sorted_;
  using Base::stop_for;
  using Base::stop_parent_;
  using Base::succ_;
  using Base::table_;
  using Base::threads_;
  using Base::trace_;
  using Base::transitions_;
  using Base::units_;
  using Base::unnamed_;
  using Base::visited_;
  using Base::workers_;
  using typename Base::BatchedStep;
  using typename Base::Entry;
  using typename Base::Pick;
  using typename Base::Unnamed;
  using typename Base::UnnamedState;
  using typename Base::Worker;

  void search() {
    if (capacity_ == 0) {
      result_.limit = kMaxStatesLimit;
      return;
    }
    if (!start()) {
      return;
    }
    for (std::uint32_t depth = 0; frontier_.size() != 0; ++depth) {
      if (!on_clock(true)) {
        return;
      }
      if (limits_.max_depth && depth >= *limits_.max_depth) {
        if (any_enabled()) {
          result_.limit = kMaxDepthLimit;
        }
        return;
      }
      if (!expand_level()) {
        return;
      }
    }
  }

  // Stores and checks the initial state; returns whether the search goes on.
  bool start() {
    State initial = model_.initial_state();
    const std::uint64_t fingerprint = model_.fingerprint(initial);
    reserve_visited(1);
    visited_.insert(fingerprint);
    trace_.push_back(fingerprint, 0, 0);
    result_.level_starts.push_back(0);
    Observation obs;
    model_.check_initial(initial, obs);
    note_reached(obs, result_);
    if (!obs.violated.empty() &&
        record_initial_violation(obs, opts_, result_, decided_, remaining_)) {
      return false;
    }
    frontier_ = LevelFrontier<M>::single(model_, pool_, std::move(initial));
    return true;
  }

  // Whether any frontier state has an enabled action (the max_depth cut).
  bool any_enabled() {
    std::vector<Action> actions;
    bool any = false;
    frontier_.for_each(model_, [&](const State& s) {
      actions.clear();
      model_.enabled_actions(s, actions);
      any = !actions.empty();
      return !any;
    });
    return any;
  }

  // Expands the whole frontier; returns whether the search goes on.
  bool expand_level() {
    level_size_ = frontier_.size();
    level_start_ = result_.level_starts.back();
    // Room for a quarter more new states than the last level found; the table grows in the
    // level if that is too few.
    const std::size_t slots =
        std::max<std::size_t>(1U << 10, (last_new_ + last_new_ / 4) / 7 * 10 + 16);
    if (!fits(slots * 2 * sizeof(std::uint64_t))) {
      return false;
    }
    if (table_) {
      table_->reset(slots, on_parts());
    } else {
      table_ = std::make_unique<LevelTable>(slots, on_parts());
    }
    succ_.assign(level_size_, 0);
    units_ = frontier_.units();
    workers_.clear();
    for (unsigned w = 0; w < threads_; ++w) {
      workers_.push_back(std::make_unique<Worker>(pool_, kFrontierMemory));
      Worker& worker = *workers_.back();
      worker.findings.reset(result_.properties.size(), rule_);
    }
    next_unit_.store(0);
    stop_parent_.store(kNoKey);
    abort_.store(false);
    oom_.store(false);
    for (;;) {
      run_workers();
      for (const auto& worker : workers_) {
        if (worker->error) {
          std::rethrow_exception(worker->error);
        }
      }
      if (oom_.load()) {
        release();
        stop_for(kOutOfMemory);
        return false;
      }
      if (abort_.load()) {
        release();
        // A worker other than 0 saw the time limit or an interrupt: name it here, as worker 0
        // would have (on_clock() cannot pass now: the time and the interrupt stay).
        if (result_.limit.empty() && on_clock(false))
          result_.limit = kTimeLimit;
        return false;
      }
      bool full = false;
      for (const auto& worker : workers_) {
        full = full || worker->full;
        worker->full = false;
      }
      // A time limit passed while the workers ran (worker 0 looks at the clock after each
      // unit of the frontier) is honoured before the table grows or the level is committed,
      // either of which takes seconds on a level of millions of states.
      if (!on_clock(false)) {
        release();
        return false;
      }
      if (!full) {
        break;
      }
      if (!fits(table_->bytes())) {
        release();
        return false;
      }
      table_->grow(on_parts());
    }
    const bool go_on = commit();
    release();
    return go_on;
  }
};

}  // namespace preemptcheck::checker::detail
