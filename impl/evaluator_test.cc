// Evaluator tests: DefaultPreemption's decisions checked against the expectations of
// kube-scheduler's own unit tests (TestSelectBestCandidate, TestDryRunPreemption,
// TestPodEligibleToPreemptOthers) and pickOneNodeForPreemption's criteria one at a time.
//
// Units follow those tests with the milli-units dropped: 100m/100 becomes cpu 100, memory 100.
// Start times: running pods start in scenario list order, so a pod listed earlier started
// earlier (Kubernetes' smaller epochTimeN).
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include "impl/evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/action.h"
#include "impl/cluster.h"
#include "impl/mechanisms.h"
#include "impl/scenario.h"
#include "impl/test_support.h"
#include "impl/world.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// Takes one step written as in a counterexample ("evict p v"); throws, failing the test,
// when the line does not parse or the action is not enabled.
// Delivers every queued watch event.
std::vector<std::string> sorted_names(const World& w, const std::vector<PodId>& pods) {
  std::vector<std::string> out;
  for (PodId p : pods)
    out.push_back(w.cluster().pod_name(p));
  std::sort(out.begin(), out.end());
  return out;
}

// The dry run as TestDryRunPreemption compares it: node name → victim names sorted by name.
std::map<std::string, std::vector<std::string>> dry_run(const World& w, std::string_view p) {
  std::map<std::string, std::vector<std::string>> out;
  for (const Candidate& c : dry_run_preemption(w, id(w, p))) {
    out[w.cluster().node_name(c.node)] = sorted_names(w, c.victims);
  }
  return out;
}

// TestSelectBestCandidate's pipeline: dry run, then pickOneNodeForPreemption.
std::string best_node(const World& w, std::string_view p) {
  std::vector<Candidate> candidates = dry_run_preemption(w, id(w, p));
  if (candidates.empty())
    return "<no candidate>";
  return w.cluster().node_name(candidates[pick_one_node(w, candidates)].node);
}

using Victims = std::map<std::string, std::vector<std::string>>;

// --- A. TestSelectBestCandidate -------------------------------------------------------------

// A1: Kubernetes accepts node1 or node2 because its p1 and p2 share one StartTime, so every
// criterion ties and the choice falls to map order. Start times in the model are always
// distinct (scenario order), so criterion 5 (latest start of the highest-priority victims)
// decides before the first-candidate tie-break is reached: p2 started after p1, so node2.
TEST(implSelectBestCandidate, A1BothNodesFitPicksTheLaterStartedVictim) {
  World w = world_of(scenario({node("node1"), node("node2")},
                              {pod("p1", kMid, kLarge, "node1"), pod("p2", kMid, kLarge, "node2"),
                               pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"p1"}}, {"node2", {"p2"}}}));
  const std::string chosen = best_node(w, "p");
  EXPECT_TRUE(chosen == "node1" || chosen == "node2") << chosen;
  EXPECT_EQ(chosen, "node2");
}

// A1 with the start order reversed: the choice follows the victims' start times, not the
// node order, so node1 wins once its victim is the later-started one.
TEST(implSelectBestCandidate, A1ReversedStartOrderPicksNode1) {
  World w = world_of(scenario({node("node1"), node("node2")},
                              {pod("p2", kMid, kLarge, "node2"), pod("p1", kMid, kLarge, "node1"),
                               pod("p", kHigh, kLarge)}));
  EXPECT_EQ(best_node(w, "p"), "node1");
}

TEST(implSelectBestCandidate, A2MinHighestPriorityVictim) {
  World w =
      world_of(scenario({node("node1"), node("node2"), node("node3")},
                        {pod("p1.1", kMid, kMedium, "node1"), pod("p1.2", kMid, kLarge, "node1"),
                         pod("p2.1", kMid, kMedium, "node2"), pod("p2.2", kLow, kMedium, "node2"),
                         pod("p3.1", kLow, kMedium, "node3"), pod("p3.2", kLow, kMedium, "node3"),
                         pod("p", kHigh, kVeryLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"p1.1", "p1.2"}},
                                      {"node2", {"p2.1", "p2.2"}},
                                      {"node3", {"p3.1", "p3.2"}}}));
  EXPECT_EQ(best_node(w, "p"), "node3");
}

