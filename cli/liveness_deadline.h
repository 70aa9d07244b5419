// `check --liveness --time-limit S`: properties/liveness_check.h's check_no_starvation() with
// a deadline on the graph build. The build asks its model for each state's enabled actions;
// a model that wraps the scheduler's and answers past the deadline with an exception stops it
// there, with the states expanded and the steps generated so far counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "checker/explore_types.h"
#include "impl/scenario.h"
#include "properties/liveness_check.h"

namespace preemptcheck::cli {

/// What run_no_starvation() found.
struct TimedLivenessRun {
  LivenessRun run;       ///< status kTooManyStates or kModelCapacity when those stopped it
  std::string limit;     ///< checker::kTimeLimit when the deadline stopped the build; else empty
  checker::Stats stats;  ///< states (built, or expanded before the deadline), steps, time, memory
};

/// Builds the graph of `scenario` (at most `max_states` states, for at most `seconds` when
/// set) and searches it for a lasso on which a pod starves, as check_no_starvation() does.
TimedLivenessRun run_no_starvation(const Scenario& scenario, std::uint64_t max_states,
                                   std::optional<double> seconds, std::string command,
                                   bool fairness);

}  // namespace preemptcheck::cli
