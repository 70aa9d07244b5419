// StateGraph tests: a tiny model drawn whole, and the refusal of a space that is too big.
#include "checker/graph.h"
#include "checker/graph_build.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker {
namespace {

// x in 0..7, stepping by 1 or 3; x == 6 is bad. 8 states, 7 + 5 = 12 steps.
class SmallHops {
 public:
  using State = int;
  enum class Action { kAdd1, kAdd3 };

  State initial_state() const { return 0; }

  void enabled_actions(const State& x, std::vector<Action>& out) const {
    if (x + 1 <= 7) {
      out.push_back(Action::kAdd1);
    }
    if (x + 3 <= 7) {
      out.push_back(Action::kAdd3);
    }
  }

  State next_state(const State& x, const Action& action, Observation& obs) const {
    const int next = x + (action == Action::kAdd1 ? 1 : 3);
    if (next == 6) {
      obs.violate(0, "x is six");
    }
    return next;
  }

  void check_initial(const State&, Observation&) const {}

  std::uint64_t fingerprint(const State& x) const { return static_cast<std::uint64_t>(x); }

  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  std::vector<PropertyInfo> properties_ = {{"not-six", PropertyKind::kAlways, "x is never six"}};
};

std::string state_label(const int& x) { return "x=" + std::to_string(x); }

std::string action_label(const SmallHops::Action& a) {
  return a == SmallHops::Action::kAdd1 ? "+1" : "+3";
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The DOT text without its legend box, and the legend box alone.
std::pair<std::string, std::string> split_legend(const std::string& text) {
  const auto begin = text.find("subgraph cluster_legend {");
  if (begin == std::string::npos)
    return {text, ""};
  const auto end = text.find("}\n", begin) + 2;
  return {text.substr(0, begin) + text.substr(end), text.substr(begin, end - begin)};
}

TEST(checkerGraph, BuildsTheWholeSpaceWithTheCounterexample) {
  const GraphBuild build = build_graph(SmallHops(), 100, state_label, action_label);
  ASSERT_EQ(build.status, GraphStatus::kBuilt);
  EXPECT_EQ(build.states, 8U);
  const StateGraph& g = build.graph;
  ASSERT_EQ(g.vertices.size(), 8U);
  ASSERT_EQ(g.edges.size(), 12U);

  // Ids: 0:x=0, 1:x=1, 2:x=3, 3:x=2, 4:x=4, 5:x=6, 6:x=5, 7:x=7.
  const std::vector<std::string> labels = {"x=0", "x=1", "x=3", "x=2", "x=4", "x=6", "x=5", "x=7"};
  for (std::size_t id = 0; id < labels.size(); ++id) {
    EXPECT_EQ(g.vertices[id].label, labels[id]) << id;
    EXPECT_EQ(g.vertices[id].initial, id == 0) << id;
    EXPECT_EQ(g.vertices[id].violating, id == 5) << id;
    EXPECT_EQ(g.vertices[id].on_counterexample, id == 0 || id == 2 || id == 5) << id;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bold;
  for (const GraphEdge& e : g.edges) {
    if (e.on_counterexample) {
      bold.emplace_back(e.from, e.to);
      EXPECT_EQ(e.label, "+3");
    }
  }
  EXPECT_EQ(bold, (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 2}, {2, 5}}));

  std::ostringstream dot;
  write_dot(g, dot);
  const auto [text, legend] = split_legend(dot.str());
  EXPECT_EQ(text.rfind("digraph", 0), 0U) << text;
  EXPECT_EQ(count(text, "->"), 12U) << text;
  EXPECT_EQ(count(text, "[label="), 20U) << text;
  EXPECT_EQ(count(text, "shape=doublecircle"), 1U) << text;
  EXPECT_EQ(count(text, "fillcolor="), 1U) << text;
  EXPECT_EQ(count(text, "bold"), 5U) << text;  // three states, two steps
  EXPECT_NE(text.find("0[label=\"x=0\", shape=doublecircle, style=bold"), std::string::npos)
      << text;
  EXPECT_NE(text.find("5[label=\"x=6\", style=\"filled,bold\""), std::string::npos) << text;
  EXPECT_NE(text.find("2->5 [label=\"+3\", style=bold"), std::string::npos) << text;
  // The legend explains the initial state, a state, a step, the counterexample and a
  // violating state; nothing is off a path here, so that entry is absent.
  EXPECT_NE(legend.find("initial state"), std::string::npos) << legend;
  EXPECT_NE(legend.find("counterexample step"), std::string::npos) << legend;
  EXPECT_NE(legend.find("violates a property"), std::string::npos) << legend;
  EXPECT_EQ(legend.find("off the path"), std::string::npos) << legend;
}

TEST(checkerGraph, NeighbourhoodDrawsThePathAndOneLevelAround) {
  using A = SmallHops::Action;
  const NeighbourhoodBuild build =
      build_neighbourhood(SmallHops(), {A::kAdd3, A::kAdd3}, state_label, action_label);
  ASSERT_FALSE(build.not_enabled);
  const StateGraph& g = build.graph;
  // Path x=0 → 3 → 6; off it, x=1 (from 0) and x=4 (from 3).
  ASSERT_EQ(g.vertices.size(), 5U);
  ASSERT_EQ(g.edges.size(), 4U);
  std::size_t on_path = 0;
  std::size_t off_path = 0;
  for (const GraphVertex& v : g.vertices) {
    on_path += v.on_counterexample ? 1 : 0;
    off_path += v.off_path ? 1 : 0;
    EXPECT_NE(v.on_counterexample, v.off_path) << v.label;
  }
  EXPECT_EQ(on_path, 3U);
  EXPECT_EQ(off_path, 2U);
  EXPECT_EQ(g.vertices[0].label, "#0\nx=0");
  EXPECT_TRUE(g.vertices[0].initial);
  for (const GraphVertex& v : g.vertices)
    EXPECT_EQ(v.violating, v.label == "#2\nx=6") << v.label;
  std::ostringstream dot;
  write_dot(g, dot);
  const auto [text, legend] = split_legend(dot.str());
  EXPECT_EQ(count(text, "style=dashed"), 4U) << text;  // two states, two steps
  EXPECT_NE(legend.find("step off the path"), std::string::npos) << legend;

  // A step that is not enabled is reported with its index.
  const NeighbourhoodBuild stuck =
      build_neighbourhood(SmallHops(), {A::kAdd3, A::kAdd3, A::kAdd3}, state_label, action_label);
  EXPECT_EQ(stuck.not_enabled, std::optional<std::size_t>(2));
}

TEST(checkerGraph, EscapesLabels) {
  StateGraph g;
  g.vertices.push_back({"say \"hi\"\nback\\slash", true, false, false, false});
  std::ostringstream dot;
  write_dot(g, dot);
  EXPECT_NE(dot.str().find(R"(label="say \"hi\"\nback\\slash")"), std::string::npos) << dot.str();
}

TEST(checkerGraph, RefusesTooManyStates) {
  const GraphBuild build = build_graph(SmallHops(), 5, state_label, action_label);
  EXPECT_EQ(build.status, GraphStatus::kTooManyStates);
  EXPECT_EQ(build.states, 5U);
  EXPECT_TRUE(build.graph.vertices.empty());
  EXPECT_TRUE(build.graph.edges.empty());

  EXPECT_EQ(build_graph(SmallHops(), 8, state_label, action_label).status, GraphStatus::kBuilt);
}

}  // namespace
}  // namespace preemptcheck::checker