TEST(implSelectBestCandidate, A3MinSumOfPriorities) {
  World w =
      world_of(scenario({node("node1"), node("node2"), node("node3")},
                        {pod("p1.1", kMid, kMedium, "node1"), pod("p1.2", kMid, kLarge, "node1"),
                         pod("p2.1", kMid, kLarge, "node2"), pod("p2.2", kLow, kMedium, "node2"),
                         pod("p3.1", kMid, kMedium, "node3"), pod("p3.2", kMid, kMedium, "node3"),
                         pod("p", kHigh, kVeryLarge)}));
  EXPECT_EQ(best_node(w, "p"), "node2");
}

TEST(implSelectBestCandidate, A4NegativePrioritiesDoNotMakeMoreVictimsCheaper) {
  World w =
      world_of(scenario({node("node1"), node("node2"), node("node3")},
                        {pod("p1.1", kMid, kSmall, "node1"), pod("p1.2", kNeg, kSmall, "node1"),
                         pod("p1.3", kMid, kSmall, "node1"), pod("p1.4", kNeg, kSmall, "node1"),
                         pod("p2.1", kMid, kLarge, "node2"), pod("p2.2", kNeg, kMedium, "node2"),
                         pod("p3.1", kMid, kMedium, "node3"), pod("p3.2", kNeg, kSmall, "node3"),
                         pod("p3.3", kLow, kSmall, "node3"), pod("p", kHigh, kVeryLarge)}));
  EXPECT_EQ(best_node(w, "p"), "node2");
}

// A5: node1's raw priority sum (100-100-100 = -100) is below node2's (0); only the
// MaxInt32+1 offset per victim makes node2's two victims cheaper than node1's three.
TEST(implSelectBestCandidate, A5SumOfAdjustedPriorities) {
  World w =
      world_of(scenario({node("node1"), node("node2"), node("node3")},
                        {pod("p1.1", kMid, kSmall, "node1"), pod("p1.2", kNeg, kSmall, "node1"),
                         pod("p1.3", kNeg, kSmall, "node1"), pod("p2.1", kMid, kLarge, "node2"),
                         pod("p2.2", kNeg, kMedium, "node2"), pod("p3.1", kMid, kMedium, "node3"),
                         pod("p3.2", kNeg, kSmall, "node3"), pod("p3.3", kLow, kSmall, "node3"),
                         pod("p", kHigh, kVeryLarge)}));
  EXPECT_EQ(best_node(w, "p"), "node2");
}

// --- B. TestDryRunPreemption ----------------------------------------------------------------

TEST(implDryRunPreemption, B1SmallLowPodIsReprieved) {
  World w =
      world_of(scenario({node("node1"), node("node2")},
                        {pod("p1.1", kLow, kSmall, "node1"), pod("p1.2", kMid, kLarge, "node1"),
                         pod("p2", kMid, kLarge, "node2"), pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"p1.2"}}, {"node2", {"p2"}}}));
}

TEST(implDryRunPreemption, B2EqualPriorityPodsAreNeverVictims) {
  World w =
      world_of(scenario({node("node1"), node("node2")},
                        {pod("p1.1", kMid, kSmall, "node1"), pod("p1.2", kLow, kSmall, "node1"),
                         pod("p1.3", kMid, kMedium, "node1"), pod("p1.4", kHigh, kSmall, "node1"),
                         pod("p2", kHigh, kLarge, "node2"), pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"p1.2", "p1.3"}}}));
}

// B3: listed in start order (t1 … t5), so p1.2 (t4) started before p1.1 (t5). Of the two
// equal-priority low pods the earlier-started p1.2 is more important, is reprieved first,
// and p1.1 goes.
TEST(implDryRunPreemption, B3LaterStartedEqualPriorityPodIsEvicted) {
  World w =
      world_of(scenario({node("node1"), node("node2")}, {pod("p2", kHigh, kLarge, "node2"),    // t1
                                                         pod("p1.4", kHigh, kSmall, "node1"),  // t2
                                                         pod("p1.3", kMid, kMedium, "node1"),  // t3
                                                         pod("p1.2", kLow, kSmall, "node1"),   // t4
                                                         pod("p1.1", kLow, kSmall, "node1"),   // t5
                                                         pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"p1.1", "p1.3"}}}));
}

