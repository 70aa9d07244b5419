// The words of a `graph` run: the summary lines printed beside the DOT file — what was drawn,
// how many states and steps, which are violating or on the counterexample's path.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "checker/graph.h"
#include "impl/scenario.h"

namespace preemptcheck::report {

/// The summary of a whole state graph of `scenario`: its name and mechanisms, the states, steps
/// and violating states, and the bold counterexample when there is one.
std::vector<std::string> graph_summary(const Scenario& scenario, const checker::StateGraph& g);

/// The summary of the neighbourhood of the counterexample file `file` (a path of `steps`
/// steps, about `property`): the states on the path, the other successors, the steps drawn,
/// and the states filled because a step into them breaks `property`.
std::vector<std::string> around_summary(const Scenario& scenario, std::string_view file,
                                        std::string_view property, std::size_t steps,
                                        const checker::StateGraph& g);

}  // namespace preemptcheck::report
