// Explorer: breadth-first exhaustive search over every interleaving of a Model. Finds the
// shortest counterexample to the `always` properties (or one per property), records which
// `sometimes` witnesses were reached, honours state, depth, time and memory limits, runs on
// several threads with the same result as on one, and can show the state graph to a caller
// through an edge visitor (on one thread).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/fingerprint_table.h"
#include "checker/model.h"

namespace preemptcheck::checker {

/// How a search ended.
enum class Outcome {
  kHolds,         ///< the whole space was explored and no `always` property was violated
  kViolated,      ///< a step (or the initial state) violated an `always` property
  kLimitReached,  ///< a limit cut the search before it finished, and nothing was violated
};

/// "holds", "violated" or "limit-reached".
std::string_view outcome_name(Outcome outcome);

/// The names of the limits, as they appear in Summary::limit.
inline constexpr std::string_view kMaxStatesLimit = "max-states";
inline constexpr std::string_view kMaxDepthLimit = "max-depth";
inline constexpr std::string_view kTimeLimit = "time-limit";
inline constexpr std::string_view kMemoryLimit = "memory limit";
inline constexpr std::string_view kOutOfMemory = "out of memory";

/// Bounds on a search; an empty bound is no bound.
///  - max_states: at most this many distinct states are stored. The step that would discover
///    one more stops the search with "max-states" before its checks count; a space of exactly
///    max_states states is explored completely.
///  - max_depth: states at this depth are not expanded; if any of them has an enabled action
///    the search stops with "max-depth", otherwise the space was complete.
///  - time_limit_seconds: checked before the first expansion (so a limit of 0 always stops
///    the search with "time-limit") and then every few hundred expansions.
///  - max_memory_bytes: checked before each level, before the explorer's tables grow and
///    every few hundred expansions, against the explorer's own accounting of its tables and
///    against the process's resident set; the search stops with "memory limit" before it
///    would pass the bound.
/// A search stopped by time or memory in the middle of a level reports the figures as of the
/// start of that level (every state of the level discovered, none expanded): what the
/// sequential search would report had it stopped at the level's first expansion. A
/// std::bad_alloc during the search stops it the same way with "out of memory".
struct Limits {
  std::optional<std::uint64_t> max_states;
  std::optional<std::uint32_t> max_depth;
  std::optional<double> time_limit_seconds;
  std::optional<std::uint64_t> max_memory_bytes = std::nullopt;
};

/// Counters of a search, so far or at its end.
struct Stats {
  std::uint64_t states = 0;       ///< distinct states discovered
  std::uint64_t transitions = 0;  ///< steps generated, including those into visited states
  std::uint32_t depth = 0;        ///< the deepest level discovered
  double seconds = 0;
  double states_per_second = 0;
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t queue = 0;         ///< states discovered and not yet expanded (progress only)
  std::uint64_t memory_bytes = 0;  ///< bytes the explorer's own tables and queue hold
  /// The chance that two of the `states` distinct states share a 64-bit fingerprint, so that
  /// one was never explored: the birthday bound n(n-1)/2^65 for n = states.
  double collision_probability = 0;
  /// TLC's "calculated (optimistic)" estimate n(m-n)/2^64, for n = states and m = states
  /// generated (transitions + 1, the initial state): the chance that a generated state was
  /// taken for a visited one.
  double collision_probability_optimistic = 0;
};

/// A violated property by name, with the model's message.
struct PropertyMessage {
  std::string name;
  std::string message;

  friend bool operator==(const PropertyMessage&, const PropertyMessage&) = default;
};

/// The `always` properties one step violated: the first the model reported, and every other
/// property that step violated (each once, with its first message).
struct Verdict {
  std::size_t property = 0;
  std::string name;
  std::string message;
  std::vector<PropertyMessage> also_violated;
};

/// A shortest counterexample: the step at minimal depth that violated a property.
template <class Action>
struct Violation : Verdict {
  std::vector<Action> path;  ///< actions from the initial state; empty when it is the culprit
  std::uint32_t state = 0;   ///< id of the state the violating step reached
  /// Index of the violating step among all generated steps, in the order the edge visitor
  /// sees them; empty when the initial state violates.
  std::optional<std::uint64_t> transition;
};

/// What a search found about one property (ExploreOptions::per_property).
enum class PropertyStatus {
  kHolds,       ///< an `always` property that held in the whole space
  kViolated,    ///< an `always` property violated; its counterexample is recorded
  kIncomplete,  ///< an `always` property not violated before a limit stopped the search
  kWitness,     ///< a `sometimes` property: see Summary::reached
};

/// "holds", "violated", "incomplete" or "witness".
std::string_view property_status_name(PropertyStatus status);

/// Everything a search reports apart from the counterexample itself.
struct Summary {
  Outcome outcome = Outcome::kHolds;
  /// kMaxStatesLimit, kMaxDepthLimit or kTimeLimit when a limit stopped the search (even if
  /// a violation was already found), otherwise empty.
  std::string limit;
  Stats stats;
  std::vector<PropertyInfo> properties;  ///< the model's properties
  std::vector<bool> reached;             ///< per property index: a witness was reached
  /// Ids of the states entered by a violating step (0 when the initial state violates),
  /// ascending. Only the first one unless ExploreOptions::stop_at_violation is false.
  std::vector<std::uint32_t> violating_states;
  /// Ids are dense and given level by level: level_starts[d] is the first id at depth d.
  std::vector<std::uint32_t> level_starts;

