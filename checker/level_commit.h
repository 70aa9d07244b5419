// LevelCommit: the end of a level — the new states ordered by step key (each worker's list
// sorted on a thread of its own, then read in merged order, each thread writing the ids and
// trace records of an equal part of it: checker/key_order.h), the step at which the
// sequential search would have stopped (first violation, each property's own first violation,
// or the first state past max_states; checker/level_findings.h), the states, violations,
// witnesses and transitions below that step recorded, and a counterexample rebuilt from the
// parent links. Built on LevelWorkers (checker/level_workers.h); LevelExplorer
// (checker/level_explorer.h) builds on it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/key_order.h"
#include "checker/level_workers.h"
#include "checker/store/chunked_array.h"
#include "checker/store/frontier_store.h"

namespace preemptcheck::checker::detail {

/// See the file comment.
template <Model M>
class LevelCommit : protected LevelWorkers<M> {
 public:
  using LevelWorkers<M>::LevelWorkers;

 protected:
  using Base = LevelWorkers<M>;
  using Base::abort_;
  using Base::all_decided;
  using Base::before_;
  using Base::capacity_;
  using Base::clock_;
  using Base::decided_;
  using Base::expand;
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
  using Base::look_up;
  using Base::memory_bytes;
  using Base::merges_;
  using Base::model_;
  using Base::name_states;
  using Base::next_progress_;
  using Base::next_rss_;
  using Base::next_unit_;
  using Base::note;
  using Base::on_clock;
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
  using Base::work;
  using Base::workers_;
  using typename Base::Action;
  using typename Base::BatchedStep;
  using typename Base::Entry;
  using typename Base::Pick;
  using typename Base::State;
  using typename Base::Unnamed;
  using typename Base::UnnamedState;
  using typename Base::Worker;

  bool commit();
  template <class StepsBelow>
  Violation<Action> pick_violation(const Pick& pick, std::size_t property,
                                   const StepsBelow& steps_below);
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const;
};

// Ends the level: orders the new states, finds where the sequential search would have
// stopped in it, and records everything before that point. Returns whether the search
// goes on.
template <Model M>
bool LevelCommit<M>::commit() {
  // Each worker's new states, keyed and sorted on a thread of their own, then read in
  // merged order (never copied into one list, checker/key_order.h). Keys are unique (one step
  // reaches one state), so the order is the same for every thread count.
  const auto by_key = [](const Entry& x, const Entry& y) { return x.key() < y.key(); };
  std::vector<std::vector<Entry>>& sorted = sorted_;
  sorted.resize(workers_.size());
  {
    const auto key_worker = [&](std::uint32_t w) {
      const auto& fps = workers_[w]->found_fps;
      std::vector<Entry>& list = sorted[w];
      list.clear();
      list.reserve(fps.size());
      // Sixteen at a time, their slots read together first (see look_up()).
      std::uint64_t homes = 0;
      for (std::size_t start = 0; start < fps.size(); start += 16) {
        const std::size_t end = std::min(fps.size(), start + 16);
        for (std::size_t i = start; i < end; ++i) {
          homes += table_->home_key(fps[i]);
        }
        for (std::size_t i = start; i < end; ++i) {
          const std::uint64_t key = table_->find_key(fps[i]);
          // Of the states stored under one fingerprint, only the smallest step's is new.
          if (merges_ && workers_[w]->found_keys[i] != key) {
            continue;
          }
          list.push_back({static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32),
                          static_cast<std::uint32_t>(i)});
        }
      }
      workers_[w]->home_keys = homes;  // only so that those loads are made
      std::sort(list.begin(), list.end(), by_key);
    };
    on_threads(workers_.size(), [&](std::size_t w) { key_worker(static_cast<std::uint32_t>(w)); });
  }
  const KeyOrder<Entry> order(sorted);
  const std::size_t total = order.size();

