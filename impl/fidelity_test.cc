// kube-scheduler's details that can change a verdict (SPEC §2.4): the backoff queue and
// SchedulerPopFromBackoffQ, status patches diffed against the scheduler's own copy of a pod,
// requests sent before a restart that land after it, and the in-flight pod's own update.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "impl/test_support.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// node1 runs v1 and v2 (low, 200 each); p (500) needs both gone.
Scenario two_victims(Backoff backoff) {
  Scenario s = scenario({node("node1")},
                        {pod("v1", kLow, kMedium, "node1"), pod("v2", kLow, kMedium, "node1"),
                         pod("p", kHigh, kVeryLarge)},
                        "kubernetes");
  s.mechanisms.backoff = backoff;
  return s;
}

// p's job has evicted v1 and ended; the informer shows v1 terminating, v2 not yet: p is still
// running preemption (gate=last-victim), held at the gate.
World first_victim_gone(Backoff backoff) {
  World w = world_of(two_victims(backoff));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  run(w, "clear-nominations p");
  const JobList& jobs = w.jobs();
  EXPECT_EQ(jobs.size(), 1u);
  const PodId first = *pods_in(jobs[0].pending).begin();
  run(w, fmt::format("evict p {}", w.cluster().pod_name(first)));
  observe_all(w);
  run(w, fmt::format("terminate {}", w.cluster().pod_name(first)));
  EXPECT_TRUE(has_pod(w.gated(), p));
  EXPECT_TRUE(w.is_running_preemption(p));
  return w;
}

TEST(implBackoff, PopWhenIdleRunsPreEnqueueOnTheWayInAndUsesTheEventUp) {
  // moveToBackoffQ runs PreEnqueue with SchedulerPopFromBackoffQ on
  // (scheduling_queue.go@003b4460 L689-697): the gated preemptor stays in the pool.
  World w = first_victim_gone(Backoff::kPopWhenIdle);
  const StepReport r = run(w, "observe");  // the first victim's delete
  EXPECT_EQ(r.event.type, EventType::kDeleted);
  EXPECT_EQ(r.consumed, bit_of(w, "p"));
  EXPECT_EQ(w.backoff_queue(), PodSet{0});
  EXPECT_TRUE(has_pod(w.gated(), id(w, "p")));
}

TEST(implBackoff, ExpiryOnlyLetsTheGatedPodIntoBackoffQAndGatesItAtExpiry) {
  // With the gate off nothing runs PreEnqueue on the way in: the event moves the preemptor to
  // backoffQ, and PreEnqueue meets it when its backoff expires (L925-938, L643-661).
  World w = first_victim_gone(Backoff::kExpiryOnly);
  const StepReport r = run(w, "observe");
  EXPECT_EQ(r.consumed, PodSet{0});
  EXPECT_EQ(r.backed_off, bit_of(w, "p"));
  EXPECT_EQ(w.backoff_queue(), bit_of(w, "p"));
  EXPECT_FALSE(enabled(w, "schedule p"));  // expiry-only: Pop never takes it early
  run(w, "backoff-expires p");
  EXPECT_TRUE(has_pod(w.gated(), id(w, "p")));  // still running preemption: gated again
  EXPECT_TRUE(w.active_queue().empty());
}

TEST(implBackoff, AMovedPodBacksOffAndIsPoppedOnlyWhenActiveQIsEmpty) {
  Scenario s = scenario(
      {node("node1")},
      {pod("v", kLow, kLarge, "node1"), pod("p", kHigh, kLarge), later(pod("q", kMid, kSmall))},
      "kubernetes");
  World w = world_of(std::move(s));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  run(w, "evict p v");
  run(w, "finish p");
  observe_all(w);
  run(w, "terminate v");
  const StepReport r = run(w, "observe");  // v deleted: p moves, backing off
  EXPECT_EQ(r.backed_off, bit_of(w, "p"));
  EXPECT_EQ(w.backoff_queue(), bit_of(w, "p"));
  EXPECT_TRUE(enabled(w, "schedule p"));  // activeQ is empty: Pop takes it early
  EXPECT_FALSE(w.is_quiescent());         // its backoff will expire
  run(w, "create q");
  run(w, "observe");  // q added, to activeQ
  EXPECT_FALSE(enabled(w, "schedule p"));
  EXPECT_NE(w.why_not_enabled(parse_action("schedule p", w.cluster()).value())
                .find("in backoffQ, popped only when activeQ is empty"),
            std::string::npos);
  EXPECT_TRUE(enabled(w, "backoff-expires p"));
  run(w, "backoff-expires p");
  EXPECT_EQ(w.active_queue().front(), id(w, "p"));  // by priority, ahead of q
}

