// The API dispatcher (api-calls=dispatched, SPEC §2.5): one test per rule of
// pkg/scheduler/backend/api_dispatcher/call_queue.go@324d94f5 that the model keeps; each
// fails when its rule is taken out of impl/dispatcher.cc or its callers.
#include <gtest/gtest.h>

#include "impl/test_support.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// node1 runs v (low); p (mid) needs v gone; h (high) may arrive later.
Scenario one_victim(std::string_view profile_name) {
  return scenario(
      {node("node1", kLarge)},
      {pod("v", kLow, kLarge, "node1"), pod("p", kMid, kLarge), later(pod("h", kHigh, kLarge))},
      profile_name);
}

TEST(implDispatcher, ThePodIsRequeuedBeforeItsPatchIsSentWhichIsAStepOfItsOwn) {
  // handleSchedulingFailure re-queues the pod (S1n L1088) and only then queues its patch
  // (L1110); the dispatcher sends it later, on a goroutine of its own.
  World w = world_of(one_victim("kubernetes-1.35"));
  const PodId p = id(w, "p");
  run(w, "schedule p");
  EXPECT_TRUE(has_pod(w.gated(), p));  // back in the queue, held at the gate
  EXPECT_EQ(w.api(p).nominated, kNoNode);
  EXPECT_EQ(w.queued_patches(), bit_of(w, "p"));
  EXPECT_EQ(w.queued_patch(p), node_id(w, "node1"));
  EXPECT_TRUE(enabled(w, "status-patch p"));
  const StepReport r = run(w, "status-patch p");
  EXPECT_FALSE(r.no_op);
  EXPECT_EQ(w.api(p).nominated, node_id(w, "node1"));
  EXPECT_EQ(w.events().back().pod, p);
  EXPECT_EQ(w.queued_patches(), PodSet{0});
  EXPECT_FALSE(enabled(w, "status-patch p"));

  // api-calls=direct (kubernetes): the failure handler sends the patch itself.
  World d = world_of(one_victim("kubernetes"));
  run(d, "schedule p");
  EXPECT_EQ(d.api(p).nominated, node_id(d, "node1"));
  EXPECT_EQ(d.queued_patches(), PodSet{0});
  EXPECT_FALSE(enabled(d, "status-patch p"));
}

// p's preemption of v has run to the end, v is gone and the informer has delivered it all;
// p's own patch is still queued.
World victim_gone_patch_queued() {
  World w = world_of(one_victim("kubernetes-1.35"));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  run(w, "evict p v");
  run(w, "finish p");
  observe_all(w);
  run(w, "terminate v");
  observe_all(w);
  return w;
}

TEST(implDispatcher, ABindingOverwritesAQueuedStatusPatch) {
  // A call of another type and higher relevance takes the slot of a queued one (CQ
  // L131–134; binding 2 > status patch 1, AC L34–35): p's nomination is never written.
  World w = victim_gone_patch_queued();
  const PodId p = id(w, "p");
  EXPECT_EQ(w.queued_patches(), bit_of(w, "p"));
  run(w, "schedule p");
  EXPECT_EQ(w.binding(p), node_id(w, "node1"));
  EXPECT_EQ(w.queued_patches(), PodSet{0});
  EXPECT_FALSE(enabled(w, "status-patch p"));
  run(w, "bind p");
  EXPECT_EQ(w.api(p).node, node_id(w, "node1"));
  EXPECT_EQ(w.api(p).nominated, kNoNode);
}

TEST(implDispatcher, TheExecutorsClearIsNotSkippedAndItsNoOpCancelsTheNomineesQueuedPatch) {
  // h takes node1 over while p's own patch is still queued. The executor's clear goes to the
  // dispatcher with no "already empty" skip (EX L426–431; the skip is the synchronous
  // branch's, L433–435); made from p's copy, which shows no nomination, it is a no-op (PSP
  // IsNoOp L193–204), and a no-op removes the pending call (CQ L162–170, L208–219).
  World w = world_of(one_victim("kubernetes-1.35"));
  const PodId p = id(w, "p");
  run(w, "create h");
  run(w, "schedule p");
  run(w, "observe");  // h added
  run(w, "schedule h");
  EXPECT_EQ(w.queued_patches(), bit_of(w, "h") | bit_of(w, "p"));
  const StepReport r = run(w, "clear-nominations h");
  EXPECT_EQ(r.cleared, bit_of(w, "p"));
  EXPECT_EQ(w.queued_patches(), bit_of(w, "h"));
  EXPECT_EQ(w.api(p).nominated, kNoNode);

  // api-calls=direct (kubernetes): the job skips p, whose copy shows no nomination, and p's
  // own patch has already set it in the API.
  World d = world_of(one_victim("kubernetes"));
  run(d, "create h");
  run(d, "schedule p");
  run(d, "observe");
  run(d, "schedule h");
  EXPECT_EQ(run(d, "clear-nominations h").cleared, PodSet{0});
  EXPECT_EQ(d.api(p).nominated, node_id(d, "node1"));
}

