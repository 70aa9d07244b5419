// World tests: the executor against kube-scheduler's executor_test.go (TestPrepareCandidate,
// TestIsPodRunningPreemption, TestPrepareCandidateAsyncSetsPreemptingSets), and the queue,
// informer, cache and nominator mechanics the executor relies on. Every test drives the world
// only through World::apply and reads it through its accessors.
//
// Units follow kube-scheduler's preemption tests with the milli-units dropped (100m → 100).
// Running pods start in scenario list order.
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include "impl/world.h"

#include <gtest/gtest.h>

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

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

PodSet bit(const World& w, std::string_view name) { return pod_bit(id(w, name)); }

// Takes one step written as in a counterexample ("evict p v"); throws, failing the test,
// when the line does not parse or the action is not enabled.
std::vector<std::string> enabled_lines(const World& w) {
  std::vector<Action> actions;
  w.enabled_actions(actions);
  std::vector<std::string> out;
  for (const Action& a : actions)
    out.push_back(format_action(a, w.cluster()));
  return out;
}

const Job* job_of(const World& w, std::string_view preemptor) {
  for (const Job& j : w.jobs()) {
    if (j.preemptor == id(w, preemptor))
      return &j;
  }
  return nullptr;
}

// node1 (500) runs the low pod v (300); the high pod p (300) needs v gone.
Scenario one_victim(std::string_view profile_name) {
  return scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p", kHigh, kLarge)},
                  profile_name);
}

// node1 runs v1 and v2 (low, 200 each, v1 started first); p (500) needs both gone.
Scenario two_victims(std::string_view profile_name) {
  return scenario({node("node1")},
                  {pod("v1", kLow, kMedium, "node1"), pod("v2", kLow, kMedium, "node1"),
                   pod("p", kHigh, kVeryLarge)},
                  profile_name);
}

// --- F. The executor --------------------------------------------------------------------------

// F1 (a candidate with no victims) has no literal counterpart: a candidate without victims
// means the pod fits, and the cycle binds it instead. The model's counterpart is a preemption
// decision with nothing left to evict: p's victim v is already terminating when q, of higher
// priority, takes the node over. The decision names v, but no job starts and q never enters
// the in-flight set.
TEST(implExecutor, F1NothingLeftToEvictStartsNoJob) {
  World w =
      world_of(scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p", kMid, kLarge),
                                          later(pod("q", kHigh, kLarge))}));
  run(w, "schedule p");
  run(w, "evict p v");
  run(w, "create q");
  observe_all(w);
  ASSERT_TRUE(w.lister(id(w, "v")).terminating);
  const size_t jobs_before = w.jobs().size();
  StepReport r = run(w, "schedule q");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(r.decision.victims, bit(w, "v"));
  EXPECT_EQ(r.decision.to_evict, PodSet{0});
  EXPECT_EQ(w.jobs().size(), jobs_before);
  EXPECT_FALSE(has_pod(w.preempting(), id(w, "q")));
  EXPECT_FALSE(r.gated);
  EXPECT_EQ(w.nominated(id(w, "q")), node_id(w, "node1"));
}

// F2: right after the scheduling cycle (PostFilter's synchronous prologue) the preemptor is
// in the in-flight set and its job exists; at the end the set is empty. In kube-scheduler a
// successful job does not activate the preemptor.
TEST(implExecutor, F2OneVictimKubernetesNoActivationOnSuccess) {
  World w = world_of(one_victim("kubernetes"));
  const PodId p = id(w, "p");
  const PodId v = id(w, "v");
  StepReport r = run(w, "schedule p");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(r.decision.to_evict, pod_bit(v));
  EXPECT_EQ(w.preempting(), pod_bit(p));
  EXPECT_TRUE(r.gated);
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_EQ(w.jobs()[0].preemptor, p);
  EXPECT_EQ(w.jobs()[0].node, node_id(w, "node1"));
  EXPECT_EQ(w.jobs()[0].last, v);
  EXPECT_EQ(w.jobs()[0].pending, PodSet{0});
  EXPECT_EQ(w.jobs()[0].phase, JobPhase::kClear);  // clear-lower=async

  run(w, "clear-nominations p");
  StepReport e = run(w, "evict p v");
  EXPECT_FALSE(e.no_op);
  EXPECT_TRUE(w.api(v).exists);
  EXPECT_TRUE(w.api(v).terminating);
  EXPECT_TRUE(w.api(v).disruption_target);

  StepReport f = run(w, "finish p");
  EXPECT_EQ(w.preempting(), PodSet{0});
  EXPECT_TRUE(w.jobs().empty());
  EXPECT_EQ(f.moved, PodSet{0});
  EXPECT_EQ(w.unschedulable_pool(), pod_bit(p));
  EXPECT_TRUE(w.active_queue().empty());
}

// The same with activate-on-finish=on (reference): finishing moves p to activeQ.
TEST(implExecutor, F2OneVictimReferenceActivatesOnSuccess) {
  World w = world_of(one_victim("reference"));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_EQ(w.jobs()[0].phase, JobPhase::kLast);  // clear-lower=sync: straight to the victim
  run(w, "evict p v");
  StepReport f = run(w, "finish p");
  EXPECT_EQ(w.preempting(), PodSet{0});
  EXPECT_EQ(f.moved, pod_bit(p));
  EXPECT_EQ(w.active_queue(), std::vector<PodId>{p});
  EXPECT_EQ(w.unschedulable_pool(), PodSet{0});
}

