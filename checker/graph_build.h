// build_graph: a whole explored state space as a StateGraph (checker/graph.h), from the
// search's edges. Includes the engine; for the production model it is instantiated once, in
// properties/world_explore.cc.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "checker/explorer.h"
#include "checker/graph.h"
#include "checker/model.h"

namespace preemptcheck::checker {

/// Explores the whole space of `model` (not stopping at violations) and returns its graph,
/// labelling states with `state_label` and steps with `action_label`; refuses when the space
/// has more than `max_states` states. The bold path is the shortest counterexample, the one
/// explore() reports.
template <Model M, class StateLabel, class ActionLabel>
requires std::convertible_to<std::invoke_result_t<const StateLabel&, const typename M::State&>,
                             std::string> &&
    std::convertible_to<std::invoke_result_t<const ActionLabel&, const typename M::Action&>,
                        std::string>
        GraphBuild build_graph(const M& model, std::size_t max_states,
                               const StateLabel& state_label, const ActionLabel& action_label) {
  using Action = typename M::Action;
  using State = typename M::State;

  GraphBuild build;
  std::vector<std::size_t> tree_edges;  // tree_edges[id - 1]: the edge that discovered id
  std::vector<Action> tree_actions;     // tree_actions[id - 1]: that edge's action
  ExploreOptions<Action> opts;
  opts.stop_at_violation = false;
  opts.on_edge = [&](std::uint32_t from, std::uint32_t to, const Action& action, bool is_new) {
    if (is_new) {
      tree_edges.push_back(build.graph.edges.size());
      tree_actions.push_back(action);
    }
    build.graph.edges.push_back({from, to, std::string(std::invoke(action_label, action)), false});
  };
  Limits limits;
  limits.max_states = max_states;
  const Result<Action> result = explore(model, limits, opts);
  build.states = result.stats.states;
  if (result.limit == kMaxStatesLimit) {
    build.status = GraphStatus::kTooManyStates;
    build.graph = {};
    return build;
  }

  // States are not kept by the explorer: rebuild each one from its parent along the tree.
  std::vector<State> states;
  states.reserve(result.stats.states);
  states.push_back(model.initial_state());
  Observation scratch;
  for (std::size_t id = 1; id < result.stats.states; ++id) {
    scratch.clear();
    const State& parent = states[build.graph.edges[tree_edges[id - 1]].from];
    states.push_back(model.next_state(parent, tree_actions[id - 1], scratch));
  }
  build.graph.vertices.reserve(states.size());
  for (const State& state : states) {
    build.graph.vertices.push_back({std::string(std::invoke(state_label, state))});
  }
  build.graph.vertices.front().initial = true;
  for (const std::uint32_t id : result.violating_states) {
    build.graph.vertices[id].violating = true;
  }
  if (result.violation) {
    detail::mark_counterexample(build.graph, tree_edges, result.violation->state,
                                result.violation->transition);
  }
  return build;
}

}  // namespace preemptcheck::checker
