// `check --liveness` as a value: properties/liveness_check.h's check_no_starvation() with a
// deadline on the graph build (--time-limit S), its outcome and the gate's expectation. The build
// asks its model for each state's enabled actions; a model that wraps the scheduler's and answers
// past the deadline with an exception stops it there, with the states expanded and the steps
// generated so far counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "impl/scenario.h"
#include "properties/check_request.h"
#include "properties/expectations.h"
#include "properties/liveness_check.h"

namespace preemptcheck {

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

/// The states `check --liveness` builds at most when --max-states does not say.
inline constexpr std::uint64_t kDefaultLivenessStates = 1'000'000;

/// What `check --liveness` found, and what it means.
struct LivenessCheckRun {
  TimedLivenessRun timed;
  std::uint64_t max_states = 0;  ///< the bound the build ran under
  /// Violated: a lasso (timed.run.counterexample); holds: the whole graph has none; limit
  /// reached: the bound, the deadline or the model's capacity stopped the build.
  checker::Outcome outcome = checker::Outcome::kHolds;
  std::string limit;         ///< the limit's name (checker/explore_types.h) when one stopped it
  std::string limit_detail;  ///< what the model's capacity ran out of, at that limit
  std::vector<Expectation> expectations;  ///< no-starvation's, when the request is gated
  /// 0: no pod starves on any (fair) loop; 1: a lasso; 3: a limit, nothing is proven — or,
  /// when gated, expectations_exit_code() of the expectation.
  int exit_code = 0;
};

/// Builds `scenario`'s whole graph under the request's --max-states (kDefaultLivenessStates
/// unless given) and --time-limit, and searches it for a lasso on which a pod starves
/// (counting every loop under --unfair); `command` is the command line for the lasso's file.
LivenessCheckRun run_liveness_check(const CheckRequest& request, const Scenario& scenario,
                                    const std::string& command);

}  // namespace preemptcheck
