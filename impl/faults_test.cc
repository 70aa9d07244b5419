// Fault and later-node tests: a user's `delete`, a scheduler `restart`, and `create-node`
// (SPEC §2.3), each driven through World::apply as a counterexample would write it.
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include <gtest/gtest.h>

#include <algorithm>
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

// arrival-order: [node-2, p-high]: p-high, though declared later, is created only once node-2
// is, and node-2 with its running pod only after nothing; the order is read off the World's
// creation bits, so it adds nothing to the fingerprinted state.
TEST(implFaults, OrderedArrivalsWaitForTheOneBefore) {
  Scenario s = scenario({node("node-1", 2), node("node-2", 2)},
                        {pod("v1", kLow, 2, "node-1"), pod("v2", kLow, 2, "node-2"),
                         later(pod("p-high", kHigh, 1)), later(pod("p-mid", kMid, 1))});
  s.nodes[1].arrives_later = true;
  Scenario unordered = s;
  s.arrival_order = {"node-2", "p-high"};
  World w = world_of(s);
  const World free = world_of(unordered);
  EXPECT_EQ(w.fingerprint(), free.fingerprint());
  EXPECT_TRUE(enabled(free, "create p-high"));
  EXPECT_FALSE(enabled(w, "create p-high"));
  const std::optional<Action> create = parse_action("create p-high", w.cluster());
  ASSERT_TRUE(create);
  EXPECT_EQ(w.why_not_enabled(*create),
            "p-high arrives after node-2 (arrival-order), which is not created yet");
  EXPECT_TRUE(enabled(w, "create p-mid"));  // not in the list: any time
  EXPECT_TRUE(enabled(w, "create-node node-2"));
  run(w, "create-node node-2");
  EXPECT_TRUE(enabled(w, "create p-high"));
  run(w, "create p-high");
  EXPECT_FALSE(w.is_enabled(*create));
  EXPECT_EQ(w.why_not_enabled(*create), "p-high was created already, or does not arrive later");
}