// F3: v's graceful deletion already started (p0 preempted it and the informer saw it). p's
// cycle still names v as its victim but makes no API call for it, starts no job and never
// enters the in-flight set.
TEST(implExecutor, F3VictimAlreadyTerminatingMakesNoCall) {
  World w = world_of(scenario({node("node1")},
                              {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge),
                               later(pod("p", kVeryHigh, kLarge))},
                              "kubernetes"));
  run(w, "schedule p0");
  run(w, "clear-nominations p0");
  run(w, "evict p0 v");
  run(w, "finish p0");
  run(w, "create p");
  observe_all(w);
  ASSERT_TRUE(w.lister(id(w, "v")).terminating);
  const PodObj v_before = w.api(id(w, "v"));

  StepReport r = run(w, "schedule p");
  EXPECT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(r.decision.victims, bit(w, "v"));
  EXPECT_EQ(r.decision.to_evict, PodSet{0});
  EXPECT_EQ(job_of(w, "p"), nullptr);
  EXPECT_FALSE(has_pod(w.preempting(), id(w, "p")));
  EXPECT_FALSE(r.gated);
  EXPECT_EQ(w.api(id(w, "v")), v_before);
  // The only API write is p's own nomination.
  ASSERT_EQ(w.events().size(), 1u);
  EXPECT_EQ(w.events()[0].pod, id(w, "p"));
  EXPECT_EQ(w.events()[0].obj.nominated, node_id(w, "node1"));
}

// F4: p (very high) picks v while p0's job is still running; v is gone by the time p's job
// reaches it. The eviction counts as success (NotFound) and, in kube-scheduler, the job's
// end does not activate p.
TEST(implExecutor, F4VictimAlreadyGoneIsSuccessWithoutActivation) {
  World w = world_of(scenario({node("node1")},
                              {pod("v", kLow, kLarge, "node1"), pod("p0", kHigh, kLarge),
                               later(pod("p", kVeryHigh, kLarge))},
                              "kubernetes"));
  run(w, "schedule p0");
  run(w, "create p");
  observe_all(w);
  StepReport rp = run(w, "schedule p");
  ASSERT_EQ(rp.decision.to_evict, bit(w, "v"));
  ASSERT_EQ(w.preempting(), bit(w, "p0") | bit(w, "p"));

  run(w, "clear-nominations p0");
  run(w, "evict p0 v");
  run(w, "terminate v");
  ASSERT_FALSE(w.api(id(w, "v")).exists);

  StepReport c = run(w, "clear-nominations p");
  EXPECT_EQ(c.cleared, bit(w, "p0"));  // p0 is lower priority and nominated to node1
  StepReport e = run(w, "evict p v");
  EXPECT_TRUE(e.no_op);
  StepReport f = run(w, "finish p");
  EXPECT_EQ(f.moved, PodSet{0});
  EXPECT_FALSE(has_pod(w.preempting(), id(w, "p")));
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p")));
}

// F5/F6: the model has one eviction call per victim (PATCH and DELETE together), so a failed
// PATCH and a failed DELETE are the same `evict-fails` step. The job fails, and its end
// activates the preemptor even with activate-on-finish=off.
TEST(implExecutor, F5F6EvictionFailureActivatesEvenInKubernetesProfile) {
  Scenario s = one_victim("kubernetes");
  s.faults.eviction_failures = 1;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  run(w, "clear-nominations p");
  const StepReport e = run(w, "evict-fails p v");
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_TRUE(w.jobs()[0].failed);
  EXPECT_EQ(w.jobs()[0].phase, JobPhase::kFinish);
  EXPECT_EQ(w.eviction_failures_left(), 0);
  EXPECT_FALSE(w.api(id(w, "v")).terminating);
  EXPECT_EQ(e.abandoned, bit(w, "v"));  // v is given up, no longer p's victim

  StepReport f = run(w, "finish p");
  EXPECT_EQ(f.moved, pod_bit(p));
  EXPECT_EQ(w.active_queue(), std::vector<PodId>{p});
  EXPECT_EQ(w.preempting(), PodSet{0});
}

// F7: the first of two victims fails; the last is skipped (#135495) and never evicted.
TEST(implExecutor, F7FirstVictimFailsLastVictimIsSkipped) {
  Scenario s = two_victims("kubernetes");
  s.faults.eviction_failures = 1;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  ASSERT_EQ(w.jobs().size(), 1u);
  ASSERT_EQ(w.jobs()[0].pending, bit(w, "v1"));
  ASSERT_EQ(w.jobs()[0].last, id(w, "v2"));
  const StepReport e = run(w, "evict-fails p v1");
  EXPECT_FALSE(enabled(w, "evict p v2"));
  EXPECT_EQ(w.last_victim(id(w, "p")), kNoPod);         // the job never reached its last victim
  EXPECT_EQ(e.abandoned, bit(w, "v1") | bit(w, "v2"));  // neither victim is still p's
  StepReport f = run(w, "finish p");
  EXPECT_FALSE(w.api(id(w, "v1")).terminating);
  EXPECT_FALSE(w.api(id(w, "v2")).terminating);
  EXPECT_EQ(f.moved, bit(w, "p"));
}

// --- lastVictimsPendingPreemption -------------------------------------------------------------

