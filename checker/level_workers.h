// LevelWorkers: the expansion of a level — how the threads share out the level's states in
// units, generate every step, claim new fingerprints in the LevelTable with the smallest step
// key and note what the steps found (checker/level_findings.h), and how the first violation
// found lets them skip every parent after it. Built on LevelSearch (checker/level_search.h);
// LevelCommit (checker/level_commit.h) builds on it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/level_search.h"
#include "checker/store/hash_slots.h"
#include "checker/store/level_table.h"

namespace preemptcheck::checker::detail {

/// See the file comment.
template <Model M>
class LevelWorkers : protected LevelSearch<M> {
 public:
  using LevelSearch<M>::LevelSearch;

 protected:
  using Base = LevelSearch<M>;
  using Base::abort_;
  using Base::all_decided;
  using Base::before_;
  using Base::capacity_;
  using Base::clock_;
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
  using Base::merges_;
  using Base::model_;
  using Base::name_states;
  using Base::next_progress_;
  using Base::next_rss_;
  using Base::next_unit_;
  using Base::on_clock;
  using Base::oom_;
  using Base::opts_;
  using Base::pool_;
  using Base::release;
  using Base::remaining_;
  using Base::reserve_visited;
  using Base::result_;
  using Base::rule_;
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
  using typename Base::Action;
  using typename Base::BatchedStep;
  using typename Base::Entry;
  using typename Base::Pick;
  using typename Base::State;
  using typename Base::Unnamed;
  using typename Base::UnnamedState;
  using typename Base::Worker;

