// Victims preempted in memory (binding-victims=in-memory, SPEC §2.7): a victim whose binding
// is in flight stands for one waiting at Permit or in PreBind, which kube-scheduler's executor
// rejects without an API call; its binding cycle wakes on its own goroutine (`binding-preempted`)
// and fails, moving the queue — while the preemptor is still gated (#140082), or after its job
// has ended — and the job's end activates the preemptor when that victim was its last
// (activate-in-memory, PR #140054).
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

// binding-in-flight: low's binding is in flight when high, created later, preempts it. One
// eviction failure is in the budget, to see whether `evict-fails` is offered.
Scenario binding_in_flight(std::string_view profile_name, bool activate_in_memory = true) {
  Scenario s = scenario({node("node", 4)}, {pod("low", kLow, 4), later(pod("high", kHigh, 4))},
                        profile_name);
  s.faults.eviction_failures = 1;
  s.mechanisms.activate_in_memory = activate_in_memory;
  return s;
}

// Runs the schedule up to high's job evicting low, its only (and so last) victim.
void up_to_the_eviction(World& w) {
  run(w, "schedule low");
  ASSERT_NE(w.binding(id(w, "low")), kNoNode);
  run(w, "create high");
  observe_all(w);  // high's Added (after low's nomination, written by its binding cycle)
  run(w, "schedule high");
  run(w, "clear-nominations high");
  ASSERT_TRUE(has_pod(w.gated(), id(w, "high")));
}

TEST(implInMemory, AVictimWhoseBindingIsInFlightIsPreemptedWithoutAnApiCall) {
  // Without the binding's own nomination, whose clear would be the one write of this step.
  Scenario s = binding_in_flight("kubernetes-prebind");
  s.mechanisms.binding_nomination = false;
  World w = world_of(s);
  up_to_the_eviction(w);
  const PodId low = id(w, "low");
  const std::size_t events = w.events().size();
  const StepReport r = run(w, "evict high low");
  EXPECT_EQ(r.deleted, 0u);
  // No PATCH, no DELETE: the API server still has low, pending and untouched.
  EXPECT_TRUE(w.api(low).exists);
  EXPECT_FALSE(w.api(low).terminating);
  EXPECT_FALSE(w.api(low).disruption_target);
  EXPECT_EQ(w.api(low).node, kNoNode);
  EXPECT_EQ(w.events().size(), events);
  // Its binding cycle is told to fail but has not woken: the cache still holds low assumed,
  // and the binding can no longer be sent.
  EXPECT_EQ(r.in_memory, 0u);
  EXPECT_EQ(w.preempted_in_memory(), pod_bit(low));
  EXPECT_NE(w.assumed(low), kNoNode);
  EXPECT_FALSE(enabled(w, "bind low"));
  EXPECT_FALSE(enabled(w, "bind-fails low"));
  EXPECT_TRUE(enabled(w, "binding-preempted low"));
  // It wakes and fails: the cache forgets low, and the failure handler re-queues it, to
  // backoffQ's error part (no plugin rejected it).
  const StepReport woke = run(w, "binding-preempted low");
  EXPECT_EQ(woke.in_memory, pod_bit(low));
  EXPECT_EQ(w.preempted_in_memory(), 0u);
  EXPECT_EQ(w.binding(low), kNoNode);
  EXPECT_EQ(w.assumed(low), kNoNode);
  EXPECT_TRUE(has_pod(w.error_backoff(), low));
  EXPECT_EQ(w.events().size(), events);
  EXPECT_FALSE(enabled(w, "binding-preempted low"));
}

TEST(implInMemory, UnderDeleteTheBindingCycleIsNeverPreempted) {
  World w = world_of(binding_in_flight("kubernetes"));
  up_to_the_eviction(w);
  EXPECT_FALSE(enabled(w, "binding-preempted low"));
  run(w, "evict high low");
  EXPECT_EQ(w.preempted_in_memory(), 0u);
  EXPECT_FALSE(enabled(w, "binding-preempted low"));
}

TEST(implInMemory, UnderDeleteTheSameVictimIsDeletedThroughTheApi) {
  World w = world_of(binding_in_flight("kubernetes"));
  up_to_the_eviction(w);
  const PodId low = id(w, "low");
  const StepReport r = run(w, "evict high low");
  EXPECT_EQ(r.in_memory, 0u);
  EXPECT_FALSE(w.api(low).exists);
  EXPECT_NE(w.binding(low), kNoNode);  // the binding fails only when it lands
}

TEST(implInMemory, TheBindingCyclesMoveIsUsedUpAtTheGatedPreemptor) {
  World w = world_of(binding_in_flight("kubernetes-prebind"));
  up_to_the_eviction(w);
  run(w, "evict high low");
  const StepReport r = run(w, "binding-preempted low");
  // The move on AssignedPodDelete happens while high is still in `preempting`, and its
  // last victim is not terminating: PreEnqueue gates it again (#140082).
  EXPECT_EQ(r.consumed, bit_of(w, "high"));
  EXPECT_TRUE(has_pod(w.unschedulable_pool(), id(w, "high")));
}

