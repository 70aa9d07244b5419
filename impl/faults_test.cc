// Fault and later-node tests: a user's `delete`, a scheduler `restart`, and `create-node`
// (SPEC §2.3), each driven through World::apply as a counterexample would write it.
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "impl/action.h"
#include "impl/test_support.h"
#include "impl/world.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

bool enabled(const World& w, std::string_view line) {
  std::optional<Action> a = parse_action(line, w.cluster());
  if (!a)
    throw std::invalid_argument(std::string(line));
  return w.is_enabled(*a);
}

void observe_all(World& w) {
  while (!w.events().empty())
    run(w, "observe");
}

// g1-basic: two victims of 2 on a node of 4, a preemptor of 4.
Scenario g1(Faults faults) {
  Scenario s = scenario({node("node", 4)}, {pod("v1", kLow, 2, "node"), pod("v2", kLow, 2, "node"),
                                            pod("p", kHigh, 4)});
  s.faults = faults;
  return s;
}

TEST(implFaults, DeletingThePreemptorLeavesItsJobRunningAndActivatesNothing) {
  World w = world_of(g1(Faults{.deletions = 1}));
  run(w, "schedule p");
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_TRUE(w.api(id(w, "p")).exists);
  run(w, "delete p");
  EXPECT_FALSE(w.api(id(w, "p")).exists);  // pending: gone at once
  EXPECT_EQ(w.deletions_left(), 0);
  EXPECT_FALSE(enabled(w, "delete v1"));  // the budget is spent
  observe_all(w);
  EXPECT_EQ(w.unschedulable_pool() & bit_of(w, "p"), 0u);
  run(w, "evict p v1");
  run(w, "evict p v2");
  StepReport finish = run(w, "finish p");
  EXPECT_EQ(finish.moved, 0u);
  EXPECT_TRUE(w.jobs().empty());
}

TEST(implFaults, DeletingABoundPodStartsGracefulDeletionWithoutDisruptionTarget) {
  World w = world_of(g1(Faults{.deletions = 1}));
  run(w, "delete v2");
  EXPECT_TRUE(w.api(id(w, "v2")).terminating);
  EXPECT_FALSE(w.api(id(w, "v2")).disruption_target);
  EXPECT_TRUE(enabled(w, "terminate v2"));
}

TEST(implFaults, RestartLosesMemoryAndRelistsTheNomination) {
  World w = world_of(g1(Faults{.restarts = 1}));
  run(w, "schedule p");
  run(w, "evict p v1");
  ASSERT_NE(w.preempting(), 0u);
  StepReport r = run(w, "restart");
  EXPECT_TRUE(w.jobs().empty());
  EXPECT_TRUE(w.events().empty());
  EXPECT_EQ(w.preempting(), 0u);
  EXPECT_EQ(w.gated(), 0u);
  EXPECT_EQ(w.active_queue(), std::vector<PodId>{id(w, "p")});
  EXPECT_EQ(w.nominated(id(w, "p")), node_id(w, "node"));  // read back from the API
  EXPECT_TRUE(w.lister(id(w, "v1")).terminating);          // the relist shows the eviction
  EXPECT_EQ(r.abandoned, bit_of(w, "v2"));                 // v2's deletion never started
  EXPECT_FALSE(enabled(w, "restart"));
}

TEST(implFaults, ANewNodeMovesUngatedPodsButNotAGatedPreemptor) {
  Scenario s = scenario({node("node-1", 2), node("node-2", 2)},
                        {pod("v1", kLow, 2, "node-1"), pod("v2", kLow, 1, "node-2"),
                         pod("p", kHigh, 2), pod("q", kMid, 1)});
  s.nodes[1].arrives_later = true;
  s.pods[3].preempt_never = true;
  World w = world_of(s);
  EXPECT_FALSE(w.api(id(w, "v2")).exists);  // appears with its node
  EXPECT_FALSE(w.is_quiescent());
  run(w, "schedule p");  // preempts v1, gated
  run(w, "schedule q");  // Never: unschedulable, not gated
  ASSERT_NE(w.gated() & bit_of(w, "p"), 0u);
  StepReport r = run(w, "create-node node-2");
  EXPECT_TRUE(w.node_exists(node_id(w, "node-2")));
  EXPECT_TRUE(w.api(id(w, "v2")).exists);
  EXPECT_EQ(w.lister(id(w, "v2")).node, node_id(w, "node-2"));
  EXPECT_EQ(r.moved, bit_of(w, "q"));
  EXPECT_NE(w.gated() & bit_of(w, "p"), 0u);
  EXPECT_FALSE(enabled(w, "create-node node-2"));
}

TEST(implFaults, ActionsRoundTripThroughTheirKeywords) {
  Scenario s = g1(Faults{.restarts = 1, .deletions = 1});
  s.nodes.push_back(node("late", 1));
  s.nodes.back().arrives_later = true;
  World w = world_of(s);
  for (const std::string line : {"delete v1", "restart", "create-node late"}) {
    std::optional<Action> a = parse_action(line, w.cluster());
    ASSERT_TRUE(a) << line;
    EXPECT_EQ(format_action(*a, w.cluster()), line);
    EXPECT_TRUE(w.is_enabled(*a)) << line;
  }
  std::string error;
  EXPECT_FALSE(parse_action("create-node nowhere", w.cluster(), &error));
  EXPECT_EQ(error, "unknown node 'nowhere'");
}

}  // namespace
}  // namespace preemptcheck