TEST(implExecutor, LastVictimOfOneVictimIsThatVictim) {
  World w = world_of(one_victim("kubernetes"));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  EXPECT_EQ(w.last_victim(p), kNoPod);  // still clearing nominations
  run(w, "clear-nominations p");
  EXPECT_EQ(w.last_victim(p), id(w, "v"));
  run(w, "evict p v");
  EXPECT_EQ(w.last_victim(p), id(w, "v"));
  run(w, "finish p");
  EXPECT_EQ(w.last_victim(p), kNoPod);
}

// Of two victims the less important (here the later-started) is last, recorded only when
// the job reaches it.
TEST(implExecutor, LastVictimOfTwoIsTheLessImportantRecordedWhenReached) {
  World w = world_of(two_victims("reference"));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_EQ(w.jobs()[0].phase, JobPhase::kEvicting);
  EXPECT_EQ(w.jobs()[0].last, id(w, "v2"));
  EXPECT_EQ(w.last_victim(p), kNoPod);
  EXPECT_FALSE(enabled(w, "evict p v2"));  // the last victim waits for the others
  run(w, "evict p v1");
  EXPECT_EQ(w.jobs()[0].phase, JobPhase::kLast);
  EXPECT_EQ(w.last_victim(p), id(w, "v2"));
}

// Priority decides importance before start time: the earlier-started low pod is last.
TEST(implExecutor, LastVictimIsTheLowerPriorityOneEvenIfStartedFirst) {
  World w = world_of(
      scenario({node("node1")}, {pod("low", kLow, kMedium, "node1"),
                                 pod("mid", kMid, kMedium, "node1"), pod("p", kHigh, kVeryLarge)}));
  run(w, "schedule p");
  ASSERT_EQ(w.jobs().size(), 1u);
  EXPECT_EQ(w.jobs()[0].last, id(w, "low"));
  EXPECT_EQ(w.jobs()[0].pending, bit(w, "mid"));
}

// --- IsPodRunningPreemption, per gate mode -------------------------------------------------------

// Rows of TestIsPodRunningPreemption, per gate mode:
//   row                                   last-victim   release-before-last   hold-until-done
//   not preempting, no entry              false         false                 false
//   not preempting, entry                 unreachable   false                 unreachable
//   preempting, entry only for another    true          true                  true
//   preempting, victim gone from informer false         unreachable           true (by design)
//   preempting, victim present            true          unreachable           true
//   preempting, victim terminating        false         unreachable           true (by design)
// "unreachable": finish clears the set and the entry together, and release-before-last
// leaves the set exactly when it writes the entry.

TEST(implRunningPreemption, RowsWithoutAnEntryInEveryGateMode) {
  for (Gate g : {Gate::kLastVictim, Gate::kReleaseBeforeLast, Gate::kHoldUntilDone}) {
    Scenario s = one_victim("kubernetes");  // clear-lower=async: the job starts clearing
    s.mechanisms.gate = g;
    World w = world_of(std::move(s));
    const PodId p = id(w, "p");
    EXPECT_FALSE(w.is_running_preemption(p));
    run(w, "schedule p");
    ASSERT_EQ(w.last_victim(p), kNoPod);
    EXPECT_TRUE(w.is_running_preemption(p));  // preempting, no entry of its own yet
    run(w, "clear-nominations p");
    run(w, "evict p v");
    run(w, "finish p");
    EXPECT_EQ(w.preempting(), PodSet{0});
    EXPECT_EQ(w.last_victim(p), kNoPod);
    EXPECT_FALSE(w.is_running_preemption(p));
  }
}

TEST(implRunningPreemption, LastVictimGateEntryOnlyForAnotherPodIsTrue) {
  World w = world_of(scenario({node("node1"), node("node2")},
                              {pod("v1", kLow, kLarge, "node1"), pod("v2", kLow, kLarge, "node2"),
                               pod("p1", kHigh, kLarge), pod("p2", kHigh, kLarge)},
                              "kubernetes"));
  StepReport r1 = run(w, "schedule p1");
  EXPECT_EQ(r1.decision.node, node_id(w, "node2"));  // v2 started later (criterion 5)
  StepReport r2 = run(w, "schedule p2");
  EXPECT_EQ(r2.decision.node, node_id(w, "node1"));  // node2 is held by p1's nomination
  run(w, "clear-nominations p1");
  ASSERT_EQ(w.last_victim(id(w, "p1")), id(w, "v2"));
  ASSERT_EQ(w.last_victim(id(w, "p2")), kNoPod);
  ASSERT_TRUE(has_pod(w.preempting(), id(w, "p2")));
  EXPECT_TRUE(w.is_running_preemption(id(w, "p2")));
}

TEST(implRunningPreemption, LastVictimGateFollowsTheInformersViewOfTheLastVictim) {
  World w = world_of(one_victim("kubernetes"));
  const PodId p = id(w, "p");
  const PodId v = id(w, "v");
  run(w, "schedule p");
  run(w, "clear-nominations p");
  ASSERT_EQ(w.last_victim(p), v);
  EXPECT_TRUE(w.is_running_preemption(p));  // victim present

  run(w, "evict p v");
  EXPECT_TRUE(w.is_running_preemption(p));  // deleted in the API, not yet seen
  observe_all(w);
  ASSERT_TRUE(w.lister(v).terminating);
  ASSERT_TRUE(has_pod(w.preempting(), p));
  EXPECT_FALSE(w.is_running_preemption(p));  // victim present with a DeletionTimestamp

  run(w, "terminate v");
  observe_all(w);
  ASSERT_FALSE(w.lister(v).exists);
  ASSERT_TRUE(has_pod(w.preempting(), p));
  ASSERT_EQ(w.last_victim(p), v);
  EXPECT_FALSE(w.is_running_preemption(p));  // victim missing from the informer
}