// B4: two app=foo pods, PDB min-available 1 → DisruptionsAllowed 1. The second pod in
// importance order overdraws the budget, so exactly one victim counts as a violation.
TEST(implDryRunPreemption, B4PdbViolationIsCounted) {
  Scenario s =
      scenario({node("node1")}, {pod("p1.1", kMid, kMedium, "node1"),
                                 pod("p1.2", kMid, kMedium, "node1"), pod("p", kHigh, kVeryLarge)});
  s.pods[0].labels = {{"app", "foo"}};
  s.pods[1].labels = {{"app", "foo"}};
  s.pdbs = {PdbSpec{"pdb", {{"app", "foo"}}, 1}};
  World w = world_of(std::move(s));
  std::vector<Candidate> candidates = dry_run_preemption(w, id(w, "p"));
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(w.cluster().node_name(candidates[0].node), "node1");
  EXPECT_EQ(sorted_names(w, candidates[0].victims), (std::vector<std::string>{"p1.1", "p1.2"}));
  EXPECT_EQ(candidates[0].pdb_violations, 1);
}

// The same pods with a PDB that allows both disruptions: no violation.
TEST(implDryRunPreemption, PdbWithEnoughBudgetIsNotViolated) {
  Scenario s =
      scenario({node("node1")}, {pod("p1.1", kMid, kMedium, "node1"),
                                 pod("p1.2", kMid, kMedium, "node1"), pod("p", kHigh, kVeryLarge)});
  s.pods[0].labels = {{"app", "foo"}};
  s.pods[1].labels = {{"app", "foo"}};
  s.pdbs = {PdbSpec{"pdb", {{"app", "foo"}}, 0}};
  World w = world_of(std::move(s));
  std::vector<Candidate> candidates = dry_run_preemption(w, id(w, "p"));
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(candidates[0].pdb_violations, 0);
}

// Reprieve tries PDB-violating pods before the others. Here b is more important than a
// (it started first), so without the PDB a would go; a's PDB has no budget left, so a is
// reprieved first and b is evicted instead, with no violation.
TEST(implDryRunPreemption, PdbProtectedPodIsReprievedFirst) {
  Scenario s =
      scenario({node("node1")}, {pod("b", kMid, kMedium, "node1"), pod("a", kMid, kMedium, "node1"),
                                 pod("p", kHigh, kLarge)});
  s.pods[1].labels = {{"app", "foo"}};
  s.pdbs = {PdbSpec{"pdb", {{"app", "foo"}}, 1}};
  World w = world_of(std::move(s));
  std::vector<Candidate> candidates = dry_run_preemption(w, id(w, "p"));
  ASSERT_EQ(candidates.size(), 1u);
  EXPECT_EQ(sorted_names(w, candidates[0].victims), std::vector<std::string>{"b"});
  EXPECT_EQ(candidates[0].pdb_violations, 0);
}

TEST(implDryRunPreemption, WithoutPdbTheLaterStartedPodGoes) {
  World w = world_of(
      scenario({node("node1")}, {pod("b", kMid, kMedium, "node1"), pod("a", kMid, kMedium, "node1"),
                                 pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"a"}}}));
}