  /// Names of the `sometimes` properties never reached, in property order.
  std::vector<std::string> unreached_witnesses() const;

  /// The depth (shortest distance from the initial state) of state `id`.
  std::uint32_t depth_of(std::uint32_t id) const;
};

/// One property's verdict; `violation` (its own shortest counterexample, with `property`
/// and `message` its own) is set exactly when status is kViolated.
template <class Action>
struct PropertyResult {
  PropertyStatus status = PropertyStatus::kIncomplete;
  std::optional<Violation<Action>> violation;
};

/// The result of explore(); `violation` is set exactly when outcome is kViolated.
template <class Action>
struct Result : Summary {
  std::optional<Violation<Action>> violation;
  /// Per property index, only with ExploreOptions::per_property; otherwise empty.
  std::vector<PropertyResult<Action>> property_results;
};

/// How a search runs and what it shows its caller.
template <class Action>
struct ExploreOptions {
  /// False: explore the whole space (within the limits), recording every violating state;
  /// `violation` is still the shallowest one.
  bool stop_at_violation = true;
  /// True: record, per `always` property, its own shortest counterexample (shallowest, ties
  /// to the step generated first) in Result::property_results, and stop only when every
  /// `always` property is violated or the space is done; stop_at_violation is then ignored.
  /// `violation` is the first of them, violating_states every violating state.
  bool per_property = false;
  /// Worker threads of the breadth-first search (0 counts as 1). Every figure of the result
  /// is the same for every thread count. Ignored (one thread) when on_edge is set.
  unsigned threads = 1;
  /// Called about every progress_interval_seconds with the counters so far (states,
  /// transitions and queue approximate during a level); never affects the result.
  std::function<void(const Stats&)> progress;
  double progress_interval_seconds = 3.0;
  /// Called for every generated step (all but one that stops the search at max_states), in
  /// a deterministic order, before its checks are recorded; `is_new` when the step
  /// discovered `to`. The steps with is_new form the shortest-path tree, and the calls are
  /// numbered as Violation::transition counts them.
  std::function<void(std::uint32_t from, std::uint32_t to, const Action&, bool is_new)> on_edge;
};

namespace detail {

/// Expansions between two looks at the clock (time limit and progress).
inline constexpr std::uint64_t kClockInterval = 1024;

/// Counters with the rates, peak memory and collision estimates filled in.
Stats make_stats(std::uint64_t states, std::uint64_t transitions, std::uint32_t depth,
                 double seconds);

/// The verdict of an observation with at least one violation; throws std::out_of_range
/// when the model reports a property index it does not have.
Verdict make_verdict(const Observation& obs, const std::vector<PropertyInfo>& properties);

/// Throws std::out_of_range for a witness index the model does not have.
[[noreturn]] void throw_unknown_property(std::size_t property, std::size_t count);

/// One breadth-first search on one thread, keeping a fingerprint-to-id map so that it can
/// show every edge to ExploreOptions::on_edge; see explore().
template <Model M>
class SequentialExplorer {
 public:
  using State = typename M::State;
  using Action = typename M::Action;

  SequentialExplorer(const M& model, const Limits& limits, const ExploreOptions<Action>& opts)
      : model_(model),
        limits_(limits),
        opts_(opts),
        capacity_(std::min<std::uint64_t>(limits.max_states.value_or(kMaxIds), kMaxIds)),
        start_(Clock::now()),
        table_(static_cast<std::size_t>(std::min<std::uint64_t>(capacity_, kInitialRoom))) {}

