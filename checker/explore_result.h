// Explore result: the pieces every explorer (sequential, level-synchronous, distributed)
// builds its Result from — the start and the finish of a search, a violation's verdict, the
// step keys that order a level, the re-run of a path along recorded parent links, and the
// clock and memory bounds — kept in one place so that figures and messages cannot drift
// apart between the explorers.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "checker/explore_types.h"
#include "checker/model.h"
#include "checker/peak_memory.h"
#include "checker/store/temp_file.h"

namespace preemptcheck::checker::detail {

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

/// Throws std::out_of_range unless `property` indexes one of `properties`.
inline void check_property(std::size_t property, const std::vector<PropertyInfo>& properties) {
  if (property >= properties.size()) {
    throw_unknown_property(property, properties.size());
  }
}

/// At most this many states are stored: max_states, capped at `max_ids`.
inline std::uint64_t state_capacity(const Limits& limits, std::uint64_t max_ids) {
  return std::min<std::uint64_t>(limits.max_states.value_or(max_ids), max_ids);
}

// ---- step keys -----------------------------------------------------------------------

/// A level-synchronous search names a step by its key (parent id << 16 | action index):
/// the order of keys is the order in which the sequential search generates steps.
inline constexpr std::uint64_t kNoKey = std::numeric_limits<std::uint64_t>::max();

/// A state may have at most this many enabled actions (the action index has 16 bits).
inline constexpr std::size_t kMaxActions = std::size_t{1} << 16;

/// The key of step number `action` out of state `parent`.
inline std::uint64_t key_of(std::uint64_t parent, std::size_t action) {
  return (parent << 16) | action;
}

/// The state a keyed step leaves.
inline std::uint64_t key_parent(std::uint64_t key) { return key >> 16; }

/// The index of a keyed step among its parent's enabled actions.
inline std::uint16_t key_action(std::uint64_t key) {
  return static_cast<std::uint16_t>(key & 0xffff);
}

/// Throws std::length_error when a state has more enabled actions than a key can name.
inline void check_action_count(std::size_t count) {
  if (count > kMaxActions) {
    throw std::length_error("a state has more than 65536 enabled actions");
  }
}

// ---- the start and the finish of a search --------------------------------------------

/// Starts a result: the model's properties, none reached, and with per_property one
/// (undecided) entry per property.
template <class Action>
void begin_result(Result<Action>& result, std::vector<PropertyInfo> properties, bool per_property) {
  result.properties = std::move(properties);
  result.reached.assign(result.properties.size(), false);
  if (per_property) {
    result.property_results.resize(result.properties.size());
  }
}

/// The `always` properties a per-property search waits for: those the model checks.
inline std::size_t checked_always_properties(const std::vector<PropertyInfo>& properties) {
  return static_cast<std::size_t>(std::count_if(
      properties.begin(), properties.end(),
      [](const PropertyInfo& p) { return p.kind == PropertyKind::kAlways && p.checked; }));
}

/// Marks the witnesses `obs` reached; throws for an index the model does not have.
inline void note_reached(const Observation& obs, Summary& summary) {
  for (const std::size_t property : obs.reached) {
    check_property(property, summary.properties);
    summary.reached[property] = true;
  }
}

/// A counterexample whose verdict leads with `property` (one of those `obs` violated).
template <class Action>
Violation<Action> make_violation(const Observation& obs, std::size_t property,
                                 const std::vector<PropertyInfo>& properties,
                                 std::vector<Action> path, std::uint32_t state,
                                 std::optional<std::uint64_t> transition) {
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
  static_cast<Verdict&>(violation) = make_verdict(ordered, properties);
  violation.path = std::move(path);
  violation.state = state;
  violation.transition = transition;
  return violation;
}

/// A counterexample whose verdict leads with the first property `obs` violated.
template <class Action>
Violation<Action> make_violation(const Observation& obs,
                                 const std::vector<PropertyInfo>& properties,
                                 std::vector<Action> path, std::uint32_t state,
                                 std::optional<std::uint64_t> transition) {
  return make_violation(obs, obs.violated.front().first, properties, std::move(path), state,
                        transition);
}

/// Records a violating initial state (`obs`, not empty): as the search's violation, and with
/// `per_property` as the own counterexample of each property it violates that is not yet
/// `decided` (marking it so; `remaining` counts the `always` properties left). Returns
/// whether the search ends there.
template <class Action>
bool record_initial_violation(const Observation& obs, const ExploreOptions<Action>& opts,
                              Result<Action>& result, std::vector<bool>& decided,
                              std::size_t& remaining) {
  result.violating_states.push_back(0);
  Violation<Action> violation = make_violation<Action>(obs, result.properties, {}, 0, std::nullopt);
  if (opts.per_property) {
    for (const auto& [property, message] : obs.violated) {
      if (decided[property]) {
        continue;
      }
      decided[property] = true;
      --remaining;
      auto& entry = result.property_results[property];
      entry.status = PropertyStatus::kViolated;
      entry.violation = make_violation(obs, property, result.properties, violation.path,
                                       violation.state, violation.transition);
    }
  }
  result.violation = std::move(violation);
  return opts.per_property ? remaining == 0 && !decided.empty() : opts.stop_at_violation;
}

/// The deepest level discovered so far (0 before the initial state).
inline std::uint32_t deepest_level(const Summary& summary) {
  return summary.level_starts.empty() ? 0
                                      : static_cast<std::uint32_t>(summary.level_starts.size() - 1);
}

/// Ends a search: the outcome, the violating states ascending and once each, every
/// property's status (when per-property results were asked for) and the counters.
template <class Action>
Result<Action> finish_result(Result<Action>& result, std::uint64_t states,
                             std::uint64_t transitions, double seconds,
                             std::uint64_t memory_bytes) {
  if (result.violation) {
    result.outcome = Outcome::kViolated;
  } else if (!result.limit.empty()) {
    result.outcome = Outcome::kLimitReached;
  } else {
    result.outcome = Outcome::kHolds;
  }
  auto& violating = result.violating_states;
  std::sort(violating.begin(), violating.end());
  violating.erase(std::unique(violating.begin(), violating.end()), violating.end());
  for (std::size_t p = 0; p < result.property_results.size(); ++p) {
    auto& entry = result.property_results[p];
    if (result.properties[p].kind == PropertyKind::kSometimes) {
      entry.status = PropertyStatus::kWitness;
    } else if (entry.status != PropertyStatus::kViolated) {
      entry.status = result.limit.empty() ? PropertyStatus::kHolds : PropertyStatus::kIncomplete;
    }
  }
  result.stats = make_stats(states, transitions, deepest_level(result), seconds);
  result.stats.memory_bytes = memory_bytes;
  return std::move(result);
}

// ---- paths along parent links --------------------------------------------------------

/// The ids from the initial state (0, left out) to `id`, given each state's parent.
template <class ParentOf>
std::vector<std::uint32_t> ids_from_root(std::uint32_t id, const ParentOf& parent_of) {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t x = id; x != 0; x = parent_of(x)) {
    ids.push_back(x);
  }
  std::reverse(ids.begin(), ids.end());
  return ids;
}