TEST(implBackoff, AFailedBindingWaitsInTheErrorQueueThatPopNeverTakes) {
  Scenario s = scenario({node("node1")}, {pod("p", kHigh, kSmall)}, "kubernetes");
  s.faults.binding_failures = 1;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  const StepReport r = run(w, "bind-fails p");
  EXPECT_EQ(r.backed_off, bit_of(w, "p"));
  EXPECT_EQ(w.error_backoff(), bit_of(w, "p"));
  EXPECT_FALSE(enabled(w, "schedule p"));
  run(w, "backoff-expires p");
  EXPECT_TRUE(enabled(w, "schedule p"));
  EXPECT_EQ(w.error_backoff(), PodSet{0});
}

TEST(implBackoff, NoneKeepsTheModelWithoutABackoffQueue) {
  Scenario s = scenario({node("node1")}, {pod("p", kHigh, kSmall)}, "kubernetes");
  s.faults.binding_failures = 1;
  s.mechanisms.backoff = Backoff::kNone;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  run(w, "bind-fails p");
  EXPECT_EQ(w.backoff_queue(), PodSet{0});
  EXPECT_EQ(w.active_queue(), std::vector<PodId>{id(w, "p")});
}

// p (mid) preempts v on node1 and is nominated there; before the informer delivers p's own
// patch, h (high) preempts on node1 too and its job clears the lower nominations.
World takeover_before_the_patch_is_seen(bool view) {
  Scenario s = scenario(
      {node("node1", kLarge)},
      {pod("v", kLow, kLarge, "node1"), pod("p", kMid, kLarge), later(pod("h", kHigh, kLarge))},
      "kubernetes");
  s.mechanisms.patch_diff_view = view;
  World w = world_of(std::move(s));
  run(w, "create h");
  run(w, "schedule p");  // events: h added, then p's nominatedNodeName
  run(w, "observe");     // h added, to activeQ; p's patch not yet seen
  EXPECT_EQ(w.lister(id(w, "p")).nominated, kNoNode);
  EXPECT_EQ(w.api(id(w, "p")).nominated, node_id(w, "node1"));
  run(w, "schedule h");
  return w;
}

TEST(implPatchDiff, ViewSkipsANomineeWhoseCopyShowsNoNomination) {
  // executor.go@e642ef00 L433-435: the nominator's copy of p shows no nominatedNodeName yet.
  World w = takeover_before_the_patch_is_seen(true);
  const StepReport r = run(w, "clear-nominations h");
  EXPECT_EQ(r.cleared, PodSet{0});
  EXPECT_EQ(w.api(id(w, "p")).nominated, node_id(w, "node1"));
  EXPECT_EQ(w.nominated(id(w, "p")), node_id(w, "node1"));
}

TEST(implPatchDiff, TruthClearsItFromTheApiServersValue) {
  World w = takeover_before_the_patch_is_seen(false);
  const StepReport r = run(w, "clear-nominations h");
  EXPECT_EQ(r.cleared, bit_of(w, "p"));
  EXPECT_EQ(w.api(id(w, "p")).nominated, kNoNode);
}

TEST(implPatchDiff, TheCopyIsTheInformersUntilTheClearIsDelivered) {
  // updatePod's nnnNeedsUpdate (schedule_one.go@4a37f009 L1123-1126) compares the scheduler's
  // copy: after h's job clears p's nomination in the API server, p's copy still shows node1
  // until the informer delivers the clear, and a cycle of p re-nominating node1 meanwhile
  // would send no PATCH (SPEC §2.4).
  World w = takeover_before_the_patch_is_seen(true);
  observe_all(w);  // p's nomination seen; h nominated
  const PodId p = id(w, "p");
  run(w, "clear-nominations h");
  EXPECT_EQ(w.api(p).nominated, kNoNode);
  EXPECT_EQ(w.view_nominated(p), node_id(w, "node1"));
  observe_all(w);
  EXPECT_EQ(w.view_nominated(p), kNoNode);
  EXPECT_EQ(w.nominated(p), kNoNode);  // UpdateNominatedPod follows the informer
}