// gate=release-before-last (kubernetes-1.32): the preemptor leaves the set before the last
// victim's delete, so "not preempting, entry present" is reachable and false. The rows with
// both set membership and an entry cannot be reached in this mode.
TEST(implRunningPreemption, ReleaseBeforeLastGateOpensBeforeTheLastDelete) {
  World w = world_of(one_victim("kubernetes-1.32"));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  EXPECT_TRUE(w.is_running_preemption(p));  // preempting, no entry yet
  run(w, "clear-nominations p");
  EXPECT_FALSE(has_pod(w.preempting(), p));
  EXPECT_EQ(w.last_victim(p), id(w, "v"));
  EXPECT_FALSE(w.api(id(w, "v")).terminating);  // the delete has not even been sent
  EXPECT_FALSE(w.is_running_preemption(p));
}

// gate=hold-until-done: membership alone decides, whatever the informer shows of the last
// victim, until the job ends.
TEST(implRunningPreemption, HoldUntilDoneGateIgnoresTheLastVictim) {
  Scenario s = one_victim("reference");
  s.mechanisms.gate = Gate::kHoldUntilDone;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  run(w, "evict p v");
  observe_all(w);
  ASSERT_TRUE(w.lister(id(w, "v")).terminating);
  EXPECT_TRUE(w.is_running_preemption(p));
  run(w, "terminate v");
  StepReport d = run(w, "observe");
  ASSERT_FALSE(w.lister(id(w, "v")).exists);
  EXPECT_TRUE(w.is_running_preemption(p));
  EXPECT_EQ(d.consumed, pod_bit(p));  // the delete event is used up while p is gated
  run(w, "finish p");
  EXPECT_FALSE(w.is_running_preemption(p));
}

// inflight=off: nothing is ever gated.
TEST(implRunningPreemption, InflightOffNeverGates) {
  Scenario s = one_victim("reference");
  s.mechanisms.inflight = Inflight::kOff;
  World w = world_of(std::move(s));
  StepReport r = run(w, "schedule p");
  EXPECT_EQ(w.jobs().size(), 1u);
  EXPECT_EQ(w.preempting(), PodSet{0});
  EXPECT_FALSE(w.is_running_preemption(id(w, "p")));
  EXPECT_FALSE(r.gated);
  EXPECT_EQ(w.gated(), PodSet{0});
}

// --- The scheduling queue and PreEnqueue --------------------------------------------------------

TEST(implQueue, PreemptorIsGatedOnItsOwnRequeue) {
  World w = world_of(one_victim("kubernetes"));
  StepReport r = run(w, "schedule p");
  EXPECT_TRUE(r.gated);
  EXPECT_EQ(w.gated(), bit(w, "p"));
  EXPECT_EQ(w.unschedulable_pool(), bit(w, "p"));
  EXPECT_TRUE(w.active_queue().empty());
}

TEST(implQueue, FlushLeavesAGatedPreemptorGated) {
  World w = world_of(one_victim("kubernetes"));
  run(w, "schedule p");
  EXPECT_FALSE(enabled(w, "flush"));  // the model flushes only after the informer caught up
  observe_all(w);
  StepReport f = run(w, "flush");
  EXPECT_EQ(f.moved, PodSet{0});
  EXPECT_EQ(w.gated(), bit(w, "p"));
}

// While the last victim is still alive, the deletion of another victim reaches the gated
// preemptor, which stays gated: the event is used up.
TEST(implQueue, DeleteEventWhileGatedIsUsedUp) {
  World w = world_of(two_victims("kubernetes"));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  run(w, "evict p v1");
  run(w, "terminate v1");
  observe_all(w);  // …, v1 terminating, v1 deleted
  ASSERT_FALSE(w.lister(id(w, "v1")).exists);
  EXPECT_TRUE(w.is_running_preemption(id(w, "p")));
  EXPECT_EQ(w.gated(), bit(w, "p"));
  EXPECT_TRUE(w.active_queue().empty());
}

// kube-scheduler's wake-up path after a successful job: the gate opens when the informer
// shows the last victim terminating, and the victim's delete event then moves the preemptor.
TEST(implQueue, LastVictimDeleteEventMovesThePreemptorOnceTheGateIsOpen) {
  World w = world_of(one_victim("kubernetes"));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  run(w, "evict p v");
  run(w, "finish p");
  observe_all(w);
  ASSERT_TRUE(w.active_queue().empty());
  run(w, "terminate v");
  StepReport d = run(w, "observe");
  EXPECT_EQ(d.event.type, EventType::kDeleted);
  EXPECT_EQ(d.moved, bit(w, "p"));
  EXPECT_EQ(d.consumed, PodSet{0});
  // Having failed its cycle, p backs off (backoff=pop-when-idle): backoffQ, popped at once
  // since activeQ is empty.
  EXPECT_TRUE(w.active_queue().empty());
  EXPECT_EQ(w.backoff_queue(), bit(w, "p"));
  EXPECT_TRUE(w.is_enabled(Action{ActionKind::kSchedule, id(w, "p"), kNoPod}));
}