  Result<Action> run() {
    result_.properties = model_.properties();
    result_.reached.assign(result_.properties.size(), false);
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
  using Clock = std::chrono::steady_clock;
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
    note_reached();
    if (!obs_.violated.empty()) {
      result_.violation = counterexample({}, 0, std::nullopt);
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
      note_reached();
      if (!obs_.violated.empty()) {
        if (!result_.violation) {
          result_.violation = counterexample(path_to(from, action), to, transition);
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

  void note_reached() {
    for (const std::size_t property : obs_.reached) {
      if (property >= result_.reached.size()) {
        throw_unknown_property(property, result_.reached.size());
      }
      result_.reached[property] = true;
    }
  }

  // Records that a step into `state` violated a property; returns whether the search goes on.
  bool note_violating(std::uint32_t state) {
    result_.violating_states.push_back(state);
    return !opts_.stop_at_violation;
  }

  Violation<Action> counterexample(std::vector<Action> path, std::uint32_t state,
                                   std::optional<std::uint64_t> transition) const {
    Violation<Action> violation;
    static_cast<Verdict&>(violation) = make_verdict(obs_, result_.properties);
    violation.path = std::move(path);
    violation.state = state;
    violation.transition = transition;
    return violation;
  }

  // The shortest path to state `id`, followed by `last`.
  std::vector<Action> path_to(std::uint32_t id, const Action& last) const {
    std::vector<std::uint32_t> ids;
    for (; id != 0; id = parent_[id - 1]) {
      ids.push_back(id);
    }
    std::vector<Action> path;
    path.reserve(ids.size() + 1);
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
      path.push_back(via_[*it - 1]);
    }
    path.push_back(last);
    return path;
  }

  double elapsed() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  Stats stats_at(double seconds) const {
    return make_stats(count_, transitions_,
                      static_cast<std::uint32_t>(result_.level_starts.size() - 1), seconds);
  }

  // Looks at the clock: reports progress; returns false once the time limit has passed.
  bool on_clock() {
    const double seconds = elapsed();
    if (limits_.time_limit_seconds && seconds >= *limits_.time_limit_seconds) {
      result_.limit = kTimeLimit;
      return false;
    }
    if (opts_.progress && seconds >= next_progress_) {
      opts_.progress(stats_at(seconds));
      next_progress_ = seconds + opts_.progress_interval_seconds;
    }
    return true;
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
    if (result_.level_starts.empty()) {
      result_.stats = make_stats(0, 0, 0, elapsed());
    } else {
      result_.stats = stats_at(elapsed());
    }
    return std::move(result_);
  }

  const M& model_;
  const Limits& limits_;
  const ExploreOptions<Action>& opts_;
  const std::uint64_t capacity_;
  const Clock::time_point start_;

  FingerprintTable table_;
  std::uint32_t count_ = 0;               // ids given so far
  std::vector<std::uint32_t> parent_;     // parent_[id - 1]: the state id was discovered from
  std::vector<Action> via_;               // via_[id - 1]: the action that discovered id
  std::deque<std::pair<std::uint32_t, State>> frontier_;
  std::uint64_t transitions_ = 0;
  std::uint64_t expansions_ = 0;
  double next_progress_ = opts_.progress_interval_seconds;

  std::vector<Action> actions_;  // scratch, reused by every expansion
  Observation obs_;              // scratch, reused by every step
  Result<Action> result_;
};

}  // namespace detail
}  // namespace preemptcheck::checker

#include "checker/level_explorer.h"

namespace preemptcheck::checker {

/// Explores every state reachable from model.initial_state(), breadth first, and checks the
/// model's properties on the initial state and on every step, including steps into states
/// already visited. States are identified by model.fingerprint(). With stop_at_violation the
/// search ends at the first violating step, which is at minimal depth; ties go to the step
/// generated first (states in id order, actions in enabled_actions order). Deterministic:
/// the same model gives the same ids, counts and path on every run and every thread count.
/// The visited set holds 64-bit fingerprints and parent links only; counterexamples are
/// rebuilt by re-running the model from the initial state along the parents, so the model
/// must be deterministic (std::logic_error otherwise). With on_edge set the search runs on
/// one thread and keeps a fingerprint-to-id map instead; threads and max_memory_bytes are
/// then ignored, and per_property is refused (std::invalid_argument).
template <Model M>
Result<typename M::Action> explore(const M& model, const Limits& limits,
                                   const ExploreOptions<typename M::Action>& opts = {}) {
  if (opts.on_edge) {
    if (opts.per_property) {
      throw std::invalid_argument("a per-property search cannot show its edges");
    }
    return detail::SequentialExplorer<M>(model, limits, opts).run();
  }
  return detail::LevelExplorer<M>(model, limits, opts).run();
}

}  // namespace preemptcheck::checker
