// The search over the production model: explore(), explore_auto() and build_graph() for
// WorldModel, declared here and instantiated once, in properties/world_explore.cc, so that
// the commands, the search and the tests include only the result types
// (checker/explore_types.h) and never compile the engine again.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "checker/explore_types.h"
#include "checker/graph.h"
#include "impl/action.h"
#include "properties/world_model.h"

namespace preemptcheck {

/// checker::explore() over `model`: one process, `opts.threads` threads.
checker::Result<Action> explore_world(const WorldModel& model, const checker::Limits& limits,
                                      const checker::ExploreOptions<Action>& opts = {});

/// checker::explore_auto() over `model`: spread over the ranks when started by mpirun with
/// more than one rank, explore_world() otherwise.
checker::Result<Action> explore_world_auto(const WorldModel& model, const checker::Limits& limits,
                                           const checker::ExploreOptions<Action>& opts = {});

/// checker::build_graph() over `model`.
checker::GraphBuild build_world_graph(const WorldModel& model, std::size_t max_states,
                                      const std::function<std::string(const WorldState&)>& state,
                                      const std::function<std::string(const Action&)>& action);

}  // namespace preemptcheck
