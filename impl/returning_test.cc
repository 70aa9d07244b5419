// Returning victims (#130429): a pod its controller re-creates (`recreate`), and a second
// scheduler's pods, which kube-scheduler never queues and which the second scheduler binds
// with unbounded `external-bind` steps (SPEC §2.3).
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

// returning-victim: a victim of 4 on a node of 4, a preemptor of 4.
Scenario returning(PodScheduler scheduler, bool recreated = true) {
  PodSpec victim = pod("victim", kLow, 4, "node");
  victim.scheduler = scheduler;
  victim.recreated = recreated;
  return scenario({node("node", 4)}, {victim, pod("p", kHigh, 4)});
}

// Preempts the victim and lets the kubelet finish it.
void preempt_victim(World& w) {
  run(w, "schedule p");
  run(w, "evict p victim");
  run(w, "terminate victim");
}

TEST(implReturning, AControllerRecreatesItsDeletedPodWithANewObject) {
  World w = world_of(returning(PodScheduler::kThis));
  EXPECT_FALSE(enabled(w, "recreate victim"));  // it exists
  preempt_victim(w);
  ASSERT_FALSE(w.api(id(w, "victim")).exists);
  const StepReport r = run(w, "recreate victim");
  EXPECT_TRUE(w.api(id(w, "victim")).exists);
  EXPECT_EQ(w.api(id(w, "victim")).node, kNoNode);
  EXPECT_FALSE(w.api(id(w, "victim")).terminating);
  EXPECT_FALSE(w.api(id(w, "victim")).disruption_target);
  EXPECT_EQ(w.events().back().type, EventType::kAdded);
  EXPECT_FALSE(enabled(w, "recreate victim"));  // once per deletion
  EXPECT_FALSE(r.no_op);
}

TEST(implReturning, APodWithoutAControllerIsNotRecreated) {
  World w = world_of(returning(PodScheduler::kThis, false));
  preempt_victim(w);
  EXPECT_FALSE(enabled(w, "recreate victim"));
}

TEST(implReturning, RecreationRenumbersStartOrdersSoThatALoopReturnsToItsState) {
  // Without renumbering every binding takes a new start order and no state repeats.
  World w = world_of(returning(PodScheduler::kSecond));
  preempt_victim(w);
  run(w, "recreate victim");
  observe_all(w);
  run(w, "finish p");
  run(w, "external-bind victim node");
  observe_all(w);
  const World first = w;
  run(w, "schedule p");
  run(w, "evict p victim");
  run(w, "terminate victim");
  run(w, "recreate victim");
  observe_all(w);
  run(w, "finish p");
  run(w, "external-bind victim node");
  observe_all(w);
  EXPECT_EQ(w.api(id(w, "victim")).start, first.api(id(w, "victim")).start);
  EXPECT_EQ(w.fingerprint(), first.fingerprint());
  EXPECT_TRUE(w == first);
}

TEST(implReturning, ASecondSchedulersPodNeverEntersThisSchedulersQueue) {
  PodSpec other = pod("other", kLow, 2);
  other.scheduler = PodScheduler::kSecond;
  World w = world_of(scenario({node("node", 4)}, {other}));
  EXPECT_TRUE(w.active_queue().empty());
  EXPECT_FALSE(enabled(w, "schedule other"));
  // Its scheduler binds it, as often as it comes back: no budget is spent.
  EXPECT_EQ(w.external_bindings_left(), 0);
  run(w, "external-bind other node");
  EXPECT_EQ(w.api(id(w, "other")).node, node_id(w, "node"));
}

TEST(implReturning, TheSecondSchedulerIgnoresNominationsUnlessAware) {
  for (PodScheduler s : {PodScheduler::kSecond, PodScheduler::kSecondAware}) {
    World w = world_of(returning(s));
    preempt_victim(w);
    run(w, "recreate victim");
    ASSERT_EQ(w.api(id(w, "p")).nominated, node_id(w, "node"));
    // p-high's nomination stands in the API server: only the unaware scheduler fills it.
    EXPECT_EQ(enabled(w, "external-bind victim node"), s == PodScheduler::kSecond);
  }
}

}  // namespace
}  // namespace preemptcheck
