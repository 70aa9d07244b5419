// Recorded: whether a replayed schedule says what its counterexample file records — the
// properties the file was found checking, how the replay's verdicts differ from the record
// ("diverged"), and which changed switch makes a step impossible.
#pragma once

#include <string>
#include <vector>

#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "impl/mechanisms.h"
#include "impl/scenario.h"
#include "properties/schedule.h"

namespace preemptcheck {

/// The safety properties the file was found checking: its found-by properties, or all.
CheckedProperties checked_by(const Counterexample& cx);

/// How `schedule` (the file's steps replayed under its own switches, checking checked_by(cx))
/// differs from the record, in words naming the step and the property; empty exactly when
/// the recorded property broke at the last step with the recorded message and the recorded
/// `also`, and no checked property broke before it. A record that does not occur by the last
/// step, an earlier break, another property, another message or other `also` all differ.
std::string divergence(const Counterexample& cx, const Schedule& schedule);

/// Under switches `run` that differ from the file's (`recorded_switches`), why step k (1-based)
/// of `actions` is not enabled: "blocked by NAME=VALUE (the file's NAME=VALUE enables it)" for
/// each changed switch that, set back alone, makes steps 1..k run; or that only the file's
/// switches together enable it.
std::string blocking_switches(const Scenario& run, const Mechanisms& recorded_switches,
                              const std::vector<Action>& actions, std::size_t k);

/// "at step 3", or "in the initial state" for step 0.
std::string at_step(std::size_t step);

}  // namespace preemptcheck
