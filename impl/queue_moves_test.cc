// Queue-move tests: kube-scheduler's move on a nomination change (PR #129058,
// pkg/scheduler/eventhandlers.go@00cd67b7742e5af43e2eb841fde28de797344ed0 L334-338, L361-375,
// L378-383) in the `kubernetes` profile, where wake-on-release is off: a pod held back only
// by a nomination moves when the informer delivers that nomination's clear, and only pods of
// lower or equal priority move.
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/action.h"
#include "impl/test_support.h"
#include "impl/world.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// scenarios/nomination-released.yaml plus p-huge (60), which can never fit: p-big (50)
// claims the whole node by preempting `victim`; p-small (50) is rejected only because of that
// claim; p-urgent (100) takes a cpu, p-big finds no room and its nomination is cleared.
World released() {
  Scenario s = scenario({node("node-a", 3)},
                        {pod("victim", 0, 1, "node-a"), pod("p-huge", 60, 4), pod("p-big", 50, 3),
                         pod("p-small", 50, 1), later(pod("p-urgent", 100, 1))},
                        "kubernetes");
  // These tests follow which pods a move takes, not their backoff after it.
  s.mechanisms.backoff = Backoff::kNone;
  return world_of(std::move(s));
}

// Runs the schedule up to the informer's delivery of p-big's cleared nomination, and
// returns that delivery's report.
StepReport deliver_the_clear(World& w) {
  for (std::string_view line :
       {"schedule p-huge", "schedule p-big", "clear-nominations p-big", "evict p-big victim",
        "finish p-big", "observe", "observe", "terminate victim", "observe", "schedule p-huge",
        "schedule p-small", "create p-urgent", "observe", "schedule p-urgent", "schedule p-big",
        "bind p-urgent"}) {
    run(w, line);
  }
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p-small")));
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p-huge")));
  EXPECT_EQ(w.api(id(w, "p-big")).nominated, kNoNode);
  EXPECT_NE(w.lister(id(w, "p-big")).nominated, kNoNode);
  return run(w, "observe");  // p-big updated: no nomination
}

TEST(implQueueMoves, ClearedNominationMovesLowerOrEqualPriorityPodsUnderKubernetes) {
  World w = released();
  ASSERT_FALSE(w.mechanisms().wake_on_release);
  const StepReport r = deliver_the_clear(w);
  EXPECT_TRUE(has_pod(r.moved, id(w, "p-small")));
  EXPECT_FALSE(has_pod(w.unschedulable_pool(), id(w, "p-small")));
  // p-huge (60) is above p-big (50): getLEPriorityPreCheck leaves it in the pool.
  EXPECT_FALSE(has_pod(r.moved, id(w, "p-huge")));
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p-huge")));
}

TEST(implQueueMoves, ANominationFirstSetMovesNothing) {
  World w = released();
  run(w, "schedule p-huge");
  run(w, "schedule p-big");
  run(w, "schedule p-small");  // rejected beside p-big's in-memory nomination
  ASSERT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p-small")));
  const StepReport r = run(w, "observe");  // p-big updated: nominated to node-a ("" -> N)
  EXPECT_EQ(r.moved, PodSet{0});
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "p-small")));
}

// activeQ orders pods of one priority by their queue timestamps, refreshed at each failure
// (PrioritySort's Less, pkg/scheduler/framework/plugins/queuesort/priority_sort.go@
// 008b3652959ca58af8be3fb5b6ecfe9ae7638282 L44-47; scheduling_queue.go@
// 003b4460edb52bc9a9fe6cf54294e5b3e4681610 L893), not by pod order or by when they entered
// activeQ: b failed before a, so the flush puts b first although a comes first in the
// scenario and the flush walks the pool in pod order.
TEST(implQueueOrder, PodsOfOnePriorityLeaveThePoolInTheOrderOfTheirLastFailure) {
  Scenario s =
      scenario({node("node-a", 3)}, {pod("filler", 100, 2, "node-a"), pod("x", 100, 1, "node-a"),
                                     pod("a", 50, 2), pod("b", 50, 2)});
  s.faults.deletions = 1;
  World w = world_of(std::move(s));
  ASSERT_EQ(w.mechanisms().backoff, Backoff::kNone);
  ASSERT_EQ(w.active_queue().size(), 2u);
  EXPECT_EQ(w.active_queue()[0], id(w, "a"));  // added first, so older
  run(w, "schedule a");                        // nothing to preempt: a waits in the pool
  run(w, "delete x");                          // graceful: x is terminating, then gone
  run(w, "terminate x");
  observe_all(w);  // x's delete event moves a back, behind b, whose timestamp is older
  ASSERT_EQ(w.active_queue().size(), 2u);
  EXPECT_EQ(w.active_queue()[0], id(w, "b"));
  run(w, "schedule b");  // 1 cpu free: b fails, and its timestamp is refreshed
  run(w, "schedule a");  // then a's
  ASSERT_TRUE(has_pod(w.unschedulable_pool(), id(w, "a")));
  ASSERT_TRUE(has_pod(w.unschedulable_pool(), id(w, "b")));
  EXPECT_LT(w.queue_stamp(id(w, "b")), w.queue_stamp(id(w, "a")));
  run(w, "flush");
  ASSERT_EQ(w.active_queue().size(), 2u);
  EXPECT_EQ(w.active_queue()[0], id(w, "b"));
  EXPECT_EQ(w.active_queue()[1], id(w, "a"));
  run(w, "schedule b");  // fails again: b's timestamp is the newest once more
  EXPECT_EQ(w.queue_stamp(id(w, "a")), 0);
  EXPECT_EQ(w.queue_stamp(id(w, "b")), 1);
  // A pod in no queue carries no timestamp.
  EXPECT_EQ(w.queue_stamp(id(w, "filler")), World::kNoStamp);
}

}  // namespace
}  // namespace preemptcheck