  // The step that ends the search in this level, if any: every step below `bound` counts.
  std::uint64_t bound = kNoKey;
  std::vector<Pick> picks(result_.properties.size());
  Pick first;
  std::vector<std::uint64_t> reached(result_.properties.size(), kNoKey);
  for (const auto& worker : workers_) {
    const LevelFindings& f = worker->findings;
    if (f.first_key < first.key) {
      first = {f.first_key, &f.first_obs, f.first_fp};
    }
    for (std::size_t p = 0; p < f.property_key.size(); ++p) {
      if (f.property_key[p] < picks[p].key) {
        picks[p] = {f.property_key[p], &f.property_obs[p], f.property_fp[p]};
      }
    }
    for (std::size_t p = 0; p < reached.size(); ++p) {
      reached[p] = std::min(reached[p], f.reached_key[p]);
    }
  }
  {
    std::vector<std::uint64_t> own;
    for (std::size_t p = 0; rule_.per_property && p < picks.size(); ++p) {
      own.push_back(picks[p].key);
    }
    bound = stop_bound(first.key, own, remaining_, rule_);
  }
  bool max_states = false;
  const std::uint64_t count = visited_.size();
  if (count + total > capacity_) {
    // The step that would discover one state more than max_states allows.
    const std::uint64_t cut = order.key_at(capacity_ - count);
    if (cut < bound) {
      bound = cut;
      max_states = true;
    }
  }
  const std::size_t admitted = bound == kNoKey ? total : order.below(bound);

  // Steps before a key, counted in the sequential order.
  std::vector<std::uint64_t>& before = before_;
  before.assign(level_size_ + 1, 0);
  for (std::size_t i = 0; i < level_size_; ++i) {
    before[i + 1] = before[i] + succ_[i];
  }
  const auto steps_below = [&](std::uint64_t key) -> std::uint64_t {
    if (key == kNoKey) {
      return before[level_size_];
    }
    const std::uint64_t parent = key_parent(key) - level_start_;
    if (parent >= level_size_) {
      return before[level_size_];
    }
    return before[parent] + std::min<std::uint64_t>(key_action(key), succ_[parent]);
  };
  const std::uint64_t steps = steps_below(bound);