// node1 runs v1 and v2 (low); p (mid) needs both gone; node2, which arrives later, runs w,
// of still lower priority.
Scenario two_victims() {
  Scenario s = scenario({node("node1", kVeryLarge), node("node2", kVeryLarge)},
                        {pod("v1", kLow, kMedium, "node1"), pod("v2", kLow, kLarge, "node1"),
                         pod("w", kNeg, kVeryLarge, "node2"), pod("p", kMid, kVeryLarge)},
                        "kubernetes-1.35");
  s.nodes[1].arrives_later = true;
  return s;
}

// p's job has evicted both victims and ended, and v1 is gone; its events are still queued.
World job_done_first_victim_gone() {
  World w = world_of(two_victims());
  run(w, "schedule p");
  run(w, "clear-nominations p");
  run(w, "evict p v1");
  run(w, "evict p v2");  // the last victim
  run(w, "finish p");
  run(w, "terminate v1");
  return w;
}

TEST(implDispatcher, AnUpdateThatMakesTheQueuedPatchANoOpRemovesIt) {
  // SyncObject on every update of the pod (EH L313–317; CQ L305–324): the queued patch's
  // snapshot is refreshed (PSP L132–135) and a call that is now a no-op is removed
  // (CQ L316–321). p's first patch is sent after its victims' events; v1's deletion
  // re-admits p, whose second cycle, on a copy that has not seen the first patch, queues the
  // same nomination again; the first patch's event makes it a no-op.
  World w = job_done_first_victim_gone();
  const PodId p = id(w, "p");
  run(w, "status-patch p");  // its event after the victims'
  run(w, "observe");         // v1 terminating
  run(w, "observe");         // v2 terminating
  run(w, "observe");         // v1 deleted: p moves to backoffQ
  run(w, "schedule p");      // v2 still there: p preempts again, nothing left to evict
  EXPECT_EQ(w.lister(p).nominated, kNoNode);
  EXPECT_EQ(w.queued_patches(), bit_of(w, "p"));
  EXPECT_EQ(w.queued_patch(p), node_id(w, "node1"));
  run(w, "observe");  // p's first patch
  EXPECT_EQ(w.lister(p).nominated, node_id(w, "node1"));
  EXPECT_EQ(w.queued_patches(), PodSet{0});
}

TEST(implDispatcher, ANewerPatchMergesWithAQueuedOneAndTheNewestNominationWins) {
  // Two patches of one pod merge (CQ L138, L144); the newer call's nominatedNodeName wins
  // (PSP Merge L152–159). p's first patch (node1) is still queued when v1's deletion
  // re-admits it; node2 has arrived, and p's second cycle prefers it (w's lower priority).
  World w = job_done_first_victim_gone();
  const PodId p = id(w, "p");
  EXPECT_EQ(w.queued_patch(p), node_id(w, "node1"));
  run(w, "create-node node2");
  observe_all(w);
  run(w, "schedule p");
  EXPECT_EQ(w.queued_patches(), bit_of(w, "p"));
  EXPECT_EQ(w.queued_patch(p), node_id(w, "node2"));
  run(w, "status-patch p");
  EXPECT_EQ(w.api(p).nominated, node_id(w, "node2"));
}

TEST(implDispatcher, ARestartLosesTheQueuedCalls) {
  // The dispatcher's queue is the process's memory (CQ L86–93).
  Scenario s = one_victim("kubernetes-1.35");
  s.faults.restarts = 1;
  World w = world_of(std::move(s));
  run(w, "schedule p");
  EXPECT_EQ(w.queued_patches(), bit_of(w, "p"));
  run(w, "restart");
  EXPECT_EQ(w.queued_patches(), PodSet{0});
  EXPECT_EQ(w.api(id(w, "p")).nominated, kNoNode);
}

}  // namespace
}  // namespace preemptcheck