// getLowerPriorityNominatedPods: only strictly lower nominees lose their nomination. p2
// (high, like p1) preempts on p1's node; p1 keeps its claim.
TEST(implQueue, ClearNominationsSparesEqualPriority) {
  World w = world_of(scenario({node("node1", 600)},
                              {pod("v1", kLow, kLarge, "node1"), pod("v2", kLow, kLarge, "node1"),
                               pod("p1", kHigh, kLarge), pod("p2", kHigh, kLarge)},
                              "kubernetes"));
  const PodId p1 = id(w, "p1");
  ASSERT_EQ(run(w, "schedule p1").decision.node, node_id(w, "node1"));
  StepReport r2 = run(w, "schedule p2");
  ASSERT_EQ(r2.decision.node, node_id(w, "node1"));
  StepReport c = run(w, "clear-nominations p2");
  EXPECT_EQ(c.cleared, PodSet{0});
  EXPECT_EQ(w.nominated(p1), node_id(w, "node1"));
  EXPECT_EQ(w.api(p1).nominated, node_id(w, "node1"));
}

// --- The informer ------------------------------------------------------------------------------

TEST(implInformer, EventsAreDeliveredInWriteOrder) {
  World w = world_of(one_victim("reference"));
  const PodId p = id(w, "p");
  const PodId v = id(w, "v");
  run(w, "schedule p");  // writes p's nomination
  run(w, "evict p v");   // writes v's deletion start
  ASSERT_EQ(w.events().size(), 2u);
  EXPECT_EQ(w.events()[0].pod, p);
  EXPECT_EQ(w.events()[1].pod, v);

  StepReport first = run(w, "observe");
  EXPECT_EQ(first.event.pod, p);
  EXPECT_EQ(first.event.type, EventType::kModified);
  EXPECT_EQ(w.lister(p).nominated, node_id(w, "node1"));
  EXPECT_FALSE(w.lister(v).terminating);  // not yet delivered

  StepReport second = run(w, "observe");
  EXPECT_EQ(second.event.pod, v);
  EXPECT_TRUE(w.lister(v).terminating);
  EXPECT_TRUE(w.events().empty());
  EXPECT_FALSE(enabled(w, "observe"));
}

// --- The cache: assume and forget --------------------------------------------------------------

// p binds to node1 and is assumed; q (same priority, so no victims) is rejected because of
// the assumed p. The failed binding makes the cache forget p, which frees node1 and moves q,
// and sends p back to activeQ.
TEST(implCache, BindFailsForgetsTheAssumedPodAndRequeuesIt) {
  Scenario s = scenario({node("node1")}, {pod("p", kLow, kLarge), pod("q", kLow, kLarge)});
  s.faults.binding_failures = 1;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  const PodId q = id(w, "q");
  const NodeId n1 = node_id(w, "node1");
  StepReport rp = run(w, "schedule p");
  ASSERT_EQ(rp.decision.kind, CycleDecision::Kind::kBind);
  EXPECT_EQ(w.assumed(p), n1);
  EXPECT_EQ(w.binding(p), n1);
  EXPECT_EQ(w.cache_pods(n1), pod_bit(p));
  StepReport rq = run(w, "schedule q");
  ASSERT_EQ(rq.decision.kind, CycleDecision::Kind::kNoCandidate);
  ASSERT_EQ(w.unschedulable_pool(), pod_bit(q));

  StepReport f = run(w, "bind-fails p");
  EXPECT_EQ(w.assumed(p), kNoNode);
  EXPECT_EQ(w.binding(p), kNoNode);
  EXPECT_EQ(w.cache_pods(n1), PodSet{0});
  EXPECT_EQ(w.binding_failures_left(), 0);
  EXPECT_EQ(f.moved, pod_bit(p) | pod_bit(q));
  EXPECT_EQ(w.active_queue(), (std::vector<PodId>{q, p}));
  EXPECT_EQ(w.unschedulable_pool(), PodSet{0});
}

// assume=off: the cache does not count a pod whose binding is in flight, so the next cycle
// gives the same space away.
TEST(implCache, WithoutAssumeTheNextCycleDoubleBooks) {
  Scenario s = scenario({node("node1")}, {pod("p", kLow, kLarge), pod("q", kLow, kLarge)});
  s.mechanisms.assume = false;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  EXPECT_EQ(w.assumed(id(w, "p")), kNoNode);
  EXPECT_EQ(w.binding(id(w, "p")), node_id(w, "node1"));
  StepReport rq = run(w, "schedule q");
  EXPECT_EQ(rq.decision.kind, CycleDecision::Kind::kBind);
  EXPECT_EQ(rq.decision.node, node_id(w, "node1"));
}

// A victim whose binding is in flight has no node yet: its deletion is immediate (no
// graceful termination), and its bind then fails and the cache forgets it.
World binding_victim_world(bool forget_deleted = true) {
  Scenario s = scenario({node("node1")}, {pod("v", kLow, kLarge), later(pod("p", kHigh, kLarge))});
  s.mechanisms.forget_deleted = forget_deleted;
  World w = world_of(s);
  run(w, "schedule v");
  run(w, "create p");
  observe_all(w);
  return w;
}

