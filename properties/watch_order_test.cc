// The causal watch order (--reduce watch-order), the quick part of its checks (FIDELITY §6.2):
// random walks of the quotient over every committed scenario serialized into the FIFO model
// and reaching the same state up to the serialization, the saving pinned, every thread count
// the same, and verdicts, witnesses, counterexample lengths and serialized counterexamples
// compared on 200 generated clusters. The state-by-state comparison, the verdicts on every
// committed scenario and the unsound variant caught are properties/watch_order_exact_test.cc.
#include <gtest/gtest.h>

#include "properties/watch_order_support.h"

namespace preemptcheck {
namespace {

using namespace watch_order_testing;

// The schedules it is written in are FIFO ones, however the reduced search delivered: random
// walks of the quotient over every committed scenario, each serialized, reach the same state
// in the FIFO model up to the serialization.
TEST(WatchOrder, EveryScheduleOfTheCausalOrderIsSerializedIntoTheFifoModel) {
  std::uint64_t x = 26;
  int walked = 0;
  for (const std::string& path : committed_scenarios()) {
    for (const std::string profile : {"reference", "kubernetes"}) {
      const auto cluster = cluster_of(path, profile);
      const Cluster causal = cluster->with_watch_order(WatchOrder::kCausal);
      for (int walk = 0; walk < 20; ++walk) {
        World w(causal);
        std::vector<Action> steps;
        for (int step = 0; step < 40; ++step) {
          std::vector<Action> enabled;
          w.enabled_actions(enabled);
          if (enabled.empty())
            break;
          x = x * 6364136223846793005ULL + 1442695040888963407ULL;
          const Action a = enabled[(x >> 33) % enabled.size()];
          w.apply(a);
          steps.push_back(a);
        }
        std::vector<Action> fifo;
        try {
          fifo = serialize_schedule(causal, steps);
        } catch (const std::exception& e) {
          std::string words;
          for (const Action& a : steps)
            words += "\n  " + format_action(a, causal);
          ADD_FAILURE() << path << " " << profile << " walk " << walk << ": " << e.what() << words;
          continue;
        }
        ASSERT_EQ(fifo.size(), steps.size());
        World v(*cluster);
        for (const Action& a : fifo)
          v.apply(a);
        EXPECT_TRUE(v.without_serialization(*cluster) == w.without_serialization(*cluster))
            << path << " " << profile << " walk " << walk;
        ++walked;
      }
    }
  }
  EXPECT_GE(walked, 1000);
}

// The saving, pinned: four-victims' victims terminate in any order.
TEST(WatchOrder, StoresFewerStatesWhenWritesAreConcurrent) {
  const auto cluster = cluster_of("scenarios/four-victims.yaml", "reference");
  const auto plain = run(cluster, WatchOrder::kFifo);
  const auto reduced = run(cluster, WatchOrder::kCausal);
  EXPECT_EQ(plain.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(reduced.outcome, checker::Outcome::kHolds);
  std::cout << plain.stats.states << " FIFO states, " << reduced.stats.states
            << " under the causal order\n";
  EXPECT_EQ(plain.stats.states, 21084U);
  EXPECT_EQ(reduced.stats.states, 2406U);
}

// The same on every thread count.
TEST(WatchOrder, TheSameOnEveryThreadCount) {
  const auto cluster = cluster_of("scenarios/four-victims.yaml", "kubernetes");
  const auto one = run(cluster, WatchOrder::kCausal, 1);
  const auto two = run(cluster, WatchOrder::kCausal, 2);
  const auto three = run(cluster, WatchOrder::kCausal, 3);
  EXPECT_EQ(one.stats.states, two.stats.states);
  EXPECT_EQ(one.stats.states, three.stats.states);
  EXPECT_EQ(verdicts(one), verdicts(two));
  EXPECT_EQ(verdicts(one), verdicts(three));
  for (std::size_t i = 0; i < one.property_results.size(); ++i) {
    const auto& a = one.property_results[i].violation;
    const auto& b = two.property_results[i].violation;
    const auto& c = three.property_results[i].violation;
    ASSERT_EQ(a.has_value(), b.has_value());
    ASSERT_EQ(a.has_value(), c.has_value());
    if (a) {
      EXPECT_TRUE(a->path == b->path);
      EXPECT_TRUE(a->path == c->path);
    }
  }
}

// Generated clusters of up to 3 nodes and 6 pods under `reference` and `kubernetes`.
TEST(WatchOrder, SameVerdictsOnGeneratedClusters) {
  const char* given = std::getenv("PREEMPTCHECK_SEED");
  RapidCheckRun rc_run;
  rc_run.seed = given != nullptr ? std::stoull(given) : 39;
  rc_run.max_success = 200;
  std::cout << "seed " << rc_run.seed << ", 200 generated clusters\n";
  Comparison tally;
  const auto gen = gen_cluster_gene(ClusterBounds::limited(3, 6));
  const RapidCheckOutcome outcome = run_rapidcheck(
      [&] {
        const ClusterGene gene = *gen;
        Comparison c;
        for (const std::string profile : {"reference", "kubernetes"}) {
          Scenario s = to_scenario(gene);
          MechanismChoice choice;
          choice.profile = profile;
          RC_ASSERT(!apply_choice(s, choice).has_value());
          const auto cluster = std::make_shared<const Cluster>(s);
          compare_cluster(cluster, cluster_text(s) + " under " + profile, WatchOrder::kCausal, c);
        }
        tally.compared += c.compared;
        tally.skipped += c.skipped;
        tally.replayed += c.replayed;
        if (!c.differences.empty())
          RC_FAIL(::testing::PrintToString(c.differences));
      },
      rc_run);
  std::cout << "compared " << tally.compared << " cells (" << tally.skipped << " skipped); "
            << tally.replayed << " counterexamples replayed as FIFO schedules\n";
  EXPECT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
  EXPECT_GE(tally.compared, 300);
}

}  // namespace
}  // namespace preemptcheck
