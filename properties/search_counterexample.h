// Search counterexamples: what `search` writes for a cluster-level or a stateful finding —
// the schedule replayed on the shrunk (or reduced) cluster, named after the search, with the
// seed and what shrinking did.
#pragma once

#include <cstdint>
#include <string>

#include "files/counterexample_yaml.h"
#include "properties/reduce.h"
#include "properties/schedule.h"
#include "properties/search.h"

namespace preemptcheck {

/// "1 node, 2 pods, 4 steps".
std::string figures(const Scenario& scenario, std::size_t steps);

/// The counterexample of the smallest failing cluster of a search: its breadth-first
/// shortest schedule, with how it was found (`seed`, and `found` → `shrunk` sizes).
Counterexample search_counterexample(const FailingCluster& found, const FailingCluster& shrunk,
                                     const CheckedProperties& checked, std::uint64_t seed,
                                     std::string command);

/// The counterexample of a stateful run's schedule; `found` is the run before shrinking.
Counterexample stateful_counterexample(const BrokenSchedule& found, const BrokenSchedule& shrunk,
                                       const CheckedProperties& checked, std::uint64_t seed,
                                       std::string command);

}  // namespace preemptcheck