TEST(implCache, VictimInBindingIsDeletedAtOnceAndItsBindFails) {
  World w = binding_victim_world();
  const PodId v = id(w, "v");
  const NodeId n1 = node_id(w, "node1");
  ASSERT_EQ(w.assumed(v), n1);
  StepReport r = run(w, "schedule p");
  ASSERT_EQ(r.decision.to_evict, pod_bit(v));

  StepReport e = run(w, "evict p v");
  EXPECT_FALSE(e.no_op);
  EXPECT_FALSE(w.api(v).exists);
  EXPECT_FALSE(enabled(w, "terminate v"));  // nothing for a kubelet to stop
  ASSERT_FALSE(w.events().empty());
  EXPECT_EQ(w.events().back().type, EventType::kDeleted);
  EXPECT_EQ(w.events().back().pod, v);

  StepReport b = run(w, "bind v");
  EXPECT_TRUE(b.binding_lost);
  EXPECT_EQ(w.binding(v), kNoNode);
  EXPECT_EQ(w.assumed(v), kNoNode);
  EXPECT_EQ(w.cache_pods(n1), PodSet{0});
  EXPECT_EQ(w.api(v).node, kNoNode);
}

// The other order: the informer delivers the deletion first and the cache forgets the pod
// while its binding is still in flight (#134157); the bind then fails.
TEST(implCache, DeletedEventForgetsAPodStillInBinding) {
  World w = binding_victim_world();
  const PodId v = id(w, "v");
  const NodeId n1 = node_id(w, "node1");
  run(w, "schedule p");
  run(w, "evict p v");
  observe_all(w);
  EXPECT_EQ(w.assumed(v), kNoNode);
  EXPECT_EQ(w.binding(v), n1);
  EXPECT_EQ(w.cache_pods(n1), PodSet{0});
  StepReport b = run(w, "bind v");
  EXPECT_TRUE(b.binding_lost);
  EXPECT_EQ(w.binding(v), kNoNode);
}

// forget-deleted=off, before PR #134157: the delete of a pod without a nodeName reaches only
// the queue's handler, so the cache keeps v assumed (its space held) until the bind fails.
TEST(implCache, BeforePR134157TheDeleteLeavesThePodAssumedUntilItsBindFails) {
  World w = binding_victim_world(false);
  const PodId v = id(w, "v");
  const NodeId n1 = node_id(w, "node1");
  run(w, "schedule p");
  run(w, "evict p v");
  observe_all(w);
  EXPECT_FALSE(w.lister(v).exists);
  EXPECT_EQ(w.assumed(v), n1);
  EXPECT_EQ(w.cache_pods(n1), bit_of(w, "v"));
  StepReport b = run(w, "bind v");
  EXPECT_TRUE(b.binding_lost);
  EXPECT_EQ(w.assumed(v), kNoNode);
  EXPECT_EQ(w.cache_pods(n1), PodSet{0});
}

// informer-fifo=per-key (client-go's DeltaFIFO, 1.32): a pod's event written while an earlier
// event of it is pending is delivered right after that one, ahead of other pods' events
// written in between; in-order (RealFIFO) delivers in the order written.
TEST(implInformer, PerKeyDeliversAPodsLaterEventAtItsEarlierPlace) {
  for (const bool per_key : {false, true}) {
    Scenario s =
        scenario({node("node1")}, {later(pod("a", kLow, kSmall)), later(pod("b", kLow, kSmall))});
    s.faults.deletions = 1;
    s.mechanisms.informer_per_key = per_key;
    World w = world_of(s);
    run(w, "create a");
    run(w, "create b");
    run(w, "delete a");  // a is pending: gone at once, a Deleted event
    std::vector<std::pair<PodId, EventType>> order;
    for (const WatchEvent& e : w.events())
      order.emplace_back(e.pod, e.type);
    const PodId a_id = id(w, "a");
    const PodId b_id = id(w, "b");
    const std::vector<std::pair<PodId, EventType>> want =
        per_key ? std::vector<std::pair<PodId, EventType>>{{a_id, EventType::kAdded},
                                                           {a_id, EventType::kDeleted},
                                                           {b_id, EventType::kAdded}}
                : std::vector<std::pair<PodId, EventType>>{{a_id, EventType::kAdded},
                                                           {b_id, EventType::kAdded},
                                                           {a_id, EventType::kDeleted}};
    EXPECT_EQ(order, want) << "per-key " << per_key;
    // Once a's events are delivered, its next one goes to the end again.
    observe_all(w);
    EXPECT_TRUE(w.events().empty());
  }
}

// --- The nominator: stale updates ----------------------------------------------------------------

// node1 (400) runs v (200). p (mid, 300) preempts v; with nomination=async the nominator
// learns that only from the informer, so q (mid, 200) binds into the space at once. p's job
// ends and activates p, whose next cycle finds no room and clears its nomination: the API
// now holds two queued updates of p, "node1" then "none". The first is stale when delivered.
World stale_world(bool ignore_stale) {
  Scenario s = scenario({node("node1", 400)}, {pod("v", kLow, kMedium, "node1"),
                                               pod("p", kMid, kLarge), pod("q", kMid, kMedium)});
  s.mechanisms.nomination = Timing::kAsync;
  s.mechanisms.stale_nominations_ignored = ignore_stale;
  // Under inflight=on p's second cycle would wait for its own victim instead of running.
  s.mechanisms.inflight = Inflight::kPreemptorOnly;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  StepReport rq = run(w, "schedule q");
  EXPECT_EQ(rq.decision.kind, CycleDecision::Kind::kBind);
  run(w, "evict p v");
  run(w, "finish p");
  StepReport rp = run(w, "schedule p");
  EXPECT_EQ(rp.decision.kind, CycleDecision::Kind::kNoCandidate);
  const PodId p = id(w, "p");
  EXPECT_EQ(w.api(p).nominated, kNoNode);
  EXPECT_EQ(w.events().size(), 3u);  // p → node1, v terminating, p → none
  return w;
}

