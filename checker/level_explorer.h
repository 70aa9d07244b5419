// LevelExplorer: the breadth-first search behind explore() when no edge visitor is set —
// level-synchronous, on one or several threads, with a fingerprint-only visited set and a
// packed frontier, and with results identical to the sequential search for every thread
// count.
//
// How one level runs: the level's states are split into chunks that worker threads take in
// turn. Every successor is looked up in the visited set (read-only during the level); a
// fingerprint not there is claimed in the LevelTable with the key (parent id << 16 | action
// index), keeping the smallest key. The sequential search numbers states in exactly that
// key order, so after the level the new states are sorted by key and given the next ids,
// and the step that ends the search (the first violation, or the first new state past
// max_states) is the smallest such key: only the steps below it are counted. Violations,
// witnesses and counts found by the workers past that point are discarded.
// Included by checker/explorer.h, whose types it uses; include that header instead.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checker/chunked_array.h"
#include "checker/frontier_store.h"
#include "checker/level_table.h"
#include "checker/model.h"
#include "checker/peak_memory.h"
#include "checker/visited_set.h"

namespace preemptcheck::checker::detail {

template <Model M>
class LevelExplorer {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  LevelExplorer(const M& model, const Limits& limits, const ExploreOptions<Action>& opts)
      : model_(model),
        limits_(limits),
        opts_(opts),
        threads_(std::max(1U, opts.threads)),
        capacity_(std::min<std::uint64_t>(limits.max_states.value_or(kMaxIds), kMaxIds)),
        start_(Clock::now()) {}

  Result<Action> run() {
    result_.properties = model_.properties();
    const std::size_t count = result_.properties.size();
    result_.reached.assign(count, false);
    decided_.assign(count, false);
    remaining_ = 0;
    for (const PropertyInfo& property : result_.properties) {
      remaining_ += property.kind == PropertyKind::kAlways ? 1 : 0;
    }
    if (opts_.per_property) {
      result_.property_results.resize(count);
    }
    try {
      search();
    } catch (const std::bad_alloc&) {
      stop_for(kOutOfMemory);
    }
    return finish();
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint64_t kMaxIds = VisitedSet::kNoId;
  static constexpr std::uint64_t kNoKey = LevelTable::kNoKey;
  static constexpr std::size_t kMaxActions = std::size_t{1} << 16;

  static std::uint64_t key_of(std::uint64_t parent, std::size_t action) {
    return (parent << 16) | action;
  }

  // What one worker found in a level.
  struct Worker {
    FrontierStore<M> found;               // the states this worker claimed first
    std::vector<std::uint64_t> found_fps;  // their fingerprints
    std::vector<Action> actions;
    Observation obs;
    std::uint64_t first_key = kNoKey;  // its smallest violating step
    Observation first_obs;
    std::uint64_t first_fp = 0;
    std::vector<std::uint64_t> property_key;  // per property, its smallest violating step
    std::vector<Observation> property_obs;
    std::vector<std::uint64_t> property_fp;
    std::vector<std::uint64_t> reached_key;  // per property, its smallest reaching step
    std::vector<std::pair<std::uint64_t, std::uint64_t>> violating;  // (key, fingerprint)
    // Where it left off when the table filled.
    bool pending = false;
    std::size_t pos = 0;
    std::size_t end = 0;
    std::size_t action = 0;
    bool full = false;
    std::uint64_t steps = 0;  // for progress only
    std::atomic<std::uint64_t> found_bytes{0};
    std::exception_ptr error;
  };

  // A violation chosen at the end of a level, before its path is rebuilt.
  struct Pick {
    std::uint64_t key = kNoKey;
    const Observation* obs = nullptr;
    std::uint64_t fingerprint = 0;
  };

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
    visited_.reserve(1);
    visited_.add(model_.fingerprint(initial));
    result_.level_starts.push_back(0);
    Observation obs;
    model_.check_initial(initial, obs);
    for (const std::size_t property : obs.reached) {
      check_index(property);
      result_.reached[property] = true;
    }
    if (!obs.violated.empty()) {
      result_.violating_states.push_back(0);
      Violation<Action> violation = make_violation(obs, obs.violated.front().first, {}, 0,
                                                   std::nullopt);
      if (opts_.per_property) {
        record_properties(obs, violation);
      }
      result_.violation = std::move(violation);
      if (opts_.per_property ? all_decided() : opts_.stop_at_violation) {
        return false;
      }
    }
    frontier_.push(model_, std::move(initial));
    return true;
  }

