// Simulate: random walks over one scenario (TLC's -simulate, Stateright's spawn_simulation).
// Each walk starts at the initial state and takes at most `depth` steps, each one of the
// actions enabled there chosen by a generator seeded from the run's seed and the walk's
// number alone, so a walk is the same whichever thread runs it. Every step is checked by
// the WorldModel's monitors (the properties and the witnesses), as the breadth-first search
// checks it. Walks run in batches; a batch's findings are taken in walk order, so the result
// is the same for every thread count. A violated property's walk is cut at its first
// violating state, and then the steps that do not matter are removed (reduce_steps).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/reduce.h"
#include "properties/schedule.h"
#include "spec/property.h"
#include "spec/round_trips.h"

namespace preemptcheck {

/// The depth of a walk unless --simulate-depth says otherwise.
inline constexpr std::uint32_t kDefaultSimulateDepth = 100;
/// Walks run together (and taken in order) before the limits are looked at.
inline constexpr std::uint64_t kSimulateBatch = 256;

struct SimulateOptions {
  std::uint64_t seed = 0;
  std::uint64_t walks = 1;
  std::uint32_t depth = kDefaultSimulateDepth;
  unsigned threads = 1;
  CheckedProperties checked = CheckedProperties().set();
  std::optional<double> time_limit_seconds;
  /// Non-zero once a signal asks the run to stop: it stops after the batch under way.
  const std::atomic<int>* interrupt = nullptr;
};

/// A property a walk violated.
struct SimulatedViolation {
  std::string property;
  std::string message;                   ///< the monitor's, at the walk's first violating state
  std::uint64_t walk = 0;                ///< the walk's number, from 1
  std::vector<Action> prefix;            ///< the walk up to its first state violating `property`
  std::optional<BrokenSchedule> shrunk;  ///< `prefix` with the steps that do not matter removed
};

struct SimulateResult {
  std::uint64_t walks = 0;    ///< walks run to their end
  std::uint64_t steps = 0;    ///< steps those walks took
  std::uint32_t longest = 0;  ///< the longest of them
  std::vector<bool> reached;  ///< per spec::Property: a walk reached the witness
  /// In spec's table order, each checked property a walk violated (the lowest-numbered walk's).
  std::vector<SimulatedViolation> violations;
  /// Why the walks stopped before all ran: "" (they all ran, or every checked property was
  /// violated), checker::kTimeLimit or checker::kInterrupted.
  std::string limit;
  double seconds = 0;
  spec::BlockingRoundTrips trips;  ///< the most any preemption cycle walked blocks (WorldModel)
};

/// Runs the walks on `scenario` (its mechanisms applied).
SimulateResult simulate(const Scenario& scenario, const SimulateOptions& options);

}  // namespace preemptcheck
