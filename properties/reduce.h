// Reduce: a schedule that breaks a property, made smaller — steps, pods, nodes, the PDB,
// fault budgets and executor limits removed one at a time while the schedule still runs and
// breaks the same property (each attempt is one replay_schedule).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/schedule.h"

namespace preemptcheck {

/// A schedule that breaks a property: replayed from the scenario's initial state, its last
/// step is the first to violate a checked property.
struct BrokenSchedule {
  Scenario scenario;
  std::vector<Action> steps;
  std::string property;  ///< the first checked property the last step violates
  std::string message;
  std::vector<spec::PropertyMessage> also;  ///< other checked properties it violates
};

/// The broken schedule of `schedule` (replayed from `scenario` with StopAt::kFirstViolation):
/// its steps up to the first that breaks a checked property; nothing when a step was not
/// enabled or nothing broke.
std::optional<BrokenSchedule> broken_schedule(const Scenario& scenario, const Schedule& schedule);

/// Removes runs of steps (halving their length, from the last), keeping each removal after
/// which the schedule still runs and breaks the same property, until none can go; the
/// scenario is kept as it is.
BrokenSchedule reduce_steps(const BrokenSchedule& broken, const CheckedProperties& checked);

/// Removes steps, pods, nodes, the PDB, fault budgets and executor limits, one at a time,
/// keeping each removal after which the schedule (its steps by pod name) still runs and
/// breaks the same property, until none can go; pods are renamed n1…, v1…, p1… at the end.
BrokenSchedule reduce_cluster(const BrokenSchedule& broken, const CheckedProperties& checked);

}  // namespace preemptcheck
