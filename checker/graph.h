// StateGraph: a small explored state space, or a counterexample's neighbourhood, as a value,
// and its Graphviz DOT drawing with violating states filled, the initial state doubly circled,
// the counterexample in bold, the steps off it dashed, and a legend saying so. The whole
// space is built by the search, in checker/graph_build.h.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker {

/// One state; its index in StateGraph::vertices is the explorer's state id.
struct GraphVertex {
  std::string label;
  bool initial = false;
  bool violating = false;          ///< entered by a violating step (or a violating start)
  bool on_counterexample = false;  ///< on the shortest counterexample
  bool off_path = false;           ///< a neighbourhood's successor off the path, not expanded
};

/// One step between two states (indices into StateGraph::vertices).
struct GraphEdge {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::string label;
  bool on_counterexample = false;
  bool off_path = false;  ///< a step that leaves a neighbourhood's path
};

/// A whole state space: every state and every step, parallel steps and self-loops included.
struct StateGraph {
  std::vector<GraphVertex> vertices;
  std::vector<GraphEdge> edges;
};

/// Above this many states write_dot() asks dot for its quickest layout.
inline constexpr std::size_t kQuickLayoutStates = 500;

/// Writes `graph` as a Graphviz digraph: violating states filled red, the initial state a
/// double circle, the counterexample's states and steps bold, steps off a neighbourhood's path
/// and the states they reach dashed grey; a legend box explains each style the graph uses. A
/// graph of more than kQuickLayoutStates states carries graph attributes that make dot lay it
/// out quickly.
void write_dot(const StateGraph& graph, std::ostream& out);

/// Whether build_graph() drew the graph.
enum class GraphStatus {
  kBuilt,
  kTooManyStates,  ///< the space has more states than allowed; `graph` is empty
};

/// What build_graph() returns.
struct GraphBuild {
  GraphStatus status = GraphStatus::kBuilt;
  std::uint64_t states = 0;  ///< states found: all of them, or the allowed number if refused
  StateGraph graph;
};

namespace detail {

/// Marks the counterexample ending in `violation_state` (entered by edge `violation_edge`,
/// or the initial state when empty) bold; tree_edges[id - 1] is the edge that discovered id.
void mark_counterexample(StateGraph& graph, const std::vector<std::size_t>& tree_edges,
                         std::uint32_t violation_state,
                         std::optional<std::uint64_t> violation_edge);

}  // namespace detail

/// What build_neighbourhood() returns.
struct NeighbourhoodBuild {
  StateGraph graph;
  /// The index of the first path step that is not enabled where the path reaches; the graph
  /// then holds the path up to it.
  std::optional<std::size_t> not_enabled;
};

/// The neighbourhood of `path` (actions from the initial state): every state along it, bold and
/// labelled "#k" after its step number ("#2, #4" for a state the path reaches twice), and one level
/// of every other successor of each state before the last (dashed), in the model's action order. A
/// successor equal to a state already drawn is the same vertex. States entered by a step that
/// violates an `always` property are marked violating.
template <Model M, class StateLabel, class ActionLabel>
NeighbourhoodBuild build_neighbourhood(const M& model, const std::vector<typename M::Action>& path,
                                       const StateLabel& state_label,
                                       const ActionLabel& action_label) {
  using Action = typename M::Action;
  using State = typename M::State;
  NeighbourhoodBuild build;
  StateGraph& g = build.graph;
  std::map<std::uint64_t, std::uint32_t> vertex_of;  // fingerprint → vertex
  auto vertex = [&](const State& s, bool on_path) {
    const auto [it, inserted] =
        vertex_of.emplace(model.fingerprint(s), static_cast<std::uint32_t>(g.vertices.size()));
    if (inserted) {
      g.vertices.push_back({std::string(std::invoke(state_label, s))});
      g.vertices.back().off_path = !on_path;
    }
    GraphVertex& v = g.vertices[it->second];
    if (on_path) {
      v.off_path = false;
      v.on_counterexample = true;
    }
    return it->second;
  };
  std::map<std::uint32_t, std::string> step_numbers;  // path vertex → "#0" or "#2, #4"
  auto number = [&](std::uint32_t v, std::size_t k) {
    std::string& n = step_numbers[v];
    n += (n.empty() ? "#" : ", #") + std::to_string(k);
  };
  State current = model.initial_state();
  Observation obs;
  model.check_initial(current, obs);
  std::uint32_t at = vertex(current, true);
  g.vertices[at].initial = true;
  g.vertices[at].violating = !obs.violated.empty();
  number(at, 0);
  // A path that returns to a state it passed shows both step numbers on it.
  auto label_path = [&] {
    for (const auto& [v, n] : step_numbers)
      g.vertices[v].label = n + "\n" + g.vertices[v].label;
  };
  std::vector<Action> enabled;
  for (std::size_t i = 0; i < path.size(); ++i) {
    enabled.clear();
    model.enabled_actions(current, enabled);
    if (std::find(enabled.begin(), enabled.end(), path[i]) == enabled.end()) {
      build.not_enabled = i;
      label_path();
      return build;
    }
    std::optional<State> next;
    std::uint32_t next_vertex = 0;
    for (const Action& a : enabled) {
      obs.clear();
      State s = model.next_state(current, a, obs);
      const bool on_path = a == path[i] && !next;
      const std::uint32_t to = vertex(s, on_path);
      if (!obs.violated.empty())
        g.vertices[to].violating = true;
      g.edges.push_back({at, to, std::string(std::invoke(action_label, a)), on_path, !on_path});
      if (on_path) {
        next_vertex = to;
        next = std::move(s);
      }
    }
    current = std::move(*next);
    at = next_vertex;
    number(at, i + 1);
  }
  label_path();
  return build;
}

}  // namespace preemptcheck::checker
