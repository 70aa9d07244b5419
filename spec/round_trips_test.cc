// Round-trip tests: Parallelizer's depth against chunkSizeFor's arithmetic
// (pkg/scheduler/framework/parallelize/parallelism.go: chunk = min(⌊√n⌋, n/16 + 1), at least
// 1, 16 workers), and the per-cycle figures of one preemption.
#include "spec/round_trips.h"

#include <gtest/gtest.h>

#include <memory>

#include "impl/test_support.h"

namespace preemptcheck::spec {
namespace {

TEST(specRoundTrips, ParallelDepthFollowsChunkSizeFor) {
  EXPECT_EQ(parallel_depth(0), 0u);
  EXPECT_EQ(parallel_depth(1), 1u);
  EXPECT_EQ(parallel_depth(4), 1u);  // chunk min(2, 1) = 1: four workers, one piece each
  EXPECT_EQ(parallel_depth(15), 1u);
  EXPECT_EQ(parallel_depth(16), 2u);    // chunk min(4, 2) = 2: eight chunks, one wave
  EXPECT_EQ(parallel_depth(31), 2u);    // chunk 2: sixteen chunks, one wave
  EXPECT_EQ(parallel_depth(32), 3u);    // chunk min(5, 3) = 3: eleven chunks
  EXPECT_EQ(parallel_depth(48), 4u);    // chunk min(6, 4) = 4: twelve chunks
  EXPECT_EQ(parallel_depth(3, 2), 2u);  // two workers, chunk min(1, 2) = 1: two waves
}

TEST(specRoundTrips, OnlyAPreemptionCycleBlocks) {
  using namespace test;  // NOLINT
  World w = world_of(scenario({node("n", 2)}, {pod("v", kLow, 2, "n"), pod("p", kHigh, 2)}));
  const World before = w;
  std::vector<Action> actions;
  w.enabled_actions(actions);
  ASSERT_FALSE(actions.empty());
  const StepReport step = w.apply(actions.front());  // schedule p: preempts v
  ASSERT_TRUE(step.cycle);
  ASSERT_EQ(step.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(blocking_round_trips(before, step), (BlockingRoundTrips{3, 1}));
  StepReport other;
  EXPECT_EQ(blocking_round_trips(before, other), (BlockingRoundTrips{0, 0}));
}

}  // namespace
}  // namespace preemptcheck::spec