TEST(implNominator, StaleUpdateIsIgnored) {
  World w = stale_world(true);
  const PodId p = id(w, "p");
  StepReport o = run(w, "observe");
  ASSERT_EQ(o.event.pod, p);
  ASSERT_EQ(o.event.obj.nominated, node_id(w, "node1"));
  EXPECT_EQ(w.lister(p).nominated, node_id(w, "node1"));
  EXPECT_EQ(w.nominated(p), kNoNode);
  observe_all(w);
  EXPECT_EQ(w.nominated(p), kNoNode);
}

TEST(implNominator, StaleUpdateIsAppliedInKubernetesMode) {
  World w = stale_world(false);
  const PodId p = id(w, "p");
  run(w, "observe");
  EXPECT_EQ(w.nominated(p), node_id(w, "node1"));  // the old claim is back for a while
  observe_all(w);
  EXPECT_EQ(w.nominated(p), kNoNode);
}

// nomination=sync writes the claim in memory inside the cycle, so the next cycle counts it;
// nomination=async leaves it to the informer.
TEST(implNominator, SyncNominationIsCountedByTheNextCycle) {
  for (Timing t : {Timing::kSync, Timing::kAsync}) {
    Scenario s = scenario({node("node1", 400)}, {pod("v", kLow, kMedium, "node1"),
                                                 pod("p", kMid, kLarge), pod("q", kMid, kMedium)});
    s.mechanisms.nomination = t;
    World w = world_of(std::move(s));
    run(w, "schedule p");
    EXPECT_EQ(w.nominated(id(w, "p")), t == Timing::kSync ? node_id(w, "node1") : kNoNode);
    EXPECT_EQ(w.decide(id(w, "q")).kind,
              t == Timing::kSync ? CycleDecision::Kind::kNoCandidate : CycleDecision::Kind::kBind);
  }
}

// --- The world as a value ---------------------------------------------------------------------

// node1 runs v; node2 is too small for p but fits q. After p's cycle, q's cycle and p's
// eviction are independent.
Scenario two_nodes() {
  Scenario s = scenario({node("node1"), node("node2", kMedium)},
                        {pod("v", kLow, kLarge, "node1"), pod("p", kHigh, kLarge),
                         pod("q", kLow, kMedium), later(pod("r", kLow, kSmall))});
  s.faults.eviction_failures = 1;
  s.faults.binding_failures = 1;
  return s;
}

TEST(implWorld, EqualWorldsHaveEqualFingerprints) {
  World a = world_of(two_nodes());
  World b = world_of(two_nodes());  // a separate Cluster with the same content
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  World c = a;
  EXPECT_EQ(c, a);
  EXPECT_EQ(c.fingerprint(), a.fingerprint());
}

TEST(implWorld, AStepChangesTheFingerprint) {
  World a = world_of(two_nodes());
  World b = a;
  run(b, "schedule p");
  EXPECT_NE(b.fingerprint(), a.fingerprint());
  EXPECT_FALSE(b == a);
}

TEST(implWorld, IndependentStepsCommuteToTheSameWorld) {
  World base = world_of(two_nodes());
  run(base, "schedule p");
  World x = base;
  run(x, "schedule q");
  World y = base;
  run(y, "evict p v");
  EXPECT_NE(x.fingerprint(), y.fingerprint());
  run(x, "evict p v");
  run(y, "schedule q");
  EXPECT_EQ(x, y);
  EXPECT_EQ(x.fingerprint(), y.fingerprint());
  EXPECT_EQ(x.binding(id(x, "q")), node_id(x, "node2"));
}

TEST(implWorld, EnabledActionsComeInAFixedOrder) {
  World w = world_of(two_nodes());
  EXPECT_EQ(enabled_lines(w), (std::vector<std::string>{"schedule p", "create r"}));
  run(w, "schedule p");
  run(w, "schedule q");
  const std::vector<std::string> expected = {"bind q",          "bind-fails q", "evict p v",
                                             "evict-fails p v", "observe",      "create r"};
  EXPECT_EQ(enabled_lines(w), expected);
  // The same state reached again lists the same actions in the same order.
  World again = world_of(two_nodes());
  run(again, "schedule p");
  run(again, "schedule q");
  EXPECT_EQ(enabled_lines(again), expected);
}

// evaluateNominatedNode: a pod is tried on its nominated node before the others. Once x's
// failed binding frees node1, node1 and p's nominated node2 both fit p; p takes node2.
TEST(implWorld, NominatedNodeIsTriedFirst) {
  Scenario s = scenario(
      {node("node1", kLarge), node("node2")},
      {pod("x", kVeryHigh, kLarge), pod("v", kLow, kLarge, "node2"), pod("p", kHigh, kLarge)});
  s.faults.binding_failures = 1;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  ASSERT_EQ(run(w, "schedule x").decision.node, node_id(w, "node1"));
  ASSERT_EQ(run(w, "schedule p").decision.node, node_id(w, "node2"));
  run(w, "evict p v");
  run(w, "terminate v");
  observe_all(w);
  run(w, "bind-fails x");
  ASSERT_EQ(w.lister(p).nominated, node_id(w, "node2"));
  ASSERT_TRUE(w.fits(p, node_id(w, "node1"), 0));
  CycleDecision d = w.decide(p);
  EXPECT_EQ(d.kind, CycleDecision::Kind::kBind);
  EXPECT_EQ(d.node, node_id(w, "node2"));
}

