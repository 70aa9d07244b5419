// LevelExplorer's workers: how the threads share out one level's states in chunks, generate
// every step, claim new fingerprints in the LevelTable with the smallest step key, and note
// the smallest key of each violation and witness — and how the first violation found lets
// them skip every parent after it. Part of checker/level_explorer.h, which includes it.
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
#include "checker/level_explorer.h"
#include "checker/level_table.h"
#include "checker/visited_set.h"

namespace preemptcheck::checker::detail {

template <Model M>
void LevelExplorer<M>::run_workers() {
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

// One worker's loop: take chunks until none is left or the level must pause.
template <Model M>
void LevelExplorer<M>::work(unsigned w) {
  Worker& worker = *workers_[w];
  try {
    for (;;) {
      if (!worker.pending) {
        const std::size_t begin = next_chunk_.fetch_add(1) * chunk_;
        if (begin >= level_size_) {
          return;
        }
        worker.pos = begin;
        worker.end = std::min(level_size_, begin + chunk_);
        worker.action = 0;
        worker.pending = true;
      }
      for (; worker.pos < worker.end; ++worker.pos) {
        if (abort_.load(std::memory_order_relaxed)) {
          return;
        }
        const std::uint64_t id = level_start_ + worker.pos;
        if (id > stop_parent_.load(std::memory_order_relaxed)) {
          worker.pos = worker.end;
          break;
        }
        if (!expand(worker, worker.pos, id)) {
          worker.full = true;
          return;
        }
        worker.action = 0;
      }
      worker.pending = false;
      worker.found_bytes.store(
          worker.found.bytes() + worker.found_fps.capacity() * sizeof(std::uint64_t),
          std::memory_order_relaxed);
      level_steps_.fetch_add(std::exchange(worker.steps, 0), std::memory_order_relaxed);
      if (w == 0 && !on_clock(false)) {
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

// Generates the steps of frontier state i (id `id`) from worker.action on; returns false
// when the level table must grow first (worker.action is where to resume).
template <Model M>
bool LevelExplorer<M>::expand(Worker& worker, std::size_t i, std::uint64_t id) {
  bool complete = true;
  frontier_.visit(model_, i, [&](const State& state) {
    worker.actions.clear();
    model_.enabled_actions(state, worker.actions);
    check_action_count(worker.actions.size());
    succ_[i] = static_cast<std::uint32_t>(worker.actions.size());
    for (std::size_t a = worker.action; a < worker.actions.size(); ++a) {
      worker.obs.clear();
      State next = model_.next_state(state, worker.actions[a], worker.obs);
      const std::uint64_t fingerprint = model_.fingerprint(next);
      const std::uint64_t key = key_of(id, a);
      if (visited_.find(fingerprint) == VisitedSet::kNoId) {
        std::size_t slot = 0;
        const LevelTable::Claim claim = table_->claim(fingerprint, key, slot);
        if (claim == LevelTable::Claim::kFull) {
          worker.action = a;
          complete = false;
          return;
        }
        if (claim == LevelTable::Claim::kInserted) {
          worker.found_fps.push_back(fingerprint);
          worker.found.push(model_, std::move(next));
        }
      }
      ++worker.steps;
      note(worker, key, fingerprint);
    }
  });
  return complete;
}

// Records what one step observed.
template <Model M>
void LevelExplorer<M>::note(Worker& worker, std::uint64_t key, std::uint64_t fingerprint) {
  const Observation& obs = worker.obs;
  for (const std::size_t property : obs.reached) {
    check_property(property, result_.properties);
    worker.reached_key[property] = std::min(worker.reached_key[property], key);
  }
  if (obs.violated.empty()) {
    return;
  }
  for (const auto& [property, message] : obs.violated) {
    check_property(property, result_.properties);
  }
  if (key < worker.first_key) {
    worker.first_key = key;
    worker.first_obs = obs;
    worker.first_fp = fingerprint;
  }
  if (opts_.per_property) {
    for (const auto& [property, message] : obs.violated) {
      if (!decided_[property] && key < worker.property_key[property]) {
        worker.property_key[property] = key;
        worker.property_obs[property] = obs;
        worker.property_fp[property] = fingerprint;
      }
    }
  } else if (opts_.stop_at_violation) {
    // No parent after this one can hold the first violation: skip them.
    const std::uint64_t parent = key_parent(key);
    std::uint64_t current = stop_parent_.load(std::memory_order_relaxed);
    while (parent < current &&
           !stop_parent_.compare_exchange_weak(current, parent, std::memory_order_relaxed)) {
    }
  }
  if (opts_.per_property || !opts_.stop_at_violation) {
    worker.violating.emplace_back(key, fingerprint);
  }
}

}  // namespace preemptcheck::checker::detail
