// Liveness: the lasso search on an explicit graph — the monitor product, its flagged
// components through Boost.Graph's strong_components, the weak-fairness test per component,
// and the shortest prefix and a fair cycle through the first component reached.
#include "checker/liveness.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <cassert>
#include <deque>
#include <limits>

namespace preemptcheck::checker::detail {
namespace {

using Path = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// The shortest path inside `component` from `from` to the first state `is_target` accepts,
// breadth first (ties: states in order of discovery, steps in enabled order). `is_target`
// returns kNone to reject a state, or a step index to append (or kNone - 1: end at the state).
template <class Target>
Path path_within(const LivenessGraph& graph, const std::vector<int>& component_of, int component,
                 std::uint32_t from, const Target& is_target) {
  constexpr std::uint32_t kStop = kNone - 1;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parent(graph.steps.size(), {kNone, kNone});
  std::deque<std::uint32_t> queue{from};
  parent[from] = {from, kNone};
  while (!queue.empty()) {
    const std::uint32_t s = queue.front();
    queue.pop_front();
    const std::uint32_t last = is_target(s);
    if (last != kNone) {
      Path path;
      if (last != kStop) {
        path.emplace_back(s, last);
      }
      for (std::uint32_t at = s; at != from;) {
        const auto [prev, step] = parent[at];
        path.emplace_back(prev, step);
        at = prev;
      }
      std::reverse(path.begin(), path.end());
      return path;
    }
    for (std::uint32_t i = 0; i < graph.steps[s].size(); ++i) {
      const std::uint32_t to = graph.steps[s][i].to;
      if (component_of[to] == component && parent[to].first == kNone) {
        parent[to] = {s, i};
        queue.push_back(to);
      }
    }
  }
  assert(false && "a component is strongly connected: every target in it is reachable");
  return {};
}

}  // namespace

std::optional<LassoSteps> find_lasso(const LivenessGraph& graph, const std::vector<bool>& triggered,
                                     const std::vector<bool>& discharged, bool fairness,
                                     LivenessForm form) {
  const std::size_t n = graph.steps.size();
  const bool recurring = form == LivenessForm::kRecurring;
  // The product with the monitor: vertex 2s + flag. Entering s sets the flag when the
  // obligation is triggered there, clears it when it is discharged, else keeps it. In the
  // recurring form the flag is simply "not discharged", and a component must hold a
  // triggered state for its cycles to count.
  auto flag_after = [&](bool flag, std::uint32_t s) {
    return !discharged[s] && (recurring || triggered[s] || flag);
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> parent(2 * n, {kNone, kNone});
  std::vector<std::uint32_t> order;  // product vertices in breadth-first order
  const std::uint32_t start = flag_after(false, 0) ? 1 : 0;
  parent[start] = {start, kNone};
  order.push_back(start);
  for (std::size_t head = 0; head < order.size(); ++head) {
    const std::uint32_t v = order[head];
    const std::uint32_t s = v / 2;
    for (std::uint32_t i = 0; i < graph.steps[s].size(); ++i) {
      const std::uint32_t to = graph.steps[s][i].to;
      const std::uint32_t w = 2 * to + (flag_after(v % 2 == 1, to) ? 1 : 0);
      if (parent[w].first == kNone) {
        parent[w] = {v, i};
        order.push_back(w);
      }
    }
  }

  // The flagged part: states reached with the flag set, and the steps between them.
  std::vector<std::uint32_t> index(n, kNone);  // state -> vertex of the flagged graph
  std::vector<std::uint32_t> flagged;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (parent[2 * s + 1].first != kNone) {
      index[s] = static_cast<std::uint32_t>(flagged.size());
      flagged.push_back(s);
    }
  }
  if (flagged.empty()) {
    return std::nullopt;
  }
  using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Digraph g(flagged.size());
  for (const std::uint32_t s : flagged) {
    for (const LivenessGraph::Step& step : graph.steps[s]) {
      if (index[step.to] != kNone) {
        boost::add_edge(index[s], index[step.to], g);
      }
    }
  }
  std::vector<int> component_in_g(flagged.size());
  const int components =
      boost::strong_components(g, boost::make_iterator_property_map(
                                      component_in_g.begin(), boost::get(boost::vertex_index, g)));
  std::vector<int> component_of(n, -1);
  for (std::size_t i = 0; i < flagged.size(); ++i) {
    component_of[flagged[i]] = component_in_g[i];
  }

  // Per component: its size, whether it has an inner step or a state without any, per class
  // the states enabling it, and the classes taken on an inner step.
  std::vector<std::size_t> size(components);
  std::vector<bool> has_cycle(components);
  std::vector<bool> has_trigger(components, !recurring);
  std::vector<std::vector<std::size_t>> enabling(components,
                                                 std::vector<std::size_t>(graph.fair_classes));
  std::vector<std::vector<bool>> taken(components, std::vector<bool>(graph.fair_classes));
  for (const std::uint32_t s : flagged) {
    const int c = component_of[s];
    ++size[c];
    if (graph.steps[s].empty()) {
      has_cycle[c] = true;  // the run stutters here forever
    }
    if (triggered[s]) {
      has_trigger[c] = true;
    }
    for (const int k : graph.enabled_classes[s]) {
      ++enabling[c][k];
    }
    for (const LivenessGraph::Step& step : graph.steps[s]) {
      if (component_of[step.to] == c) {
        has_cycle[c] = true;
        if (step.fair_class >= 0) {
          taken[c][step.fair_class] = true;
        }
      }
    }
  }
  auto is_fair = [&](int c) {
    if (!has_cycle[c] || !has_trigger[c]) {
      return false;
    }
    if (!fairness) {
      return true;
    }
    for (std::size_t k = 0; k < graph.fair_classes; ++k) {
      if (enabling[c][k] == size[c] && !taken[c][k]) {
        return false;  // enabled throughout, never taken inside: no cycle here is fair
      }
    }
    return true;
  };

  // The first flagged state, breadth first, in a fair component with a cycle (holding a
  // triggered state, in the recurring form).
  std::uint32_t entry = kNone;
  for (const std::uint32_t v : order) {
    if (v % 2 == 1 && is_fair(component_of[v / 2])) {
      entry = v;
      break;
    }
  }
  if (entry == kNone) {
    return std::nullopt;
  }
  LassoSteps lasso;
  for (std::uint32_t v = entry; v != start;) {
    const auto [prev, step] = parent[v];
    lasso.prefix.emplace_back(prev / 2, step);
    v = prev;
  }
  std::reverse(lasso.prefix.begin(), lasso.prefix.end());

  const std::uint32_t x = entry / 2;
  const int c = component_of[x];
  if (graph.steps[x].empty()) {
    return lasso;  // stuck: the cycle is empty
  }
  // A fair cycle from x: for each class in order not yet satisfied (taken, or disabled at a
  // state passed), go to the nearest state where it is disabled or that takes it inside the
  // component; then back to x.
  std::vector<bool> satisfied(graph.fair_classes, !fairness);
  auto pass = [&](std::uint32_t s) {
    std::size_t at = 0;
    const std::vector<int>& on = graph.enabled_classes[s];
    for (std::size_t k = 0; k < graph.fair_classes; ++k) {
      if (at < on.size() && on[at] == static_cast<int>(k)) {
        ++at;
      } else {
        satisfied[k] = true;
      }
    }
  };
  auto walk = [&](const Path& path) {
    for (const auto& [s, i] : path) {
      const LivenessGraph::Step& step = graph.steps[s][i];
      if (step.fair_class >= 0) {
        satisfied[step.fair_class] = true;
      }
      pass(step.to);
      lasso.cycle.emplace_back(s, i);
    }
  };
  pass(x);
  std::uint32_t current = x;
  if (recurring && !triggered[x]) {
    walk(path_within(graph, component_of, c, x,
                     [&](std::uint32_t s) { return triggered[s] ? kNone - 1 : kNone; }));
    current = graph.steps[lasso.cycle.back().first][lasso.cycle.back().second].to;
  }
  for (std::size_t k = 0; k < graph.fair_classes; ++k) {
    if (satisfied[k]) {
      continue;
    }
    const int wanted = static_cast<int>(k);
    walk(path_within(graph, component_of, c, current, [&](std::uint32_t s) {
      const std::vector<int>& on = graph.enabled_classes[s];
      if (!std::binary_search(on.begin(), on.end(), wanted)) {
        return kNone - 1;
      }
      for (std::uint32_t i = 0; i < graph.steps[s].size(); ++i) {
        const LivenessGraph::Step& step = graph.steps[s][i];
        if (step.fair_class == wanted && component_of[step.to] == c) {
          return i;
        }
      }
      return kNone;
    }));
    current = lasso.cycle.empty()
                  ? x
                  : graph.steps[lasso.cycle.back().first][lasso.cycle.back().second].to;
  }
  if (lasso.cycle.empty()) {
    // Leave x by its first step inside the component, so that the cycle is not empty.
    walk(path_within(graph, component_of, c, x, [&](std::uint32_t s) {
      for (std::uint32_t i = 0; i < graph.steps[s].size(); ++i) {
        if (component_of[graph.steps[s][i].to] == c) {
          return i;
        }
      }
      return kNone;
    }));
    current = graph.steps[x][lasso.cycle.back().second].to;
  }
  if (current != x) {
    walk(path_within(graph, component_of, c, current,
                     [&](std::uint32_t s) { return s == x ? kNone - 1 : kNone; }));
  }
  return lasso;
}

}  // namespace preemptcheck::checker::detail