// Victims come back most important first, the order the executor relies on for "last".
TEST(implDryRunPreemption, VictimsAreOrderedMostImportantFirst) {
  World w = world_of(
      scenario({node("node1")}, {pod("a", kLow, kMedium, "node1"), pod("b", kMid, kMedium, "node1"),
                                 pod("p", kHigh, kVeryLarge)}));
  std::optional<Candidate> c = select_victims_on_node(w, id(w, "p"), node_id(w, "node1"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->victims, (std::vector<PodId>{id(w, "b"), id(w, "a")}));
}

// NodeResourcesFit reports a node smaller than the request as UnschedulableAndUnresolvable;
// findCandidates skips it even though removing its pods would "free" it.
TEST(implDryRunPreemption, UnresolvableNodeIsNoCandidate) {
  World w = world_of(scenario(
      {node("small", kMedium), node("big")},
      {pod("s", kLow, kSmall, "small"), pod("b", kLow, kLarge, "big"), pod("p", kHigh, kLarge)}));
  EXPECT_EQ(dry_run(w, "p"), (Victims{{"big", {"b"}}}));
}

TEST(implDryRunPreemption, NodeWithoutLowerPriorityPodsIsNoCandidate) {
  World w = world_of(
      scenario({node("node1")}, {pod("q", kHigh, kLarge, "node1"), pod("p", kHigh, kLarge)}));
  EXPECT_FALSE(select_victims_on_node(w, id(w, "p"), node_id(w, "node1")).has_value());
  EXPECT_TRUE(dry_run_preemption(w, id(w, "p")).empty());
}

// "No preemption victims found": the check comes before the fit check, so a node the
// preemptor already fits is not a candidate either when it has nothing to remove.
TEST(implDryRunPreemption, NoPotentialVictimIsNoCandidateEvenWhereThePodFits) {
  World w = world_of(
      scenario({node("node1")}, {pod("q", kHigh, kSmall, "node1"), pod("p", kHigh, kSmall)}));
  ASSERT_TRUE(w.fits(id(w, "p"), node_id(w, "node1"), 0));
  EXPECT_FALSE(select_victims_on_node(w, id(w, "p"), node_id(w, "node1")).has_value());
}

// Kubernetes' DryRunPreemption drops a node whose SelectVictimsOnNode succeeds with no
// victims ("expected at least one victim pod on node …"), so such a node is never a
// candidate. World::decide never reaches this — a node needing no victims means the pod
// fits, and the cycle binds — so only direct callers of dry_run_preemption see it.
TEST(implDryRunPreemption, NodeThatNeedsNoVictimIsNoCandidate) {
  World w = world_of(
      scenario({node("node1")}, {pod("v", kLow, kSmall, "node1"), pod("p", kHigh, kSmall)}));
  EXPECT_TRUE(dry_run_preemption(w, id(w, "p")).empty());
}

// inflight=on keeps a victim another preemptor's job is already deleting out of the dry run;
// kube-scheduler (inflight=preemptor-only) picks it again.
TEST(implDryRunPreemption, AnotherPreemptorsInflightVictimIsExcludedOnlyWithInflightOn) {
  for (std::string_view name : {"reference", "kubernetes"}) {
    World w = world_of(scenario({node("node1")},
                                {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge),
                                 later(pod("p", kVeryHigh, kLarge))},
                                name));
    run(w, "schedule p0");
    ASSERT_EQ(w.inflight_victims_of(id(w, "p0")),
              name == "reference" ? pod_bit(id(w, "v")) : PodSet{0});
    if (name == "reference") {
      EXPECT_EQ(dry_run(w, "p"), Victims{}) << name;
    } else {
      EXPECT_EQ(dry_run(w, "p"), (Victims{{"node1", {"v"}}})) << name;
    }
  }
}

// --- E. TestPodEligibleToPreemptOthers ------------------------------------------------------

// node1 holds one low pod v; p0 and p are high preemptors. After `preempt_v_for_p0`, p0's
// job has evicted v and the informer has seen both p0's nomination and v's deletion start.
World eligibility_world() {
  return world_of(scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"),
                                             pod("p0", kHigh, kLarge), pod("p", kHigh, kLarge)}));
}

void preempt_v_for_p0(World& w) {
  run(w, "schedule p0");
  run(w, "evict p0 v");
}