  // Everything that can fail is done before anything is recorded.
  const bool go_on = bound == kNoKey;
  // The next level is the workers' own stores, each state with the id its key gives it:
  // nothing is copied.
  std::vector<PooledArray<std::uint32_t>> ids;
  std::vector<FrontierStore<M>> parts;
  std::size_t stored = 0;  // states in the workers' stores, those another step's replaced too
  if (go_on) {
    parts.reserve(workers_.size());
    ids.reserve(workers_.size());
    for (const auto& worker : workers_) {
      ids.emplace_back(pool_);
      ids.back().resize(worker->found.size());
      stored += worker->found.size();
      if (merges_) {
        // A replaced state keeps no id, and the next level skips it.
        for (std::size_t i = 0; i < worker->found.size(); ++i) {
          ids.back()[i] = kNoId;
        }
      }
    }
  }
  if (!fits(visited_.bytes_after_reserve(admitted) - visited_.bytes())) {
    return false;
  }
  // The visited set's growth rehashes every state so far: a time limit that passed while the
  // level was ordered stops the search here, before it.
  if (!on_clock(false)) {
    return false;
  }
  reserve_visited(admitted);
  // Only a temporary file that cannot be written fails from here on (TempFileError), and
  // that ends the search with nothing proven.
  if (admitted > 0) {
    if (trace_.extend(admitted) != count) {
      throw std::logic_error("the trace and the visited set disagree");
    }
    // On thread t: into the visited set, worker t's admitted states (a prefix of its sorted
    // list); into the trace and the ids, the t-th part of the merged key order.
    const std::size_t n = workers_.size();
    on_threads(n, [&](std::size_t t) {
      FingerprintSet::Inserter inserter(visited_);
      for (const Entry& e : sorted[t]) {
        if (e.key() >= bound) {
          break;
        }
        inserter.add(workers_[t]->found_fps[e.index]);
      }
      std::vector<TraceRecord> block;
      block.reserve(kTraceBlock);
      std::size_t block_start = count + admitted * t / n;
      const auto flush = [&] {
        trace_.write(block_start, block.data(), block.size());
        block_start += block.size();
        block.clear();
      };
      order.for_range(admitted * t / n, admitted * (t + 1) / n,
                      [&](std::size_t rank, std::size_t w, const Entry& e) {
                        block.push_back({workers_[w]->found_fps[e.index],
                                         static_cast<std::uint32_t>(key_parent(e.key())),
                                         key_action(e.key()), 0});
                        if (go_on) {
                          ids[w][e.index] = static_cast<std::uint32_t>(count + rank);
                        }
                        if (block.size() == kTraceBlock) {
                          flush();
                        }
                      });
      flush();
    });
  }
  // Violations and witnesses below the bound.
  for (const auto& worker : workers_) {
    for (const auto& [key, fingerprint] : worker->findings.violating) {
      if (key < bound) {
        unnamed_.push_back({Unnamed::kViolatingState, 0, fingerprint});
      }
    }
  }
  std::optional<Violation<Action>> violation;
  if (!result_.violation && first.key < bound) {
    violation = pick_violation(first, first.obs->violated.front().first, steps_below);
  }
  std::vector<std::pair<std::size_t, Violation<Action>>> own;
  for (std::size_t p = 0; opts_.per_property && p < picks.size(); ++p) {
    if (picks[p].key < bound) {
      own.emplace_back(p, pick_violation(picks[p], p, steps_below));
    }
  }
  note_witnesses(result_, reached, bound);
  for (auto& [p, v] : own) {
    decide_property(result_, decided_, remaining_, p, std::move(v));
    unnamed_.push_back({Unnamed::kPropertyViolation, p, picks[p].fingerprint});
  }
  if (violation) {
    if (rule_.stops_at_first()) {
      unnamed_.push_back({Unnamed::kViolatingState, 0, first.fingerprint});
    }
    result_.violation = std::move(violation);
    unnamed_.push_back({Unnamed::kViolation, 0, first.fingerprint});
  }
  transitions_ += steps;
  if (admitted > 0) {
    result_.level_starts.push_back(static_cast<std::uint32_t>(count));
  }
  last_new_ = admitted;
  if (max_states) {
    result_.limit = kMaxStatesLimit;
  }
  if (go_on) {
    for (const auto& worker : workers_) {
      parts.push_back(std::move(worker->found));
    }
    frontier_ = LevelFrontier<M>(std::move(parts), std::move(ids), stored - total);
  } else {
    frontier_ = LevelFrontier<M>();
  }
  return go_on;
}

// The counterexample of a picked step, rebuilt from the parents, for `property`.
template <Model M>
template <class StepsBelow>
auto LevelCommit<M>::pick_violation(const Pick& pick, std::size_t property,
                                    const StepsBelow& steps_below) -> Violation<Action> {
  const auto parent = static_cast<std::uint32_t>(key_parent(pick.key));
  std::vector<Action> path = path_through(parent, key_action(pick.key));
  // The state it entered is named at the end of the search (name_states()).
  return make_violation(*pick.obs, property, result_.properties, std::move(path), kNoId,
                        transitions_ + steps_below(pick.key));
}

// The actions from the initial state to state `id` and then its action number `last`,
// found by re-running the model along the recorded parents.
template <Model M>
auto LevelCommit<M>::path_through(std::uint32_t id, std::size_t last) const -> std::vector<Action> {
  std::vector<PathLink> links;
  for (const std::uint32_t x :
       ids_from_root(id, [&](std::uint32_t y) { return trace_.parent(y); })) {
    links.push_back({trace_.fingerprint(x), trace_.action(x)});
  }
  return replay_links(model_, links, last);
}

}  // namespace preemptcheck::checker::detail
