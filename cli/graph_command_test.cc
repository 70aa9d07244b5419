// Tests of `preemptcheck graph`: the DOT file, the SVG rendering, and the state limit.
#include "cli/graph_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "checker/graph.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::read_text;
using testing::ScratchDir;
using testing::source_path;

struct Outcome {
  int rc = -1;
  std::string out;
  std::string err;
};

Outcome graph(GraphOptions o) {
  std::ostringstream out;
  std::ostringstream err;
  Outcome r;
  r.rc = run_graph(o, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// DOT lines of vertices ("12[label=…") and of edges ("3->4 [label=…").
struct DotCounts {
  std::size_t vertices = 0;
  std::size_t edges = 0;
  std::size_t bold_edges = 0;
};

DotCounts count_dot(const std::string& dot) {
  DotCounts c;
  for (const std::string& line : testing::split_lines(dot)) {
    std::size_t i = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
      ++i;
    if (i == 0)
      continue;
    if (line.compare(i, 7, "[label=") == 0)
      ++c.vertices;
    if (line.compare(i, 2, "->") == 0) {
      ++c.edges;
      if (line.find("style=bold") != std::string::npos)
        ++c.bold_edges;
    }
  }
  return c;
}

TEST(Graph, RefusesAScenarioAboveTheDefaultLimit) {
  ScratchDir dir;
  GraphOptions o;
  o.scenario_path = source_path("bench/two-nodes.yaml");  // millions of states
  o.dot_path = dir.file("bench.dot");
  const Outcome r = graph(o);
  EXPECT_EQ(r.rc, kExitLimit) << r.out << r.err;
  EXPECT_NE(r.err.find(fmt::format("has more than {} states", kDefaultGraphStates)),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(fmt::format("--max-states {}", kDefaultGraphStates * 10)), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(o.dot_path));
}

TEST(Graph, RefusesAtAGivenLimit) {
  ScratchDir dir;
  GraphOptions o;
  o.dot_path = dir.file("default.dot");
  o.max_states = 100;
  const Outcome r = graph(o);
  EXPECT_EQ(r.rc, kExitLimit) << r.out << r.err;
  EXPECT_NE(r.err.find("has more than 100 states"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(o.dot_path));
}

TEST(Graph, WritesTheDefaultScenarioAsDot) {
  ScratchDir dir;
  GraphOptions o;
  o.dot_path = dir.file("default.dot");
  const Outcome r = graph(o);
  ASSERT_EQ(r.rc, kExitHolds) << r.out << r.err;
  const std::string dot = read_text(o.dot_path);
  ASSERT_TRUE(dot.starts_with("digraph G {")) << dot.substr(0, 100);
  const auto states = testing::number_after(r.out, "states     ");
  const auto steps = testing::number_after(r.out, " states, ");
  ASSERT_TRUE(states && steps) << r.out;
  const DotCounts counts = count_dot(dot);
  EXPECT_EQ(counts.vertices, *states);
  EXPECT_EQ(counts.edges, *steps);
  EXPECT_GT(*states, checker::kQuickLayoutStates);
  EXPECT_NE(dot.find("graph [newrank=true, splines=false"), std::string::npos)
      << dot.substr(0, 300);
  // The initial state, labelled compactly: the queue, the node, the jobs.
  EXPECT_NE(dot.find("0[label=\"Q[p-high] U[-] G[-]\\nnode-a: v1 v2\\njobs[-] events 0\""),
            std::string::npos)
      << dot.substr(0, 300);
}

// Acceptance: the default scenario's whole graph renders with dot -Tsvg (seconds, thanks to
// the quick layout; minutes without it).
TEST(Graph, RendersTheDefaultScenarioWithGraphviz) {
  if (!find_dot())
    GTEST_SKIP() << "Graphviz's dot is not installed";
  ScratchDir dir;
  GraphOptions o;
  o.dot_path = dir.file("default.dot");
  o.svg_path = dir.file("default.svg");
  const Outcome r = graph(o);
  ASSERT_EQ(r.rc, kExitHolds) << r.out << r.err;
  const std::string svg = read_text(o.svg_path);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  // Every state and every step is drawn (Graphviz writes '-' in text as &#45;).
  const auto states = testing::number_after(r.out, "states     ");
  const auto steps = testing::number_after(r.out, " states, ");
  ASSERT_TRUE(states && steps) << r.out;
  // The legend's sample states and steps are named legend_*.
  const std::size_t legend_edges = testing::count_of(svg, "class=\"edge\">\n<title>legend_");
  const std::size_t legend_nodes = testing::count_of(svg, "class=\"node\">\n<title>legend_");
  EXPECT_GT(legend_nodes, 0U) << "no legend";
  EXPECT_EQ(testing::count_of(svg, "class=\"node\"") - legend_nodes, *states);
  EXPECT_EQ(testing::count_of(svg, "class=\"edge\"") - legend_edges, *steps);
  EXPECT_NE(svg.find("schedule p&#45;high"), std::string::npos);
}

TEST(Graph, MarksViolatingStatesAndDrawsTheCounterexampleBold) {
  ScratchDir dir;
  GraphOptions o;
  o.scenario_path = source_path("scenarios/g2-single-victim.yaml");
  o.mechanisms.switches = {{"gate", "hold-until-done"}, {"activate-on-finish", "off"}};
  o.dot_path = "-";
  const Outcome r = graph(o);
  ASSERT_EQ(r.rc, kExitHolds) << r.err;
  EXPECT_TRUE(r.out.starts_with("digraph G {"));  // --dot -: the DOT text owns stdout
  EXPECT_NE(r.err.find("shortest   counterexample of 7 steps drawn bold"), std::string::npos)
      << r.err;
  EXPECT_EQ(count_dot(r.out).bold_edges, 7U);
  EXPECT_GE(testing::count_of(r.out, "fillcolor="), 1U);
  EXPECT_NE(r.out.find("[label=\"finish preemptor\", style=bold"), std::string::npos);
}

TEST(Graph, RendersSvgWithGraphviz) {
  if (!find_dot())
    GTEST_SKIP() << "Graphviz's dot is not installed";
  ScratchDir dir;
  GraphOptions o;
  o.scenario_path = source_path("scenarios/g2-single-victim.yaml");
  o.mechanisms.switches = {{"gate", "hold-until-done"}, {"activate-on-finish", "off"}};
  o.dot_path = dir.file("g.dot");
  o.svg_path = dir.file("g.svg");
  const Outcome r = graph(o);
  ASSERT_EQ(r.rc, kExitHolds) << r.out << r.err;
  const std::string svg = read_text(o.svg_path);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("schedule preemptor"), std::string::npos);
  EXPECT_NE(r.out.find("svg        " + o.svg_path), std::string::npos) << r.out;
}

TEST(Graph, SvgWithoutGraphvizIsAClearError) {
  ScratchDir dir;
  const char* old = std::getenv("PATH");
  const std::string saved = old == nullptr ? std::string() : old;
  ::setenv("PATH", dir.path().c_str(), 1);  // an empty folder: no dot
  GraphOptions o;
  o.scenario_path = source_path("scenarios/g2-single-victim.yaml");
  o.dot_path = dir.file("g.dot");
  o.svg_path = dir.file("g.svg");
  const Outcome r = graph(o);
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("--svg needs Graphviz's 'dot' on PATH"), std::string::npos) << r.err;
}

TEST(Graph, ABadScenarioIsAnError) {
  ScratchDir dir;
  GraphOptions o;
  o.scenario_path = dir.file("absent.yaml");
  o.dot_path = dir.file("g.dot");
  const Outcome r = graph(o);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("absent.yaml: cannot read file"), std::string::npos) << r.err;
}

TEST(GraphArgs, ParsesItsOptions) {
  std::string error;
  const auto o = parse_graph_args({"s.yaml", "--dot", "g.dot", "--svg=g.svg", "--max-states", "50",
                                   "--profile", "kubernetes", "--gate=hold-until-done"},
                                  error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->scenario_path, "s.yaml");
  EXPECT_EQ(o->dot_path, "g.dot");
  EXPECT_EQ(o->svg_path, "g.svg");
  EXPECT_EQ(o->max_states, 50U);
  EXPECT_EQ(o->mechanisms.profile, "kubernetes");
  EXPECT_FALSE(parse_graph_args({"s.yaml"}, error));
  EXPECT_NE(error.find("expected --dot FILE"), std::string::npos);
  EXPECT_FALSE(parse_graph_args({"--dot", "-", "--svg", "g.svg"}, error));
  EXPECT_FALSE(parse_graph_args({"--dot", "g.dot", "--max-states", "many"}, error));
}

}  // namespace
}  // namespace preemptcheck::cli
