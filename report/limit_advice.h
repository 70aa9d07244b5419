// Advice at a limit in words: what a search stopped by --max-states, --time-limit or the memory
// bound saw (properties/limit_measures.h), an estimate of what is left, and which options would
// help on this scenario, as measured.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "properties/limit_measures.h"

namespace preemptcheck::report {

/// The advice lines of `measures`: "levels", "estimate" and one "advice" (or "measured", when
/// it would not help) line per option (CheckReport::advice); none when no level was completed.
std::vector<std::pair<std::string, std::string>> limit_advice(const LimitMeasures& measures);

}  // namespace preemptcheck::report
