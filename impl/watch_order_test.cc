// The causal watch order at the World's level (impl/watch_order.cc): two kubelets' writes are
// concurrent and either may be delivered first, into one state; the scheduler's status patch
// comes before the evictions its executor sends; an eviction's event comes before its
// victim's termination; `observe` names its pod only under the causal order.
#include <gtest/gtest.h>

#include <string_view>

#include "impl/test_support.h"
#include "impl/world.h"

namespace preemptcheck {
namespace {

using namespace test;

// p preempts v1 and v2 on node-1 (the reference profile), its job evicts both.
Scenario two_victims() {
  return scenario({node("node-1", 2)},
                  {pod("v1", kLow, 1, "node-1"), pod("v2", kLow, 1, "node-1"), pod("p", kHigh, 2)});
}

// The two-victims cluster under the causal watch order, kept for the test program's life.
const Cluster& causal_cluster() {
  static const Cluster c = Cluster(two_victims()).with_watch_order(WatchOrder::kCausal);
  return c;
}

World causal() { return World(causal_cluster()); }

// Runs the schedule up to both victims' terminations, the events of p and of the evictions
// delivered: what is left pending is the two kubelets' writes. Under FIFO `observe` names no
// pod.
void up_to_both_terminations(World& w) {
  const bool fifo = !w.cluster().is_causal();
  for (const char* line : {"schedule p", "observe p", "evict p v1", "evict p v2", "observe v1",
                           "observe v2", "terminate v1", "terminate v2"}) {
    const std::string_view words(line);
    run(w, fifo && words.starts_with("observe") ? std::string_view("observe") : words);
  }
}

TEST(implWatchOrder, TwoKubeletsWritesAreConcurrentAndEitherIsDeliveredFirst) {
  World w = causal();
  up_to_both_terminations(w);
  ASSERT_EQ(w.events().size(), 2U);
  EXPECT_EQ(w.happens_after(0), 0U);
  EXPECT_EQ(w.happens_after(1), 0U);
  EXPECT_TRUE(enabled(w, "observe v1"));
  EXPECT_TRUE(enabled(w, "observe v2"));
  EXPECT_FALSE(enabled(w, "observe"));
  // The kubelets in the other order reach the same state.
  World other = causal();
  for (const char* line : {"schedule p", "observe p", "evict p v1", "evict p v2", "observe v1",
                           "observe v2", "terminate v2", "terminate v1"}) {
    run(other, line);
  }
  EXPECT_TRUE(other == w);
  EXPECT_EQ(other.fingerprint(), w.fingerprint());
}

TEST(implWatchOrder, TheSchedulersPatchComesBeforeItsExecutorsEvictions) {
  World w = causal();
  run(w, "schedule p");  // the nominatedNodeName patch
  run(w, "evict p v1");
  ASSERT_EQ(w.events().size(), 2U);
  // p's patch first: v1's eviction happens after it and cannot be delivered first.
  EXPECT_EQ(w.events()[0].pod, id(w, "p"));
  EXPECT_EQ(w.happens_after(1), 1U);
  EXPECT_TRUE(enabled(w, "observe p"));
  EXPECT_FALSE(enabled(w, "observe v1"));
  const std::optional<Action> v1 = parse_action("observe v1", w.cluster());
  ASSERT_TRUE(v1);
  EXPECT_EQ(w.why_not_enabled(*v1), "an event that happens before v1's oldest is still pending");
}

TEST(implWatchOrder, AVictimsTerminationComesAfterItsEviction) {
  World w = causal();
  for (const char* line : {"schedule p", "observe p", "evict p v1", "terminate v1"})
    run(w, line);
  ASSERT_EQ(w.events().size(), 2U);
  EXPECT_EQ(w.events()[0].pod, id(w, "v1"));
  EXPECT_EQ(w.events()[1].pod, id(w, "v1"));
  EXPECT_EQ(w.happens_after(1), 1U);
}

TEST(implWatchOrder, TheFifoModelDeliversTheHeadAndNamesNoPod) {
  World w = world_of(two_victims());
  up_to_both_terminations(w);
  EXPECT_TRUE(enabled(w, "observe"));
  EXPECT_FALSE(enabled(w, "observe v2"));
  const std::optional<Action> v2 = parse_action("observe v2", w.cluster());
  ASSERT_TRUE(v2);
  EXPECT_EQ(w.why_not_enabled(*v2),
            "the informer delivers the oldest pending event, whatever its pod: write 'observe' "
            "(a pod is named only under --reduce=watch-order)");
}

}  // namespace
}  // namespace preemptcheck