TEST(implInMemory, TheBindingCycleMayWakeAfterTheJobHasEnded) {
  // The other order: the executor's job ends first. With activate-in-memory its end activates
  // high; without it, the binding cycle's move finds high no longer gated by its preemption
  // and moves it — the wake-up #140082 lost in the first order.
  for (const bool activate : {true, false}) {
    World w = world_of(binding_in_flight("kubernetes-prebind", activate));
    up_to_the_eviction(w);
    run(w, "evict high low");
    run(w, "finish high");
    const PodId high = id(w, "high");
    EXPECT_EQ(has_pod(w.unschedulable_pool(), high), !activate)
        << "activate-in-memory " << activate;
    const StepReport r = run(w, "binding-preempted low");
    EXPECT_EQ(r.consumed, 0u) << "activate-in-memory " << activate;
    EXPECT_FALSE(has_pod(w.unschedulable_pool(), high)) << "activate-in-memory " << activate;
  }
}

TEST(implInMemory, ARestartLosesThePreemptedBindingCycleWithNoLateBinding) {
  Scenario s = binding_in_flight("kubernetes-prebind");
  s.faults.restarts = 1;
  World w = world_of(s);
  up_to_the_eviction(w);
  run(w, "evict high low");
  run(w, "restart");
  const PodId low = id(w, "low");
  EXPECT_EQ(w.preempted_in_memory(), 0u);
  EXPECT_EQ(w.late_binding(low), kNoNode);
  EXPECT_FALSE(enabled(w, "late-bind low"));
  EXPECT_FALSE(enabled(w, "binding-preempted low"));
}

TEST(implInMemory, AnInMemoryVictimsEvictionCannotFail) {
  World w = world_of(binding_in_flight("kubernetes-prebind"));
  up_to_the_eviction(w);
  EXPECT_FALSE(enabled(w, "evict-fails high low"));
  World d = world_of(binding_in_flight("kubernetes"));
  up_to_the_eviction(d);
  EXPECT_TRUE(enabled(d, "evict-fails high low"));
}

TEST(implInMemory, TheJobsEndActivatesThePreemptorWhenItsLastVictimWentInMemory) {
  for (const bool activate : {true, false}) {
    World w = world_of(binding_in_flight("kubernetes-prebind", activate));
    up_to_the_eviction(w);
    run(w, "evict high low");
    const StepReport r = run(w, "finish high");
    const PodId high = id(w, "high");
    EXPECT_FALSE(has_pod(w.preempting(), high));
    EXPECT_EQ(has_pod(r.moved, high), activate) << "activate-in-memory " << activate;
    EXPECT_EQ(has_pod(w.unschedulable_pool(), high), !activate)
        << "activate-in-memory " << activate;
  }
}

TEST(implInMemory, AVictimTheApiShowsBoundIsDeletedEvenInMemory) {
  // binding-victims=in-memory changes only victims whose binding is in flight: a running
  // victim is evicted through the API as before.
  World w = world_of(scenario({node("node", 4)}, {pod("v", kLow, 4, "node"), pod("p", kHigh, 4)},
                              "kubernetes-prebind"));
  run(w, "schedule p");
  run(w, "clear-nominations p");
  const StepReport r = run(w, "evict p v");
  EXPECT_EQ(r.in_memory, 0u);
  EXPECT_TRUE(w.api(id(w, "v")).terminating);
  EXPECT_TRUE(w.api(id(w, "v")).disruption_target);
}

TEST(implInMemory, TheBindingCycleWritesTheChosenNodeAsTheNomination) {
  for (const bool on : {true, false}) {
    Scenario s = binding_in_flight("kubernetes-prebind");
    s.mechanisms.binding_nomination = on;
    World w = world_of(s);
    const PodId low = id(w, "low");
    run(w, "schedule low");
    EXPECT_EQ(w.api(low).nominated, on ? node_id(w, "node") : kNoNode) << "on " << on;
    observe_all(w);
    // An update of an assumed pod does not reach the nominator.
    EXPECT_EQ(w.nominated(low), kNoNode);
    run(w, "create high");
    run(w, "observe");
    run(w, "schedule high");
    run(w, "clear-nominations high");
    // Preempted in memory, low's failure handler clears the nomination its binding wrote,
    // once its binding cycle wakes.
    run(w, "evict high low");
    run(w, "binding-preempted low");
    EXPECT_EQ(w.api(low).nominated, kNoNode) << "on " << on;
  }
}

TEST(implInMemory, TheBindingsNominationIsOverwrittenByTheQueuedBinding) {
  Scenario s = binding_in_flight("kubernetes-prebind");
  s.mechanisms.dispatched_calls = true;
  World w = world_of(s);
  run(w, "schedule low");
  EXPECT_EQ(w.queued_patches(), 0u);
  EXPECT_NE(w.binding(id(w, "low")), kNoNode);
}

}  // namespace
}  // namespace preemptcheck
