// Advice at a limit: what a search stopped by --max-states, --time-limit or the memory bound
// saw (each breadth-first level's size and growth), an estimate of what is left, and which
// options would help on this scenario — each measured here by a short search to a depth the
// stopped one completed, not assumed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/explore_types.h"
#include "cli/check_command.h"
#include "impl/action.h"
#include "impl/scenario.h"

namespace preemptcheck::cli {

/// Whether `limit` is one the advice is for: a state, time or memory limit.
bool advised_limit(std::string_view limit);

/// The advice lines for a search of `scenario` under `options` that stopped with `result`:
/// "levels", "estimate" and one "advice" line per option (report::CheckReport::advice).
/// The measurements take at most a few seconds.
std::vector<std::pair<std::string, std::string>> limit_advice(
    const Scenario& scenario, const CheckOptions& options, const checker::Result<Action>& result);

}  // namespace preemptcheck::cli