  // Whether any frontier state has an enabled action (the max_depth cut).
  bool any_enabled() {
    std::vector<Action> actions;
    bool any = false;
    for (std::size_t i = 0; i < frontier_.size() && !any; ++i) {
      frontier_.visit(model_, i, [&](const State& s) {
        actions.clear();
        model_.enabled_actions(s, actions);
        any = !actions.empty();
      });
    }
    return any;
  }

  // Expands the whole frontier; returns whether the search goes on.
  bool expand_level() {
    level_size_ = frontier_.size();
    level_start_ = result_.level_starts.back();
    std::size_t slots = 1U << 10;
    while (slots / 10 * 7 < last_new_ + last_new_ / 2) {
      slots *= 2;
    }
    if (!fits(slots * 2 * sizeof(std::uint64_t))) {
      return false;
    }
    table_ = std::make_unique<LevelTable>(slots);
    succ_.assign(level_size_, 0);
    workers_.clear();
    for (unsigned w = 0; w < threads_; ++w) {
      workers_.push_back(std::make_unique<Worker>());
      Worker& worker = *workers_.back();
      const std::size_t count = result_.properties.size();
      worker.reached_key.assign(count, kNoKey);
      if (opts_.per_property) {
        worker.property_key.assign(count, kNoKey);
        worker.property_obs.resize(count);
        worker.property_fp.assign(count, 0);
      }
    }
    chunk_ = std::max<std::size_t>(1, std::min<std::size_t>(256, level_size_ / (threads_ * 8)));
    next_chunk_.store(0);
    stop_parent_.store(kNoKey);
    abort_.store(false);
    oom_.store(false);
    level_steps_.store(0);
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
        return false;
      }
      bool full = false;
      for (const auto& worker : workers_) {
        full = full || worker->full;
        worker->full = false;
      }
      if (!full) {
        break;
      }
      if (!fits(table_->bytes())) {
        release();
        return false;
      }
      table_->grow();
    }
    const bool go_on = commit();
    release();
    return go_on;
  }

  void run_workers() {
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
  void work(unsigned w) {
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
        worker.found_bytes.store(worker.found.bytes() +
                                     worker.found_fps.capacity() * sizeof(std::uint64_t),
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
  bool expand(Worker& worker, std::size_t i, std::uint64_t id) {
    bool complete = true;
    frontier_.visit(model_, i, [&](const State& state) {
      worker.actions.clear();
      model_.enabled_actions(state, worker.actions);
      if (worker.actions.size() > kMaxActions) {
        throw std::length_error("a state has more than 65536 enabled actions");
      }
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
  void note(Worker& worker, std::uint64_t key, std::uint64_t fingerprint) {
    const Observation& obs = worker.obs;
    for (const std::size_t property : obs.reached) {
      check_index(property);
      worker.reached_key[property] = std::min(worker.reached_key[property], key);
    }
    if (obs.violated.empty()) {
      return;
    }
    for (const auto& [property, message] : obs.violated) {
      check_index(property);
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
      const std::uint64_t parent = key >> 16;
      std::uint64_t current = stop_parent_.load(std::memory_order_relaxed);
      while (parent < current &&
             !stop_parent_.compare_exchange_weak(current, parent, std::memory_order_relaxed)) {
      }
    }
    if (opts_.per_property || !opts_.stop_at_violation) {
      worker.violating.emplace_back(key, fingerprint);
    }
  }

  // Ends the level: orders the new states, finds where the sequential search would have
  // stopped in it, and records everything before that point. Returns whether the search
  // goes on.
  bool commit() {
    struct Entry {
      std::uint64_t key;
      std::uint32_t worker;
      std::uint32_t index;
    };
    // Each worker's new states, keyed and sorted on a thread of their own, then merged.
    // Keys are unique (one step reaches one state), so the order is the same for every
    // thread count.
    const auto by_key = [](const Entry& x, const Entry& y) { return x.key < y.key; };
    std::vector<std::vector<Entry>> sorted(workers_.size());
    {
      const auto key_worker = [&](std::uint32_t w) {
        const auto& fps = workers_[w]->found_fps;
        std::vector<Entry>& list = sorted[w];
        list.reserve(fps.size());
        for (std::size_t i = 0; i < fps.size(); ++i) {
          list.push_back({table_->find_key(fps[i]), w, static_cast<std::uint32_t>(i)});
        }
        std::sort(list.begin(), list.end(), by_key);
      };
      std::vector<std::jthread> pool;
      std::exception_ptr error;
      std::atomic<bool> failed{false};
      for (std::uint32_t w = 1; w < workers_.size(); ++w) {
        pool.emplace_back([&, w] {
          try {
            key_worker(w);
          } catch (...) {
            if (!failed.exchange(true)) error = std::current_exception();
          }
        });
      }
      key_worker(0);
      pool.clear();  // joins
      if (error) {
        std::rethrow_exception(error);
      }
    }
    std::vector<Entry> entries = std::move(sorted[0]);
    for (std::size_t w = 1; w < sorted.size(); ++w) {
      std::vector<Entry> merged;
      merged.reserve(entries.size() + sorted[w].size());
      std::merge(entries.begin(), entries.end(), sorted[w].begin(), sorted[w].end(),
                 std::back_inserter(merged), by_key);
      entries = std::move(merged);
      sorted[w] = std::vector<Entry>();
    }

    // The step that ends the search in this level, if any: every step below `bound` counts.
    std::uint64_t bound = kNoKey;
    std::vector<Pick> picks(result_.properties.size());
    Pick first;
    for (const auto& worker : workers_) {
      if (worker->first_key < first.key) {
        first = {worker->first_key, &worker->first_obs, worker->first_fp};
      }
      for (std::size_t p = 0; opts_.per_property && p < picks.size(); ++p) {
        if (worker->property_key[p] < picks[p].key) {
          picks[p] = {worker->property_key[p], &worker->property_obs[p], worker->property_fp[p]};
        }
      }
    }
    if (opts_.per_property) {
      std::uint64_t last = 0;
      std::size_t newly = 0;
      for (std::size_t p = 0; p < picks.size(); ++p) {
        if (picks[p].key != kNoKey) {
          ++newly;
          last = std::max(last, picks[p].key);
        }
      }
      if (remaining_ > 0 && newly == remaining_) {
        bound = last + 1;
      }
    } else if (opts_.stop_at_violation && first.key != kNoKey) {
      bound = first.key + 1;
    }
    bool max_states = false;
    const std::uint64_t count = visited_.size();
    if (count + entries.size() > capacity_) {
      const std::uint64_t cut = entries[capacity_ - count].key;
      if (cut < bound) {
        bound = cut;
        max_states = true;
      }
    }
    const auto admitted = static_cast<std::size_t>(
        std::lower_bound(entries.begin(), entries.end(), bound,
                         [](const Entry& e, std::uint64_t b) { return e.key < b; }) -
        entries.begin());

    // Steps before a key, counted in the sequential order.
    std::vector<std::uint64_t> before(level_size_ + 1, 0);
    for (std::size_t i = 0; i < level_size_; ++i) {
      before[i + 1] = before[i] + succ_[i];
    }
    const auto steps_below = [&](std::uint64_t key) -> std::uint64_t {
      if (key == kNoKey) {
        return before[level_size_];
      }
      const std::uint64_t parent = (key >> 16) - level_start_;
      if (parent >= level_size_) {
        return before[level_size_];
      }
      return before[parent] + std::min<std::uint64_t>(key & 0xffff, succ_[parent]);
    };
    const std::uint64_t steps = steps_below(bound);

    // Everything that can fail is done before anything is recorded.
    const bool go_on = bound == kNoKey;
    FrontierStore<M> next;
    if (go_on) {
      for (const Entry& e : entries) {
        next.take(workers_[e.worker]->found, e.index);
      }
    }
    const std::size_t more_bytes =
        visited_.bytes_after_reserve(admitted) - visited_.bytes() +
        (admitted + ChunkedArray<std::uint32_t>::kBlock) * (sizeof(std::uint32_t) + 2);
    if (!fits(more_bytes)) {
      return false;
    }
    visited_.reserve(admitted);
    parent_.reserve(count + admitted);
    action_.reserve(count + admitted);
    for (std::size_t r = 0; r < admitted; ++r) {
      const Entry& e = entries[r];
      visited_.add(workers_[e.worker]->found_fps[e.index]);
      parent_.push_back(static_cast<std::uint32_t>(e.key >> 16));
      action_.push_back(static_cast<std::uint16_t>(e.key & 0xffff));
    }
    // Violations and witnesses below the bound.
    std::vector<std::uint32_t> violating;
    for (const auto& worker : workers_) {
      for (const auto& [key, fingerprint] : worker->violating) {
        if (key < bound) {
          violating.push_back(visited_.find(fingerprint));
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
    result_.violating_states.insert(result_.violating_states.end(), violating.begin(),
                                    violating.end());
    for (const auto& worker : workers_) {
      for (std::size_t p = 0; p < result_.reached.size(); ++p) {
        if (worker->reached_key[p] < bound) {
          result_.reached[p] = true;
        }
      }
    }
    for (auto& [p, v] : own) {
      decided_[p] = true;
      --remaining_;
      result_.property_results[p].status = PropertyStatus::kViolated;
      result_.property_results[p].violation = std::move(v);
    }
    if (violation) {
      if (opts_.stop_at_violation && !opts_.per_property) {
        result_.violating_states.push_back(violation->state);
      }
      result_.violation = std::move(violation);
    }
    transitions_ += steps;
    if (admitted > 0) {
      result_.level_starts.push_back(static_cast<std::uint32_t>(count));
    }
    last_new_ = admitted;
    if (max_states) {
      result_.limit = kMaxStatesLimit;
    }
    frontier_ = std::move(next);
    return go_on;
  }

  // The counterexample of a picked step, rebuilt from the parents, for `property`.
  template <class StepsBelow>
  Violation<Action> pick_violation(const Pick& pick, std::size_t property,
                                   const StepsBelow& steps_below) {
    const auto parent = static_cast<std::uint32_t>(pick.key >> 16);
    std::vector<Action> path = path_through(parent, static_cast<std::size_t>(pick.key & 0xffff));
    return make_violation(*pick.obs, property, std::move(path),
                          visited_.find(pick.fingerprint),
                          transitions_ + steps_below(pick.key));
  }

  // A violation whose verdict leads with `property`.
  Violation<Action> make_violation(const Observation& obs, std::size_t property,
                                   std::vector<Action> path, std::uint32_t state,
                                   std::optional<std::uint64_t> transition) const {
    Observation ordered;
    for (const auto& entry : obs.violated) {
      if (entry.first == property) {
        ordered.violated.push_back(entry);
        break;
      }
    }
    for (const auto& entry : obs.violated) {
      ordered.violated.push_back(entry);
    }
    Violation<Action> violation;
    static_cast<Verdict&>(violation) = make_verdict(ordered, result_.properties);
    violation.path = std::move(path);
    violation.state = state;
    violation.transition = transition;
    return violation;
  }

  // The actions from the initial state to state `id` and then its action number `last`,
  // found by re-running the model along the recorded parents.
  std::vector<Action> path_through(std::uint32_t id, std::size_t last) const {
    std::vector<std::uint32_t> ids;
    for (std::uint32_t x = id; x != 0; x = parent_[x - 1]) {
      ids.push_back(x);
    }
    std::vector<Action> path;
    std::vector<Action> actions;
    Observation obs;
    State state = model_.initial_state();
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
      actions.clear();
      model_.enabled_actions(state, actions);
      const std::size_t index = action_[*it - 1];
      if (index >= actions.size()) {
        throw std::logic_error("model is not deterministic: a recorded action is gone");
      }
      path.push_back(actions[index]);
      obs.clear();
      state = model_.next_state(state, actions[index], obs);
      if (model_.fingerprint(state) != visited_.fingerprints()[*it]) {
        throw std::logic_error("model is not deterministic: a re-run reached another state");
      }
    }
    actions.clear();
    model_.enabled_actions(state, actions);
    if (last >= actions.size()) {
      throw std::logic_error("model is not deterministic: a recorded action is gone");
    }
    path.push_back(actions[last]);
    return path;
  }

  // Records the per-property counterexamples of one violating step (the initial state).
  void record_properties(const Observation& obs, const Violation<Action>& first) {
    for (const auto& [property, message] : obs.violated) {
      if (decided_[property]) {
        continue;
      }
      decided_[property] = true;
      --remaining_;
      auto& entry = result_.property_results[property];
      entry.status = PropertyStatus::kViolated;
      entry.violation = make_violation(obs, property, first.path, first.state, first.transition);
    }
  }

  bool all_decided() const { return remaining_ == 0 && !decided_.empty(); }

  void check_index(std::size_t property) const {
    if (property >= result_.properties.size()) {
      throw_unknown_property(property, result_.properties.size());
    }
  }

  // Frees the level's tables and buffers.
  void release() {
    table_.reset();
    workers_.clear();
    succ_.clear();
    succ_.shrink_to_fit();
  }

  void stop_for(std::string_view limit) {
    release();
    frontier_ = FrontierStore<M>();
    result_.limit = limit;  // short enough for the small-string buffer: no allocation
  }

  std::uint64_t memory_bytes() const {
    std::uint64_t bytes = visited_.bytes() + parent_.bytes() + action_.bytes() +
                          frontier_.bytes() + succ_.capacity() * sizeof(std::uint32_t);
    if (table_) {
      bytes += table_->bytes();
    }
    for (const auto& worker : workers_) {
      bytes += worker->found_bytes.load(std::memory_order_relaxed);
    }
    return bytes;
  }

  // Whether `more` bytes fit under the memory bound; sets the limit when not.
  bool fits(std::uint64_t more) {
    if (limits_.max_memory_bytes && memory_bytes() + more > *limits_.max_memory_bytes) {
      result_.limit = kMemoryLimit;
      return false;
    }
    return true;
  }

  // Looks at the clock: time and memory limits, progress; returns false to stop. On the
  // calling thread only.
  bool on_clock(bool level_start) {
    const double seconds = elapsed();
    if (limits_.time_limit_seconds && seconds >= *limits_.time_limit_seconds) {
      result_.limit = kTimeLimit;
      return false;
    }
    if (limits_.max_memory_bytes && (level_start || seconds >= next_rss_)) {
      next_rss_ = seconds + 0.25;
      if (!fits(0) || current_rss_bytes() > *limits_.max_memory_bytes) {
        result_.limit = kMemoryLimit;
        return false;
      }
    }
    if (opts_.progress && seconds >= next_progress_) {
      next_progress_ = seconds + opts_.progress_interval_seconds;
      Stats stats = make_stats(visited_.size() + (table_ ? table_->size() : 0),
                               transitions_ + level_steps_.load(std::memory_order_relaxed),
                               static_cast<std::uint32_t>(result_.level_starts.size() - 1),
                               seconds);
      stats.queue = frontier_.size() + (table_ ? table_->size() : 0);
      stats.memory_bytes = memory_bytes();
      opts_.progress(stats);
    }
    return true;
  }

  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  Result<Action> finish() {
    if (result_.violation) {
      result_.outcome = Outcome::kViolated;
    } else if (!result_.limit.empty()) {
      result_.outcome = Outcome::kLimitReached;
    } else {
      result_.outcome = Outcome::kHolds;
    }
    auto& violating = result_.violating_states;
    std::sort(violating.begin(), violating.end());
    violating.erase(std::unique(violating.begin(), violating.end()), violating.end());
    for (std::size_t p = 0; p < result_.property_results.size(); ++p) {
      auto& entry = result_.property_results[p];
      if (result_.properties[p].kind == PropertyKind::kSometimes) {
        entry.status = PropertyStatus::kWitness;
      } else if (entry.status != PropertyStatus::kViolated) {
        entry.status = result_.limit.empty() ? PropertyStatus::kHolds
                                             : PropertyStatus::kIncomplete;
      }
    }
    const std::uint64_t states = visited_.size();
    result_.stats = make_stats(
        states, transitions_,
        result_.level_starts.empty()
            ? 0
            : static_cast<std::uint32_t>(result_.level_starts.size() - 1),
        elapsed());
    result_.stats.memory_bytes = memory_bytes();
    return std::move(result_);
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  const unsigned threads_;
  const std::uint64_t capacity_;
  const Clock::time_point start_;

  VisitedSet visited_;
  ChunkedArray<std::uint32_t> parent_;  // parent_[id - 1]: the state id was discovered from
  ChunkedArray<std::uint16_t> action_;  // action_[id - 1]: its index in enabled_actions
  FrontierStore<M> frontier_;
  std::uint64_t transitions_ = 0;
  std::vector<bool> decided_;  // per property: its own counterexample is recorded
  std::size_t remaining_ = 0;  // `always` properties not yet decided
  double next_progress_ = opts_.progress_interval_seconds;
  double next_rss_ = 0;

  // The level being expanded.
  std::size_t level_size_ = 0;
  std::uint64_t level_start_ = 0;
  std::size_t last_new_ = 0;
  std::unique_ptr<LevelTable> table_;
  std::vector<std::uint32_t> succ_;  // succ_[i]: steps out of frontier state i
  std::vector<std::unique_ptr<Worker>> workers_;
  std::size_t chunk_ = 1;
  std::atomic<std::size_t> next_chunk_{0};
  std::atomic<std::uint64_t> stop_parent_{kNoKey};
  std::atomic<bool> abort_{false};
  std::atomic<bool> oom_{false};
  std::atomic<std::uint64_t> level_steps_{0};

  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail
