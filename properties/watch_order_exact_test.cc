// The causal watch order (--reduce watch-order), shown exact rather than argued (FIDELITY §6.2),
// the slower part: on every committed scenario under `reference` and `kubernetes` whose FIFO
// space fits the bound, the quotient reaches exactly the states the FIFO model reaches,
// compared with the serialization of concurrent writes forgotten on both sides; on every
// scenario the per-property verdicts, the witnesses reached and the counterexample lengths
// are the same, and every counterexample the reduced search finds, written as a FIFO schedule
// (serialize_schedule), replays step by step in the FIFO model and ends in its violation. The
// unsound variant that keeps only each object's own order (any-pod delivery) is caught by the
// same comparisons.
#include <gtest/gtest.h>

#include "properties/watch_order_support.h"

namespace preemptcheck {
namespace {

using namespace watch_order_testing;

TEST(WatchOrder, ReachesExactlyTheFifoStatesUpToTheSerializationOnEveryCommittedScenario) {
  int compared = 0;
  int skipped = 0;
  std::vector<std::string> differences;
  for (const std::string& path : committed_scenarios()) {
    for (const std::string profile : {"reference", "kubernetes"}) {
      const auto cluster = cluster_of(path, profile);
      const auto fifo = reached(cluster, WatchOrder::kFifo);
      if (!fifo) {
        ++skipped;
        continue;
      }
      const auto causal = reached(cluster, WatchOrder::kCausal);
      ++compared;
      if (!causal || *causal != *fifo) {
        differences.push_back(path + " " + profile + ": " + std::to_string(fifo->size()) +
                              " FIFO states, " +
                              (causal ? std::to_string(causal->size()) : std::string("more")) +
                              " under the causal order");
      }
    }
  }
  std::cout << "compared the states of " << compared << " scenario-profile cells (" << skipped
            << " larger than " << kMaxCompared << " states)\n";
  EXPECT_TRUE(differences.empty()) << ::testing::PrintToString(differences);
  EXPECT_GE(compared, 30);
}

TEST(WatchOrder, SameVerdictsWitnessesAndShortestCounterexamplesOnEveryCommittedScenario) {
  Comparison c;
  for (const std::string& path : committed_scenarios()) {
    for (const std::string profile : {"reference", "kubernetes"}) {
      const auto cluster = cluster_of(path, profile);
      compare_cluster(cluster, path + " " + profile, WatchOrder::kCausal, c);
    }
  }
  std::cout << "compared " << c.compared << " scenario-profile cells (" << c.skipped
            << " skipped at the limit of " << kMaxStates << " states): " << c.fifo_states
            << " FIFO states, " << c.reduced_states << " under the causal order; " << c.replayed
            << " reduced counterexamples replayed as FIFO schedules\n";
  EXPECT_TRUE(c.differences.empty()) << ::testing::PrintToString(c.differences);
  EXPECT_GE(c.compared, 40);
  EXPECT_GT(c.replayed, 20);
  EXPECT_LT(c.reduced_states, c.fifo_states);
}

// Any-pod delivery: only each object's own events ordered. kube-scheduler's patch of p-mid's
// nominatedNodeName comes before its executor evicts the victims; delivered after the
// victims' deletions, it lets a pod bind into p-mid's claim. The FIFO search holds
// no-double-claim over its whole space (815,099 states); the unsound order breaks it.
TEST(WatchOrder, TheComparisonCatchesTheOrderDroppedAcrossObjects) {
  const auto cluster = cluster_of("scenarios/g7-higher-takes-place.yaml", "kubernetes");
  std::size_t claim = 0;
  const auto status = [&claim](const checker::Result<Action>& r, std::string_view property) {
    for (std::size_t i = 0; i < r.properties.size(); ++i) {
      if (r.properties[i].name == property) {
        claim = i;
        return r.property_results[i];
      }
    }
    ADD_FAILURE() << "no property " << property;
    return checker::PropertyResult<Action>{};
  };
  const auto plain = run(cluster, WatchOrder::kFifo, 2, 2'000'000);
  const auto exact = run(cluster, WatchOrder::kCausal, 2, 2'000'000);
  const auto unsound = run(cluster, WatchOrder::kPerObject, 2, 2'000'000);
  ASSERT_TRUE(plain.limit.empty()) << plain.limit;
  ASSERT_TRUE(exact.limit.empty()) << exact.limit;
  EXPECT_EQ(status(plain, "no-double-claim").status, checker::PropertyStatus::kHolds);
  EXPECT_EQ(status(exact, "no-double-claim").status, checker::PropertyStatus::kHolds);
  const auto broken = status(unsound, "no-double-claim");
  ASSERT_EQ(broken.status, checker::PropertyStatus::kViolated);
  std::cout << "any-pod delivery breaks no-double-claim in " << broken.violation->path.size()
            << " steps; the FIFO model holds it in " << plain.stats.states << " states\n";
  // Its counterexample is no schedule of the FIFO model.
  const Cluster per_object = cluster->with_watch_order(WatchOrder::kPerObject);
  std::string problem;
  try {
    problem = replays(cluster, serialize_schedule(per_object, broken.violation->path), claim);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  EXPECT_FALSE(problem.empty());
  std::cout << "its serialization: " << problem << "\n";
}

// The state comparison catches it too, on the committed scenarios it can compare.
TEST(WatchOrder, TheStateComparisonCatchesTheOrderDroppedAcrossObjects) {
  std::vector<std::string> caught;
  for (const std::string& path : committed_scenarios()) {
    const auto cluster = cluster_of(path, "kubernetes");
    const auto fifo = reached(cluster, WatchOrder::kFifo);
    if (!fifo)
      continue;
    const auto unsound = reached(cluster, WatchOrder::kPerObject);
    if (!unsound || *unsound != *fifo)
      caught.push_back(path);
  }
  std::cout << "states differ on " << ::testing::PrintToString(caught) << "\n";
  EXPECT_FALSE(caught.empty());
}

}  // namespace
}  // namespace preemptcheck
