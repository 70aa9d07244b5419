// The one translation unit that compiles the search engine for the production model.
#include "properties/world_explore.h"

#include "checker/explore_auto.h"
#include "checker/explorer.h"
#include "checker/graph_build.h"

namespace preemptcheck {

checker::Result<Action> explore_world(const WorldModel& model, const checker::Limits& limits,
                                      const checker::ExploreOptions<Action>& opts) {
  return checker::explore(model, limits, opts);
}

checker::Result<Action> explore_world_auto(const WorldModel& model, const checker::Limits& limits,
                                           const checker::ExploreOptions<Action>& opts) {
  return checker::explore_auto(model, limits, opts);
}

checker::GraphBuild build_world_graph(const WorldModel& model, std::size_t max_states,
                                      const std::function<std::string(const WorldState&)>& state,
                                      const std::function<std::string(const Action&)>& action) {
  return checker::build_graph(model, max_states, state, action);
}

}  // namespace preemptcheck
