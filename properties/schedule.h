// Schedule: THE replay of a list of actions from a scenario. Every consumer of a path — `check`
// and its counterexample file, `search`, `replay`, the stateful reducer, the swimlane timeline
// and the tests — reads one Schedule value, so the action text, the comment, the fingerprint
// and the verdicts printed beside step k come from one loop and cannot drift apart.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explore_types.h"
#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "impl/cluster.h"
#include "impl/scenario.h"
#include "impl/world.h"
#include "spec/ledger.h"
#include "spec/monitor.h"
#include "spec/property.h"

namespace preemptcheck {

/// The checked safety properties as a set; `all` checks every one.
using CheckedProperties = std::bitset<spec::kPropertyCount>;

/// One step of a schedule, and the state it reached.
struct ScheduleStep {
  Action action;
  std::string text;               ///< format_action, e.g. "evict p-high v1"
  std::string comment;            ///< describe_step: what the step did
  std::uint64_t fingerprint = 0;  ///< World::fingerprint() of the state after the step
  StepReport report;              ///< what the step did, as the World reported it
  World after;                    ///< the state after the step
  spec::Ledger ledger;            ///< the monitors' memory after the step
  spec::Findings findings;        ///< everything the monitors found (every property)
  /// The checked properties the step broke, each once with its first message, in the order
  /// the monitors reported them.
  std::vector<spec::PropertyMessage> violated;
};

/// The first step of a schedule that is not enabled, and why.
struct BlockedStep {
  std::size_t number = 0;  ///< 1-based
  Action action;
  std::string text;
  std::string why;      ///< World::why_not_enabled
  std::string enabled;  ///< the actions enabled there, "a, b", or "nothing"
};

/// Where a replay stops.
enum class StopAt {
  kEnd,             ///< run every step (until one is not enabled)
  kFirstViolation,  ///< stop after the first step (or initial state) that breaks a checked property
};

/// A replayed schedule.
struct Schedule {
  std::shared_ptr<const Cluster> cluster;
  CheckedProperties checked;
  World initial;
  spec::Ledger initial_ledger;
  spec::Findings initial_findings;
  std::vector<spec::PropertyMessage> initial_violated;  ///< checked, as ScheduleStep::violated
  std::vector<ScheduleStep> steps;                      ///< the steps taken
  std::optional<BlockedStep> blocked;                   ///< set when a step was not enabled

  /// The checked properties broken at step k (0: the initial state).
  const std::vector<spec::PropertyMessage>& violated_at(std::size_t k) const;
  /// The state after step k (0: the initial state).
  const World& world_at(std::size_t k) const;
  /// The monitors' memory after step k (0: the initial state).
  const spec::Ledger& ledger_at(std::size_t k) const;
  /// The first step (0: the initial state) where a checked property broke, if any.
  std::optional<std::size_t> first_violation() const;
};

/// Replays `actions` on a fresh World of `scenario`, checking the initial state and every
/// step against the monitors (spec::check_state, spec::check_step with one Ledger). Stops at
/// the first step that is not enabled (Schedule::blocked), or per `stop`.
Schedule replay_schedule(const Scenario& scenario, const std::vector<Action>& actions,
                         const CheckedProperties& checked = CheckedProperties().set(),
                         StopAt stop = StopAt::kEnd);

/// The counterexample file's value of a schedule whose last step (or initial state, for an
/// empty schedule) breaks `property`: its message and the others broken there (`also`) are
/// the schedule's, each step carries its text, comment and fingerprint, and
/// found_by.depth/properties are filled from the schedule; the rest of `found_by` is kept.
/// Throws std::logic_error when the schedule ran short or does not break `property` last.
Counterexample to_counterexample(const Schedule& schedule, const Scenario& scenario,
                                 std::string_view property, FoundBy found_by, std::string command);

/// The schedule's steps as a counterexample file's steps: action, text, fingerprint, comment.
std::vector<CounterexampleStep> counterexample_steps(const Schedule& schedule);

}  // namespace preemptcheck