// A node listed after a pod waits for that pod.
TEST(implFaults, ANodeCanWaitForAPod) {
  Scenario s = scenario({node("node-1", 2), node("node-2", 2)},
                        {pod("v1", kLow, 2, "node-1"), later(pod("p", kHigh, 1))});
  s.nodes[1].arrives_later = true;
  s.arrival_order = {"p", "node-2"};
  World w = world_of(s);
  EXPECT_FALSE(enabled(w, "create-node node-2"));
  const std::optional<Action> a = parse_action("create-node node-2", w.cluster());
  ASSERT_TRUE(a);
  EXPECT_EQ(w.why_not_enabled(*a),
            "node-2 arrives after p (arrival-order), which is not created yet");
  EXPECT_FALSE(w.is_quiescent());
  run(w, "create p");
  EXPECT_TRUE(enabled(w, "create-node node-2"));
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

// #134859: p preempts on node-a; q (lower priority, PreemptionPolicy Never) waits behind p;
// node-b is created, large enough for p but not for q, and another component binds p there.
Scenario external_binding(std::string_view profile_name) {
  Scenario s =
      scenario({node("node-a", 4), node("node-b", 4)},
               {pod("v", kLow, 4, "node-a"), pod("p", kHigh, 4), pod("q", kMid, 2)}, profile_name);
  s.nodes[1].arrives_later = true;
  s.nodes[1].memory = 1;
  s.pods[1].memory = 1;
  s.pods[2].preempt_never = true;
  s.faults.external_bindings = 1;
  // These tests follow the pods the binding event moves, not their backoff after it.
  s.mechanisms.backoff = Backoff::kNone;
  return s;
}

// external_binding up to the informer's delivery of p's binding: v is gone and its delete
// moved p and q; node-b is created and another component binds p there; kube-scheduler, not
// yet told, assumes p on node-a, so q's cycle finds no room and q waits in the pool.
World bound_externally(std::string_view profile_name, StepReport* observed_bind) {
  World w = world_of(external_binding(profile_name));
  run(w, "schedule p");  // preempts v, nominated to node-a
  run(w, "schedule q");  // Never: waits, p's nomination holds node-a
  if (profile_name == "kubernetes")
    run(w, "clear-nominations p");
  run(w, "evict p v");
  run(w, "terminate v");
  observe_all(w);  // v's delete moves p and q
  EXPECT_EQ(w.active_queue(), (std::vector<PodId>{id(w, "p"), id(w, "q")}));
  EXPECT_FALSE(enabled(w, "external-bind p node-b"));  // node-b does not exist yet
  run(w, "create-node node-b");
  EXPECT_FALSE(enabled(w, "external-bind p node-a"));  // not onto its own nominated node
  EXPECT_FALSE(enabled(w, "external-bind q node-b"));  // q has no nominated node
  run(w, "external-bind p node-b");
  EXPECT_EQ(w.api(id(w, "p")).node, node_id(w, "node-b"));
  EXPECT_EQ(w.api(id(w, "p")).nominated, kNoNode);  // the binding clears nominatedNodeName
  EXPECT_EQ(w.external_bindings_left(), 0);
  EXPECT_FALSE(enabled(w, "external-bind p node-b"));
  run(w, "schedule p");  // the informer still shows p pending: assumed on node-a
  EXPECT_EQ(w.assumed(id(w, "p")), node_id(w, "node-a"));
  // The binding in flight of a pod bound elsewhere holds nothing on the ground.
  EXPECT_EQ(w.ground_pods(node_id(w, "node-a")) & bit_of(w, "p"), 0u);
  run(w, "schedule q");  // no room beside the assumed p
  EXPECT_NE(w.unschedulable_pool() & bit_of(w, "q"), 0u);
  *observed_bind = run(w, "observe");
  EXPECT_EQ(w.lister(id(w, "p")).node, node_id(w, "node-b"));
  EXPECT_EQ(w.assumed(id(w, "p")), kNoNode);  // the cache moves p to node-b
  EXPECT_TRUE(w.fits(id(w, "q"), node_id(w, "node-a"), 0));
  return w;
}

TEST(implFaults, AnExternalBindingMovesNoPodUnderKubernetes) {
  StepReport r;
  World w = bound_externally("kubernetes", &r);
  EXPECT_EQ(r.moved, 0u);  // deletePodFromSchedulingQueue(oldPod, true) returns (#134859)
  StepReport bind = run(w, "bind p");  // kube-scheduler's own binding call is refused
  EXPECT_TRUE(bind.binding_lost);
  EXPECT_EQ(bind.moved, 0u);
  EXPECT_TRUE(w.active_queue().empty());    // the informer shows p assigned: not requeued
  EXPECT_EQ(run(w, "finish p").moved, 0u);  // p's job ends; it activates nothing
  EXPECT_TRUE(w.is_quiescent());
  EXPECT_NE(w.unschedulable_pool() & bit_of(w, "q"), 0u);  // q fits node-a and waits
}

TEST(implFaults, WakeOnReleaseMovesThePoolOnAnExternalBinding) {
  StepReport r;
  World w = bound_externally("reference", &r);
  EXPECT_EQ(r.moved, bit_of(w, "q"));  // the assumed space on node-a is given back
}

TEST(implFaults, AStaleBindingOfAnExternallyBoundPodIsRefusedAndRequeued) {
  World w = world_of(external_binding("reference"));
  run(w, "schedule p");
  run(w, "evict p v");
  run(w, "terminate v");
  observe_all(w);
  run(w, "create-node node-b");
  run(w, "external-bind p node-b");
  run(w, "schedule p");  // assumed on node-a from the stale informer
  StepReport bind = run(w, "bind p");
  EXPECT_TRUE(bind.binding_lost);
  EXPECT_EQ(w.assumed(id(w, "p")), kNoNode);
  EXPECT_EQ(w.api(id(w, "p")).node, node_id(w, "node-b"));
  // The informer has not delivered the binding yet: p goes back to activeQ, and the
  // binding event takes it out again (SchedulingQueue.Delete).
  EXPECT_NE(bind.moved & bit_of(w, "p"), 0u);
  observe_all(w);
  EXPECT_EQ(std::count(w.active_queue().begin(), w.active_queue().end(), id(w, "p")), 0);
  EXPECT_EQ(w.unschedulable_pool() & bit_of(w, "p"), 0u);
  EXPECT_EQ(w.nominated(id(w, "p")), kNoNode);
}

TEST(implFaults, ExternalBindRoundTripsThroughItsKeyword) {
  World w = world_of(external_binding("reference"));
  std::optional<Action> a = parse_action("external-bind p node-b", w.cluster());
  ASSERT_TRUE(a);
  EXPECT_EQ(a->pod, id(w, "p"));
  EXPECT_EQ(a->node, node_id(w, "node-b"));
  EXPECT_EQ(format_action(*a, w.cluster()), "external-bind p node-b");
  std::string error;
  EXPECT_FALSE(parse_action("external-bind p", w.cluster(), &error));
  EXPECT_EQ(error, "expected 'external-bind' followed by a pod name and a node name");
  EXPECT_FALSE(parse_action("external-bind p nowhere", w.cluster(), &error));
  EXPECT_EQ(error, "unknown node 'nowhere'");
  EXPECT_FALSE(parse_action("external-bind nobody node-b", w.cluster(), &error));
  EXPECT_EQ(error, "unknown pod 'nobody'");
}

}  // namespace
}  // namespace preemptcheck