// E1 as Kubernetes writes it (NNN=node1, node1 UnschedulableAndUnresolvable for the
// preemptor) cannot be built here: the model's only Unresolvable status is a request above
// the node's fixed capacity, and a preemptor is only ever nominated to a dry-run candidate,
// which excludes exactly those nodes. What can be reached is the premise that makes that
// branch unnecessary: the nomination never lands on such a node.
// inflight=on: while p0's own victim is in flight and the informer does not show it
// terminating, p0 is not eligible to preempt again, whatever its informer copy says. It
// waits in the unschedulable pool and is woken when the informer shows the victim
// terminating — the step that opens the gate of the check above.
TEST(implPodEligibleToPreemptOthers, OwnVictimsInFlightMakeThePreemptorWait) {
  World w = world_of(
      scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge)}));
  preempt_v_for_p0(w);
  const PodId p0 = id(w, "p0");
  ASSERT_EQ(w.inflight_victims_of(p0), bit_of(w, "v"));
  EXPECT_FALSE(is_eligible_to_preempt(w, p0));
  ASSERT_EQ(run(w, "finish p0").moved, pod_bit(p0));  // activate-on-finish
  StepReport r = run(w, "schedule p0");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kIneligible);
  EXPECT_EQ(w.waiting_for_own_victims(), pod_bit(p0));
  EXPECT_EQ(r.decision.to_evict, PodSet{0});      // v was not chosen a second time
  EXPECT_EQ(run(w, "observe").moved, PodSet{0});  // p0's nomination
  StepReport o = run(w, "observe");               // v terminating
  EXPECT_EQ(o.moved, pod_bit(p0));
  EXPECT_EQ(w.waiting_for_own_victims(), PodSet{0});
  EXPECT_EQ(w.inflight_victims_of(p0), PodSet{0});
}

// Under kubernetes the same preemptor, activated the same way, preempts v again from its
// stale view: the over-preemption PR #142294 would open without the wait above.
TEST(implPodEligibleToPreemptOthers, WithoutTheWaitActivationPreemptsTheSameVictimAgain) {
  Scenario s = scenario({node("node1")},
                        {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge)}, "kubernetes");
  s.mechanisms.activate_on_finish = true;
  World w = world_of(std::move(s));
  run(w, "schedule p0");
  run(w, "clear-nominations p0");  // clear-lower=async
  run(w, "evict p0 v");
  ASSERT_EQ(run(w, "finish p0").moved, bit_of(w, "p0"));
  StepReport r = run(w, "schedule p0");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(r.decision.to_evict, bit_of(w, "v"));
}

TEST(implPodEligibleToPreemptOthers, E1NominationNeverLandsOnAnUnresolvableNode) {
  World w = world_of(scenario(
      {node("small", kMedium), node("big")},
      {pod("s", kLow, kMedium, "small"), pod("b", kLow, kLarge, "big"), pod("p", kHigh, kLarge)}));
  StepReport r = run(w, "schedule p");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(w.nominated(id(w, "p")), node_id(w, "big"));
  EXPECT_EQ(w.api(id(w, "p")).nominated, node_id(w, "big"));
}

TEST(implPodEligibleToPreemptOthers, E2NoNominationIsEligibleDespiteTerminatingVictim) {
  World w = eligibility_world();
  preempt_v_for_p0(w);
  observe_all(w);
  const PodObj& v = w.lister(id(w, "v"));
  ASSERT_TRUE(v.terminating && v.disruption_target);
  ASSERT_EQ(w.lister(id(w, "p")).nominated, kNoNode);
  EXPECT_TRUE(is_eligible_to_preempt(w, id(w, "p")));
}

TEST(implPodEligibleToPreemptOthers, E3PreemptionPolicyNeverIsNotEligible) {
  Scenario s =
      scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p", kHigh, kLarge)});
  s.pods[1].preempt_never = true;
  World w = world_of(std::move(s));
  EXPECT_FALSE(is_eligible_to_preempt(w, id(w, "p")));
  EXPECT_EQ(w.decide(id(w, "p")).kind, CycleDecision::Kind::kIneligible);
  StepReport r = run(w, "schedule p");
  EXPECT_TRUE(w.jobs().empty());
  EXPECT_EQ(w.api(id(w, "v")), w.lister(id(w, "v")));
  EXPECT_FALSE(w.api(id(w, "v")).terminating);
  EXPECT_EQ(w.nominated(id(w, "p")), kNoNode);
  EXPECT_FALSE(r.gated);
}

TEST(implPodEligibleToPreemptOthers, E4TerminatingVictimWithDisruptionTargetBlocks) {
  World w = eligibility_world();
  preempt_v_for_p0(w);
  observe_all(w);
  const PodId p0 = id(w, "p0");
  ASSERT_EQ(w.lister(p0).nominated, node_id(w, "node1"));
  ASSERT_TRUE(w.lister(id(w, "v")).terminating);
  ASSERT_TRUE(w.lister(id(w, "v")).disruption_target);
  EXPECT_FALSE(is_eligible_to_preempt(w, p0));
  EXPECT_EQ(w.decide(p0).kind, CycleDecision::Kind::kIneligible);
}

// Kubernetes' check reads the preemptor and the victim from the informer: until both
// updates are delivered, p0 is still eligible. (Under inflight=on p0 would wait for its own
// victim from the start: see the next test.)
TEST(implPodEligibleToPreemptOthers, E4UsesTheInformersView) {
  World w = world_of(
      scenario({node("node1")},
               {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge), pod("p", kHigh, kLarge)},
               "kubernetes"));
  run(w, "schedule p0");
  run(w, "clear-nominations p0");  // clear-lower=async
  run(w, "evict p0 v");
  const PodId p0 = id(w, "p0");
  ASSERT_EQ(w.events().size(), 2u);
  EXPECT_TRUE(is_eligible_to_preempt(w, p0));  // neither update delivered
  run(w, "observe");                           // p0's nomination
  ASSERT_EQ(w.lister(p0).nominated, node_id(w, "node1"));
  EXPECT_TRUE(is_eligible_to_preempt(w, p0));  // v not yet seen terminating
  run(w, "observe");                           // v's deletion under way
  EXPECT_FALSE(is_eligible_to_preempt(w, p0));
}

// The nomination comes from the informer, not from the nominator. A very high pod h takes
// node1 too and, with clear-lower=sync, drops p0's nomination from the nominator at once;
// until that patch is delivered the informer still shows p0 nominated to node1 with v
// terminating there, so p0 stays ineligible.
TEST(implPodEligibleToPreemptOthers, E4ReadsTheNominationFromTheInformer) {
  World w =
      world_of(scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge),
                                          later(pod("h", kVeryHigh, kLarge))}));
  const PodId p0 = id(w, "p0");
  preempt_v_for_p0(w);
  run(w, "create h");
  observe_all(w);
  StepReport r = run(w, "schedule h");
  ASSERT_EQ(r.cleared, pod_bit(p0));
  ASSERT_EQ(w.nominated(p0), kNoNode);
  ASSERT_EQ(w.lister(p0).nominated, node_id(w, "node1"));
  EXPECT_FALSE(is_eligible_to_preempt(w, p0));
  observe_all(w);  // the clearing patch arrives
  EXPECT_TRUE(is_eligible_to_preempt(w, p0));
}

// Only lower-priority terminating pods block. q (mid) was evicted for x, which then bound
// elsewhere, so q is still terminating on node1 when p (mid, like q) is nominated there and
// its own victim l is gone: q does not make p ineligible.
//   node1 (500): q mid 300, l low 100.  node2 (300): room for one 300 pod.
//   b (very high, PreemptionPolicy=Never) binds to node2, x (very high) preempts q on node1,
//   b's binding fails so x binds to node2 instead; then p preempts l on node1.
TEST(implPodEligibleToPreemptOthers, TerminatingPodOfEqualPriorityDoesNotBlock) {
  Scenario s = scenario({node("node1"), node("node2", kLarge)},
                        {pod("q", kMid, kLarge, "node1"), pod("l", kLow, kSmall, "node1"),
                         pod("b", kVeryHigh, kLarge), later(pod("x", kVeryHigh, kLarge)),
                         later(pod("p", kMid, kMedium))},
                        "kubernetes");
  s.pods[2].preempt_never = true;
  s.faults.binding_failures = 1;
  s.mechanisms.backoff = Backoff::kNone;  // b is scheduled again at once after its bind fails
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  const PodId q = id(w, "q");
  ASSERT_EQ(run(w, "schedule b").decision.node, node_id(w, "node2"));
  run(w, "create x");
  observe_all(w);
  StepReport rx = run(w, "schedule x");
  ASSERT_EQ(rx.decision.node, node_id(w, "node1"));
  ASSERT_EQ(rx.decision.victims, pod_bit(q));
  run(w, "clear-nominations x");
  run(w, "evict x q");
  run(w, "finish x");
  observe_all(w);
  run(w, "bind-fails b");
  ASSERT_EQ(run(w, "schedule x").decision.node, node_id(w, "node2"));
  ASSERT_EQ(run(w, "schedule b").decision.kind, CycleDecision::Kind::kIneligible);
  run(w, "create p");
  observe_all(w);
  StepReport rp = run(w, "schedule p");
  ASSERT_EQ(rp.decision.node, node_id(w, "node1"));
  ASSERT_EQ(rp.decision.to_evict, bit_of(w, "l"));
  run(w, "clear-nominations p");
  run(w, "evict p l");
  run(w, "terminate l");
  observe_all(w);
  ASSERT_EQ(w.lister(p).nominated, node_id(w, "node1"));
  ASSERT_FALSE(w.lister(id(w, "l")).exists);
  ASSERT_TRUE(w.lister(q).terminating && w.lister(q).disruption_target);
  ASSERT_TRUE(has_pod(w.cache_pods(node_id(w, "node1")), q));
  EXPECT_TRUE(is_eligible_to_preempt(w, p));
}