  void run_workers();
  void work(unsigned w);
  bool expand(Worker& worker, const State& state, std::uint64_t id, std::uint32_t index,
              std::size_t from);
  bool look_up(Worker& worker);
  void note(Worker& worker, const Observation& obs, std::uint64_t key, std::uint64_t fingerprint);
};

template <Model M>
void LevelWorkers<M>::run_workers() {
  if (threads_ == 1) {
    work(0);
    return;
  }
  std::vector<std::jthread> pool;
  pool.reserve(threads_ - 1);
  for (unsigned w = 1; w < threads_; ++w) {
    pool.emplace_back([this, w] { work(w); });
  }
  work(0);
}

// One worker's loop: take units until none is left or the level must pause.
template <Model M>
void LevelWorkers<M>::work(unsigned w) {
  Worker& worker = *workers_[w];
  try {
    for (;;) {
      if (!worker.pending) {
        const std::size_t unit = next_unit_.fetch_add(1);
        if (unit >= units_.size()) {
          return;
        }
        worker.unit = unit;
        worker.index = units_[unit].first;
        worker.action = 0;
        worker.pending = true;
      }
      bool stop = false;
      bool full = false;
      const std::uint32_t resume = worker.index;
      frontier_.read(model_, units_[worker.unit], resume,
                     [&](std::uint32_t id, std::uint32_t index, const State& state) {
                       if (abort_.load(std::memory_order_relaxed)) {
                         stop = true;
                         return false;
                       }
                       // No step from past the first violation's parent can count.
                       if (id <= stop_parent_.load(std::memory_order_relaxed) &&
                           !expand(worker, state, id, index, index == resume ? worker.action : 0)) {
                         full = true;
                         return false;
                       }
                       return true;
                     });
      if (!stop && !full) {
        full = !look_up(worker);
      }
      if (stop) {
        worker.batched = 0;
        return;
      }
      if (full) {
        worker.full = true;
        return;
      }
      worker.pending = false;
      if (w == 0 && !on_clock(false)) {
        abort_.store(true);
        return;
      }
      // The other workers look at the time limit and an interrupt too (only worker 0 prints
      // progress and sets the limit's name, after the workers end): on a loaded machine
      // worker 0 may not run for a while, and the rest would expand on past the limit.
      if (w != 0 && (is_time_up(limits_, clock_.seconds()) || is_interrupted(limits_))) {
        abort_.store(true);
        return;
      }
    }
  } catch (const std::bad_alloc&) {
    oom_.store(true);
    abort_.store(true);
  } catch (...) {
    worker.error = std::current_exception();
    abort_.store(true);
  }
}

// Makes the successors of frontier state `state` (id `id`, index `index` in its part) from
// action `from` on, into the worker's batch, looking the batch up whenever it fills; returns
// false when the level table must grow first (worker.index and worker.action say where to
// resume). The batch spans states, so that each state's few successors wait for memory
// together with many others (look_up()).
template <Model M>
bool LevelWorkers<M>::expand(Worker& worker, const State& state, std::uint64_t id,
                             std::uint32_t index, std::size_t from) {
  worker.actions.clear();
  model_.enabled_actions(state, worker.actions);
  check_action_count(worker.actions.size());
  const std::size_t count = worker.actions.size();
  succ_[id - level_start_] = static_cast<std::uint32_t>(count);
  for (std::size_t a = from; a < count; ++a) {
    if (worker.batched == kBatch && !look_up(worker)) {
      return false;
    }
    const std::size_t k = worker.batched++;
    Observation& obs = worker.next_obs[k];
    obs.clear();
    const State& next =
        worker.next.make(k, [&] { return model_.next_state(state, worker.actions[a], obs); });
    const std::uint64_t fingerprint = model_.fingerprint(next);
    worker.next_step[k] = {id, fingerprint, index, static_cast<std::uint32_t>(a)};
  }
  return true;
}

// Looks up the worker's batch of successors in order: claims the new ones and notes every
// step. Returns false when the level table must grow first; the step it stopped at is where
// the worker resumes (worker.index, worker.action), and the batch is emptied either way.
template <Model M>
bool LevelWorkers<M>::look_up(Worker& worker) {
  const std::size_t size = std::exchange(worker.batched, 0);
  // First only the loads of every step's home slots, in both tables: independent of each
  // other, their cache misses overlap, and the probes below find the lines in cache.
  std::uint64_t keys = 0;
  for (std::size_t k = 0; k < size; ++k) {
    const std::uint64_t fingerprint = worker.next_step[k].fingerprint;
    worker.home[k] = visited_.home_value(fingerprint);
    keys += table_->home_key(fingerprint);
  }
  worker.home_keys = keys;  // only so that those loads are made
  for (std::size_t k = 0; k < size; ++k) {
    const BatchedStep& step = worker.next_step[k];
    const std::uint64_t key = key_of(step.id, step.action);
    if (!visited_.contains(step.fingerprint, worker.home[k])) {
      std::size_t slot = 0;
      const LevelTable::Claim claim = table_->claim(step.fingerprint, key, slot);
      if (claim == LevelTable::Claim::kFull) {
        worker.index = step.index;
        worker.action = step.action;
        return false;
      }
      if (claim == LevelTable::Claim::kInserted ||
          (merges_ && claim == LevelTable::Claim::kLowered)) {
        worker.found_fps.push_back(step.fingerprint);
        worker.found.push(model_, std::move(worker.next[k]));
        if (merges_) {
          worker.found_keys.push_back(key);
        }
      }
    }
    note(worker, worker.next_obs[k], key, step.fingerprint);
  }
  return true;
}

// Records what one step observed.
template <Model M>
void LevelWorkers<M>::note(Worker& worker, const Observation& obs, std::uint64_t key,
                           std::uint64_t fingerprint) {
  if (worker.findings.note(obs, key, fingerprint, result_.properties, decided_, rule_) &&
      rule_.stops_at_first()) {
    // No parent after this one can hold the first violation: skip them.
    const std::uint64_t parent = key_parent(key);
    std::uint64_t current = stop_parent_.load(std::memory_order_relaxed);
    while (parent < current &&
           !stop_parent_.compare_exchange_weak(current, parent, std::memory_order_relaxed)) {
    }
  }
}

}  // namespace preemptcheck::checker::detail