TEST(implWorld, DecideChangesNothing) {
  World w = world_of(two_nodes());
  const World before = w;
  CycleDecision d = w.decide(id(w, "p"));
  EXPECT_EQ(d.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(d.node, node_id(w, "node1"));
  EXPECT_EQ(d.victims, bit(w, "v"));
  EXPECT_EQ(w, before);
}

// --- Released space wakes the pods it held back (wake-on-release) --------------------------------

// scenarios/nomination-released.yaml: p-small is rejected only because p-big's nomination
// covers the node. p-urgent takes 1 cpu, p-big no longer fits and its nomination is dropped:
// with wake-on-release that moves p-small; kube-scheduler has no such event.
TEST(implWakeOnRelease, DroppedNominationMovesThePodsItHeldBack) {
  for (const bool wake : {true, false}) {
    SCOPED_TRACE(wake ? "wake-on-release=on" : "wake-on-release=off");
    Scenario s = scenario({node("node-a", 300)},
                          {pod("victim", 0, 100, "node-a"), pod("p-big", 50, 300),
                           pod("p-small", 50, 100), later(pod("p-urgent", 100, 100))});
    s.mechanisms.wake_on_release = wake;
    World w = world_of(std::move(s));
    run(w, "schedule p-big");
    run(w, "evict p-big victim");
    run(w, "finish p-big");
    observe_all(w);
    run(w, "terminate victim");
    observe_all(w);
    ASSERT_EQ(run(w, "schedule p-small").decision.kind, CycleDecision::Kind::kNoCandidate);
    run(w, "create p-urgent");
    observe_all(w);
    ASSERT_EQ(run(w, "schedule p-urgent").decision.kind, CycleDecision::Kind::kBind);
    StepReport r = run(w, "schedule p-big");
    ASSERT_EQ(r.decision.kind, CycleDecision::Kind::kNoCandidate);
    EXPECT_EQ(w.nominated(id(w, "p-big")), kNoNode);
    EXPECT_EQ(r.moved, wake ? bit(w, "p-small") : PodSet{0});
    EXPECT_EQ(has_pod(w.unschedulable_pool(), id(w, "p-small")), !wake);
  }
}

// A failed eviction gives its victims back (inflight=on kept them from everyone else): p3,
// rejected while p2 was p1's, may now preempt it.
TEST(implWakeOnRelease, FailedEvictionMovesThePodsItHeldBack) {
  for (const bool wake : {true, false}) {
    SCOPED_TRACE(wake ? "wake-on-release=on" : "wake-on-release=off");
    Scenario s = scenario({node("n1", 300)},
                          {later(pod("p1", 1, 200)), pod("p2", 0, 100), pod("p3", 1, 100)});
    s.faults.eviction_failures = 1;
    s.faults.binding_failures = 1;
    s.mechanisms.wake_on_release = wake;
    World w = world_of(std::move(s));
    run(w, "schedule p3");
    run(w, "schedule p2");
    run(w, "bind p2");
    run(w, "observe");
    run(w, "create p1");
    run(w, "observe");
    ASSERT_EQ(run(w, "schedule p1").decision.kind, CycleDecision::Kind::kPreempt);
    run(w, "bind-fails p3");
    ASSERT_EQ(run(w, "schedule p3").decision.kind, CycleDecision::Kind::kNoCandidate);
    ASSERT_EQ(w.inflight_victims_except(id(w, "p3")), bit(w, "p2"));
    StepReport r = run(w, "evict-fails p1 p2");
    EXPECT_EQ(w.inflight_victims_except(id(w, "p3")), PodSet{0});
    EXPECT_EQ(has_pod(r.moved, id(w, "p3")), wake);
  }
}

// --- Nominations end with their pod -------------------------------------------------------------

// p2 is evicted while its binding is in flight, so it is deleted at once, but the scheduler
// still has it in activeQ (the delete event is not delivered yet) and runs its cycle: the
// status patch of the preemption it decides finds no pod (spec's ledger test shows that
// it leaves no standing nomination either).
TEST(implWorld, DeletedPodIsNotPatched) {
  Scenario s = scenario(
      {node("n1", 200), node("n2", 300)},
      {pod("v1", 0, 100, "n1"), pod("p1", 0, 100), pod("p2", 1, 200), later(pod("p3", 2, 300))});
  s.faults.binding_failures = 1;
  World w = world_of(std::move(s));
  const PodId p2 = id(w, "p2");
  ASSERT_EQ(run(w, "schedule p2").decision.node, node_id(w, "n2"));
  run(w, "create p3");
  run(w, "observe");
  ASSERT_EQ(run(w, "schedule p3").decision.victims, pod_bit(p2));
  run(w, "bind-fails p2");
  EXPECT_EQ(run(w, "evict p3 p2").deleted, pod_bit(p2));
  ASSERT_FALSE(w.api(p2).exists);
  const size_t events_before = w.events().size();
  StepReport r = run(w, "schedule p2");
  ASSERT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(r.decision.node, node_id(w, "n1"));
  EXPECT_EQ(w.events().size(), events_before);  // no patch of a pod that is gone
}

}  // namespace
}  // namespace preemptcheck