// E5 (a terminating pod WITHOUT DisruptionTarget/PreemptionByScheduler) cannot be built: the
// model starts a pod's deletion only through a preemption eviction, which always sets the
// condition. What can be reached: once the terminating victim is gone, the preemptor is
// eligible again with its nomination still in place.
TEST(implPodEligibleToPreemptOthers, E5VictimGoneIsEligibleAgain) {
  World w = eligibility_world();
  preempt_v_for_p0(w);
  observe_all(w);
  const PodId p0 = id(w, "p0");
  ASSERT_FALSE(is_eligible_to_preempt(w, p0));
  run(w, "terminate v");
  observe_all(w);
  ASSERT_FALSE(w.lister(id(w, "v")).exists);
  ASSERT_EQ(w.lister(p0).nominated, node_id(w, "node1"));
  EXPECT_TRUE(is_eligible_to_preempt(w, p0));
}

// --- util.MoreImportantPod -------------------------------------------------------------------

World importance_world() {
  return world_of(scenario({node("node1", 10000)}, {pod("low0", kLow, kSmall, "node1"),  // start 0
                                                    pod("mid1", kMid, kSmall, "node1"),  // start 1
                                                    pod("mid2", kMid, kSmall, "node1"),  // start 2
                                                    pod("pendA", kMid, kSmall),     // never started
                                                    pod("pendB", kMid, kSmall)}));  // never started
}

TEST(implMoreImportant, HigherPriorityWinsOverEarlierStart) {
  World w = importance_world();
  EXPECT_TRUE(is_more_important(w, id(w, "mid1"), id(w, "low0")));
  EXPECT_FALSE(is_more_important(w, id(w, "low0"), id(w, "mid1")));
}

TEST(implMoreImportant, EqualPriorityEarlierStartWins) {
  World w = importance_world();
  EXPECT_TRUE(is_more_important(w, id(w, "mid1"), id(w, "mid2")));
  EXPECT_FALSE(is_more_important(w, id(w, "mid2"), id(w, "mid1")));
}

TEST(implMoreImportant, UnstartedPodIsLeastImportantAtItsPriority) {
  World w = importance_world();
  EXPECT_TRUE(is_more_important(w, id(w, "mid2"), id(w, "pendA")));
  EXPECT_FALSE(is_more_important(w, id(w, "pendA"), id(w, "mid2")));
  // … but priority still comes first.
  EXPECT_TRUE(is_more_important(w, id(w, "pendA"), id(w, "low0")));
}

TEST(implMoreImportant, TwoUnstartedPodsTieByPodOrderAndIsIrreflexive) {
  World w = importance_world();
  EXPECT_TRUE(is_more_important(w, id(w, "pendA"), id(w, "pendB")));
  EXPECT_FALSE(is_more_important(w, id(w, "pendB"), id(w, "pendA")));
  EXPECT_FALSE(is_more_important(w, id(w, "mid1"), id(w, "mid1")));
}

// A pod that binds gets its start then: later than every pod already running.
TEST(implMoreImportant, BoundPodStartsAfterEveryRunningPod) {
  World w = importance_world();
  run(w, "schedule pendA");
  run(w, "bind pendA");
  observe_all(w);
  EXPECT_TRUE(is_more_important(w, id(w, "mid2"), id(w, "pendA")));
  EXPECT_TRUE(is_more_important(w, id(w, "pendA"), id(w, "pendB")));
}

