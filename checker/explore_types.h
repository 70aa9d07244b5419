// Explore types: what a breadth-first search of a Model is asked (Limits, ExploreOptions)
// and what it answers (Outcome, Stats, Violation, Summary, Result) — shared by the sequential,
// level-synchronous and distributed explorers and by every caller of explore().
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
/// A temporary file of the search (checker/store/temp_file.h) could not be written or read.
inline constexpr std::string_view kTempFileLimit = "temporary file";
/// A signal asked the search to stop (Limits::interrupt).
inline constexpr std::string_view kInterrupted = "interrupted";
/// The model's own bounded storage is full: next_state() threw std::length_error (the
/// scheduler model's queues are sized for its largest scenario, impl/bounded_vec.h). The
/// state space reaches further than the model can hold, so nothing is proven.
inline constexpr std::string_view kModelCapacityLimit = "model capacity";

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
///    against the process's resident set, each plus the bytes of the process's temporary files
///    that live in memory (on a tmpfs or ramfs: TempFile::bytes_in_memory()); the search
///    stops with "memory limit" before it would pass the bound.
///  - interrupt: a flag a signal handler sets (lock-free, so async-signal-safe); once it is
///    non-zero the search stops with "interrupted" where it looks at the time limit.
/// A search stopped by time, memory or an interrupt in the middle of a level reports the
/// figures as of the start of that level (every state of the level discovered, none
/// expanded): what the sequential search would report had it stopped at the level's first
/// expansion. A std::bad_alloc during the search stops it the same way with "out of memory".
struct Limits {
  std::optional<std::uint64_t> max_states;
  std::optional<std::uint32_t> max_depth;
  std::optional<double> time_limit_seconds;
  std::optional<std::uint64_t> max_memory_bytes = std::nullopt;
  const std::atomic<int>* interrupt = nullptr;
  /// Seconds since the search started, as the time limit and the progress read them; empty:
  /// the steady clock. Tests set it to move time where they need it.
  std::function<double()> clock = {};
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
  /// One of the limit names above when a limit or an interrupt stopped the search (even if
  /// a violation was already found), otherwise empty.
  std::string limit;
  /// What went wrong, for kTempFileLimit: the file's directory and the system's error; for
  /// kInterrupted, the caller may name the signal.
  std::string limit_detail;
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

}  // namespace preemptcheck::checker