TEST(implLateRequests, ABindingSentBeforeARestartLandsAfterTheRelist) {
  Scenario s = scenario({node("node1")}, {pod("p", kHigh, kSmall)}, "kubernetes");
  s.faults.restarts = 1;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  run(w, "restart");
  EXPECT_EQ(w.binding(p), kNoNode);
  EXPECT_EQ(w.late_binding(p), node_id(w, "node1"));
  EXPECT_EQ(w.active_queue(), std::vector<PodId>{p});  // relisted pending
  run(w, "late-bind p");
  EXPECT_EQ(w.api(p).node, node_id(w, "node1"));
  run(w, "observe");  // the binding event takes p out of the new queue
  EXPECT_TRUE(w.active_queue().empty());
  EXPECT_TRUE(w.is_quiescent());
}

TEST(implLateRequests, ALateBindingOfAPodBoundMeanwhileIsRefused) {
  Scenario s = scenario({node("node1")}, {pod("p", kHigh, kSmall)}, "kubernetes");
  s.faults.restarts = 1;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  run(w, "restart");
  run(w, "schedule p");
  run(w, "bind p");  // the new process's own binding lands first
  const StepReport r = run(w, "late-bind p");
  EXPECT_TRUE(r.binding_lost);
  EXPECT_EQ(w.late_binding(p), kNoNode);
}

TEST(implLateRequests, AnEvictionUnderWayMayLandAfterTheRelistOrNever) {
  Scenario s = two_victims(Backoff::kNone);
  s.faults.restarts = 1;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  const PodSet pending = w.jobs()[0].pending;
  const StepReport r = run(w, "restart");
  EXPECT_EQ(w.late_evictions(), pending);
  EXPECT_EQ(r.abandoned & pending, pending);  // the scheduler gave them up
  const PodId v = *pods_in(pending).begin();
  // Never landing is a settled world as far as the requests go; landing is an eviction.
  run(w, fmt::format("late-evict {}", w.cluster().pod_name(v)));
  EXPECT_TRUE(w.api(v).terminating);
  EXPECT_TRUE(w.api(v).disruption_target);
  EXPECT_EQ(w.late_evictions(), PodSet{0});
}

TEST(implInFlight, ThePodsOwnUpdateSkipsTheNominatorWhileItIsInFlight) {
  // scheduling_queue.go@003b4460 L1035-1039: Update of a pod in flight returns before
  // UpdateNominatedPod. With nomination=async the nominator learns p's nomination only from
  // that update, so while p is in flight it keeps none.
  Scenario s = scenario(
      {node("node1", kLarge)},
      {pod("v", kLow, kLarge, "node1"), pod("q", kLow, kLarge), later(pod("p", kHigh, kLarge))},
      "kubernetes");
  s.mechanisms.cycle = Cycle::kSplit;
  s.mechanisms.nomination = Timing::kAsync;
  s.mechanisms.inflight = Inflight::kOff;
  s.mechanisms.backoff = Backoff::kNone;
  World w = world_of(std::move(s));
  const PodId p = id(w, "p");
  run(w, "schedule q");
  run(w, "cycle-end q");  // q: no candidate, to the pool
  run(w, "create p");
  run(w, "observe");
  run(w, "schedule p");   // p in flight: preempts v
  run(w, "flush");        // a wildcard event recorded for p
  run(w, "cycle-end p");  // nominated to node1 in the API; requeued by the recorded event
  ASSERT_EQ(w.active_queue().front(), p);
  run(w, "schedule p");  // in flight again before its own patch is seen
  const StepReport r = run(w, "observe");
  ASSERT_EQ(r.event.pod, p);
  EXPECT_EQ(w.lister(p).nominated, node_id(w, "node1"));
  EXPECT_EQ(w.nominated(p), kNoNode);
}

}  // namespace
}  // namespace preemptcheck
