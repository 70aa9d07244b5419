// Describe: one short sentence per step, for counterexample comments and traces.
#pragma once

#include <string>

#include "impl/world.h"

namespace preemptcheck {

/// What a step did, e.g. "p-high does not fit; preempts v1 on node-a; nominated to node-a".
std::string describe_step(const World& before, const StepReport& step, const World& after);

/// The names of the pods in a set, comma-separated, in pod order.
std::string pod_names(const Cluster& cluster, PodSet pods);

}  // namespace preemptcheck