/// One recorded step of a path: its index among the enabled actions of the state it
/// leaves, and the fingerprint of the state it reaches.
struct PathLink {
  std::uint64_t fingerprint = 0;
  std::uint16_t action = 0;
};

/// The actions along `links` (from the initial state on) and then action number `last`,
/// found by re-running the model; throws std::logic_error when the model does not repeat
/// itself.
template <Model M>
std::vector<typename M::Action> replay_links(const M& model, const std::vector<PathLink>& links,
                                             std::size_t last) {
  using Action = typename M::Action;
  std::vector<Action> path;
  std::vector<Action> actions;
  Observation obs;
  typename M::State state = model.initial_state();
  for (const PathLink& link : links) {
    actions.clear();
    model.enabled_actions(state, actions);
    if (link.action >= actions.size()) {
      throw std::logic_error("model is not deterministic: a recorded action is gone");
    }
    path.push_back(actions[link.action]);
    obs.clear();
    state = model.next_state(state, actions[link.action], obs);
    if (model.fingerprint(state) != link.fingerprint) {
      throw std::logic_error("model is not deterministic: a re-run reached another state");
    }
  }
  actions.clear();
  model.enabled_actions(state, actions);
  if (last >= actions.size()) {
    throw std::logic_error("model is not deterministic: a recorded action is gone");
  }
  path.push_back(actions[last]);
  return path;
}

// ---- clock and memory ----------------------------------------------------------------

/// Seconds since the search started: the steady clock's, or `clock`'s when it is set
/// (Limits::clock).
class Stopwatch {
 public:
  Stopwatch() = default;
  explicit Stopwatch(std::function<double()> clock) : clock_(std::move(clock)) {}
  double seconds() const {
    if (clock_) {
      return clock_();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::function<double()> clock_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// Whether the time limit has passed after `seconds`.
inline bool is_time_up(const Limits& limits, double seconds) {
  return limits.time_limit_seconds && seconds >= *limits.time_limit_seconds;
}

/// Whether `bytes` of the explorer's own tables pass the memory bound.
inline bool is_over_memory(const Limits& limits, std::uint64_t bytes) {
  return limits.max_memory_bytes && bytes > *limits.max_memory_bytes;
}

/// Whether the explorer's `bytes` or the process's resident set with its temporary files in
/// memory (TempFile::bytes_in_memory) pass the memory bound.
inline bool is_over_memory_or_rss(const Limits& limits, std::uint64_t bytes) {
  return limits.max_memory_bytes &&
         (bytes > *limits.max_memory_bytes ||
          current_rss_bytes() + TempFile::bytes_in_memory() > *limits.max_memory_bytes);
}

/// Whether a signal asked the search to stop (Limits::interrupt).
inline bool is_interrupted(const Limits& limits) {
  return limits.interrupt != nullptr && limits.interrupt->load(std::memory_order_relaxed) != 0;
}

/// The progress counters: `states` and `transitions` so far, `queue` states waiting and
/// `memory_bytes` held.
inline Stats progress_stats(std::uint64_t states, std::uint64_t transitions, const Summary& summary,
                            double seconds, std::uint64_t queue, std::uint64_t memory_bytes) {
  Stats stats = make_stats(states, transitions, deepest_level(summary), seconds);
  stats.queue = queue;
  stats.memory_bytes = memory_bytes;
  return stats;
}

}  // namespace preemptcheck::checker::detail