// --- pickOneNodeForPreemption, one criterion at a time -----------------------------------------
//
// Candidates are built by hand so that every earlier criterion ties and the next one would
// have chosen the other candidate: the expected index can only come from the criterion under
// test. Victim lists are most important first, as select_victims_on_node returns them.

World pick_world() {
  return world_of(scenario({node("node1", 10000), node("node2"), node("node3")},
                           {pod("l0", kLow, kSmall, "node1"),       // start 0
                            pod("m0", kMid, kSmall, "node1"),       // start 1
                            pod("m1", kMid, kSmall, "node1"),       // start 2
                            pod("m2", kMid, kSmall, "node1"),       // start 3
                            pod("m3", kMid, kSmall, "node1"),       // start 4
                            pod("l1", kLow, kSmall, "node1"),       // start 5
                            pod("l2", kLow, kSmall, "node1"),       // start 6
                            pod("n0", kNeg, kSmall, "node1"),       // start 7
                            pod("n1", kNeg, kSmall, "node1"),       // start 8
                            pod("x", INT_MIN, kSmall, "node1")}));  // start 9
}

Candidate cand(const World& w, NodeId n, std::vector<std::string_view> victims, int pdb = 0) {
  Candidate c;
  c.node = n;
  for (std::string_view v : victims)
    c.victims.push_back(id(w, v));
  c.pdb_violations = pdb;
  return c;
}

TEST(implPickOneNode, SingleCandidateIsChosen) {
  World w = pick_world();
  EXPECT_EQ(pick_one_node(w, {cand(w, 1, {"m0"})}), 0u);
}

TEST(implPickOneNode, Criterion1FewestPdbViolations) {
  World w = pick_world();
  // Criterion 2 would prefer the first (low victim), criterion 4 the first too.
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"l0"}, 1), cand(w, 1, {"m0", "m1"}, 0)}), 1u);
}

TEST(implPickOneNode, Criterion2LowestHighestPriorityVictim) {
  World w = pick_world();
  // Criteria 3 and 4 would prefer the first: one victim against three.
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m0"}), cand(w, 1, {"l0", "l1", "l2"})}), 1u);
}

TEST(implPickOneNode, Criterion3SmallestPrioritySum) {
  World w = pick_world();
  // Same count; criterion 5 would prefer the first (its mid victims started at 3, not 1).
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m2", "m3"}), cand(w, 1, {"m0", "l0"})}), 1u);
}

TEST(implPickOneNode, Criterion3OffsetMakesFewerNegativeVictimsWin) {
  World w = pick_world();
  // Raw sums: 100-100-100 = -100 against 100+0 = 100; adjusted, three pods cost more.
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m0", "n0", "n1"}), cand(w, 1, {"m1", "l0"})}), 1u);
}

// With the MaxInt32+1 offset a victim adds at least 0 to the sum and exactly 0 only at
// priority MinInt32, so criterion 4 can only ever separate candidates through such a pod.
TEST(implPickOneNode, Criterion4FewestVictims) {
  World w = pick_world();
  // Adjusted sums tie (x adds 0); criterion 5 would prefer the first (m3 started at 4).
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m3", "x"}), cand(w, 1, {"m0"})}), 1u);
}

TEST(implPickOneNode, Criterion5LatestStartAmongHighestPriorityVictims) {
  World w = pick_world();
  // Highest-priority victims: m0 (start 1) against m1 (start 2) → the second. Counting the
  // low victims too would give 1 against l0's 0 and pick the first.
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m0", "l2"}), cand(w, 1, {"m1", "l0"})}), 1u);
}

TEST(implPickOneNode, Criterion6FirstRemainingCandidate) {
  World w = pick_world();
  // Identical costs: the first in the list wins, whatever its node.
  EXPECT_EQ(pick_one_node(w, {cand(w, 2, {"m0"}), cand(w, 0, {"m0"})}), 0u);
  EXPECT_EQ(pick_one_node(w, {cand(w, 0, {"m0"}), cand(w, 2, {"m0"})}), 0u);
  EXPECT_EQ(pick_one_node(w, {cand(w, 1, {"m0"}, 1), cand(w, 2, {"m0"}), cand(w, 0, {"m0"})}), 1u);
}

}  // namespace
}  // namespace preemptcheck
