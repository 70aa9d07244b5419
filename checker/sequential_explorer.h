// SequentialExplorer: the breadth-first search behind explore() when an edge visitor is set —
// one thread, a fingerprint-to-id map and the actions of the shortest-path tree kept in
// memory, so that every generated step can be shown to ExploreOptions::on_edge with the ids
// of the states it joins. Its figures are those of LevelExplorer on the same model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/explore_result.h"
#include "checker/explore_types.h"
#include "checker/model.h"
#include "checker/store/fingerprint_table.h"

namespace preemptcheck::checker::detail {

/// One breadth-first search on one thread; see explore().
template <Model M>
class SequentialExplorer {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  SequentialExplorer(const M& model, const Limits& limits, const ExploreOptions<Action>& opts)
      : model_(model),
        limits_(limits),
        opts_(opts),
        capacity_(state_capacity(limits, kMaxIds)),
        table_(static_cast<std::size_t>(std::min<std::uint64_t>(capacity_, kInitialRoom))) {}

  Result<Action> run() {
    begin_result(result_, model_.properties(), false);
    if (capacity_ == 0) {
      result_.limit = kMaxStatesLimit;
      return finish();
    }
    if (!start()) {
      return finish();
    }
    std::uint32_t depth = 0;
    while (!frontier_.empty()) {
      if (expansions_ % kClockInterval == 0 && !on_clock()) {
        break;
      }
      ++expansions_;
      auto [id, state] = std::move(frontier_.front());
      frontier_.pop_front();
      while (depth + 1 < result_.level_starts.size() && id >= result_.level_starts[depth + 1]) {
        ++depth;
      }
      if (!expand(id, depth, state)) {
        break;
      }
    }
    return finish();
  }

 private:
  static constexpr std::uint64_t kMaxIds = FingerprintTable::kNoId;
  static constexpr std::uint64_t kInitialRoom = 1U << 12;

  // Stores and checks the initial state; returns whether the search goes on.
  bool start() {
    State initial = model_.initial_state();
    table_.insert(model_.fingerprint(initial), 0);
    count_ = 1;
    result_.level_starts.push_back(0);
    obs_.clear();
    model_.check_initial(initial, obs_);
    note_reached(obs_, result_);
    if (!obs_.violated.empty()) {
      result_.violation = make_violation<Action>(obs_, result_.properties, {}, 0, std::nullopt);
      if (!note_violating(0)) {
        return false;
      }
    }
    frontier_.emplace_back(0, std::move(initial));
    return true;
  }

  // Generates every step out of `state` (id `from`, at `depth`); returns whether the search
  // goes on.
  bool expand(std::uint32_t from, std::uint32_t depth, const State& state) {
    actions_.clear();
    model_.enabled_actions(state, actions_);
    if (limits_.max_depth && depth >= *limits_.max_depth) {
      if (actions_.empty()) {
        return true;
      }
      result_.limit = kMaxDepthLimit;
      return false;
    }
    for (const Action& action : actions_) {
      obs_.clear();
      State next = model_.next_state(state, action, obs_);
      const std::uint64_t fingerprint = model_.fingerprint(next);
      std::uint32_t to = 0;
      bool is_new = false;
      if (count_ < capacity_) {
        std::tie(to, is_new) = table_.insert(fingerprint, count_);
      } else {
        to = table_.find(fingerprint);
        if (to == FingerprintTable::kNoId) {
          result_.limit = kMaxStatesLimit;
          return false;
        }
      }
      const std::uint64_t transition = transitions_++;
      if (is_new) {
        discover(from, depth, action);
      }
      if (opts_.on_edge) {
        opts_.on_edge(from, to, action, is_new);
      }
      note_reached(obs_, result_);
      if (!obs_.violated.empty()) {
        if (!result_.violation) {
          result_.violation =
              make_violation(obs_, result_.properties, path_to(from, action), to, transition);
        }
        if (!note_violating(to)) {
          return false;
        }
      }
      if (is_new) {
        frontier_.emplace_back(to, std::move(next));
      }
    }
    return true;
  }

  // Gives the next id to a state reached from `from` (at `depth`) by `action`.
  void discover(std::uint32_t from, std::uint32_t depth, const Action& action) {
    if (depth + 1 == result_.level_starts.size()) {
      result_.level_starts.push_back(count_);
    }
    parent_.push_back(from);
    via_.push_back(action);
    ++count_;
  }

  // Records that a step into `state` violated a property; returns whether the search goes on.
  bool note_violating(std::uint32_t state) {
    result_.violating_states.push_back(state);
    return !opts_.stop_at_violation;
  }

  // The shortest path to state `id`, followed by `last`.
  std::vector<Action> path_to(std::uint32_t id, const Action& last) const {
    const std::vector<std::uint32_t> ids =
        ids_from_root(id, [&](std::uint32_t x) { return parent_[x - 1]; });
    std::vector<Action> path;
    path.reserve(ids.size() + 1);
    for (const std::uint32_t x : ids) {
      path.push_back(via_[x - 1]);
    }
    path.push_back(last);
    return path;
  }

  // Looks at the clock: reports progress; returns false once the time limit has passed or a
  // signal asked the search to stop.
  bool on_clock() {
    const double seconds = clock_.seconds();
    if (is_time_up(limits_, seconds)) {
      result_.limit = kTimeLimit;
      return false;
    }
    if (is_interrupted(limits_)) {
      result_.limit = kInterrupted;
      return false;
    }
    if (opts_.progress && seconds >= next_progress_) {
      opts_.progress(make_stats(count_, transitions_, deepest_level(result_), seconds));
      next_progress_ = seconds + opts_.progress_interval_seconds;
    }
    return true;
  }

  Result<Action> finish() {
    return finish_result(result_, count_, transitions_, clock_.seconds(), 0);
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  const std::uint64_t capacity_;
  const Stopwatch clock_{limits_.clock};

  FingerprintTable table_;
  std::uint32_t count_ = 0;            // ids given so far
  std::vector<std::uint32_t> parent_;  // parent_[id - 1]: the state id was discovered from
  std::vector<Action> via_;            // via_[id - 1]: the action that discovered id
  std::deque<std::pair<std::uint32_t, State>> frontier_;
  std::uint64_t transitions_ = 0;
  std::uint64_t expansions_ = 0;
  double next_progress_ = opts_.progress_interval_seconds;

  std::vector<Action> actions_;  // scratch, reused by every expansion
  Observation obs_;              // scratch, reused by every step
  Result<Action> result_;
};

}  // namespace preemptcheck::checker::detail
