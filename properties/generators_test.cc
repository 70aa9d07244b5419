// The generators: every generated cluster is valid by construction (the loader takes it back
// unchanged, nothing is overcommitted at the start), the ranges are covered, shrinking moves
// toward the smallest cluster, and generated clusters explore in milliseconds.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/world.h"
#include "properties/generators.h"
#include "properties/rapidcheck_run.h"
#include "properties/search.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "spec/monitor.h"

namespace preemptcheck {
namespace {

// Checks `property` on `runs` generated cases with `seed`; returns RapidCheck's outcome.
RapidCheckOutcome check(std::uint64_t seed, int runs, const std::function<void()>& property) {
  RapidCheckRun run;
  run.seed = seed;
  run.max_success = runs;
  std::cout << "seed " << seed << ", " << runs << " cases\n";
  return run_rapidcheck(property, run);
}

void expect_valid(const ClusterBounds& bounds, std::uint64_t seed) {
  const auto gen = gen_scenario(bounds, "generated", "reference", Mechanisms{});
  const auto outcome = check(seed, 300, [&] {
    const Scenario s = *gen;
    RC_ASSERT(check_generated(s, bounds) == "");
    const std::string yaml = scenario_to_yaml(s);
    RC_ASSERT(scenario_to_yaml(load_scenario_text(yaml, "generated.yaml")) == yaml);
    spec::Findings v;
    const Cluster cluster(s);
    spec::check_state(World(cluster), v);
    RC_ASSERT(v.holds());
  });
  EXPECT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
}

TEST(propertiesGenerators, SmallClustersAreValidByConstruction) {
  expect_valid(ClusterBounds::small(), 1);
}

TEST(propertiesGenerators, LargeClustersAreValidByConstruction) {
  expect_valid(ClusterBounds::large(), 2);
}

TEST(propertiesGenerators, LimitedClustersRespectTheirBounds) {
  for (const auto& [nodes, pods] :
       std::vector<std::pair<int, int>>{{1, 1}, {1, 2}, {2, 4}, {8, 32}}) {
    const ClusterBounds b = ClusterBounds::limited(nodes, pods);
    EXPECT_EQ(b.max_nodes, nodes);
    EXPECT_EQ(b.max_pods(), pods);
    expect_valid(b, 3);
  }
}

// Every genome gives a valid scenario, including ones no generator makes: out-of-range node
// indices, pods that fit nowhere, no nodes at all.
TEST(propertiesGenerators, EveryGenomeGivesAValidScenario) {
  ClusterGene g;
  g.running = {{7, 1, 3, 0, true}, {0, 1, 9, 0, false}, {1, 0, 1, 0, false}};
  g.pending = {{2, 1, 0, true, false, true}};
  g.pdb = 1;
  const Scenario s = to_scenario(g);
  ASSERT_EQ(s.nodes.size(), 1U);  // no node genes: one smallest node
  ASSERT_EQ(s.pods.size(), 2U);   // the 3-cpu and 9-cpu pods fit nowhere and are left out
  EXPECT_EQ(s.pods[0].name, "v1");
  EXPECT_EQ(s.pods[0].node, "n1");
  EXPECT_EQ(s.pods[1].name, "p1");
  EXPECT_TRUE(s.pods[1].arrives_later);
  EXPECT_EQ(s.pods[1].labels.at("app"), "web");
  ASSERT_EQ(s.pdbs.size(), 1U);
  EXPECT_EQ(s.pdbs[0].min_available, 0);
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(yaml, "genome.yaml")), yaml);
}

// Over a few hundred clusters every count and every optional feature occurs.
TEST(propertiesGenerators, CoverTheirRanges) {
  const ClusterBounds b = ClusterBounds::small();
  std::set<int> nodes, running, pending, workers;
  int pdbs = 0, later = 0, never = 0, eviction = 0, binding = 0, memory = 0;
  const auto gen = gen_scenario(b, "generated", "reference", Mechanisms{});
  const auto outcome = check(4, 400, [&] {
    const Scenario s = *gen;
    nodes.insert(static_cast<int>(s.nodes.size()));
    int r = 0;
    for (const PodSpec& p : s.pods) {
      r += p.node.empty() ? 0 : 1;
      later += p.arrives_later ? 1 : 0;
      never += p.preempt_never ? 1 : 0;
      memory += p.memory > 0 ? 1 : 0;
    }
    running.insert(r);
    pending.insert(static_cast<int>(s.pods.size()) - r);
    pdbs += s.pdbs.empty() ? 0 : 1;
    eviction += s.faults.eviction_failures;
    binding += s.faults.binding_failures;
    workers.insert(s.workers);
  });
  ASSERT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
  EXPECT_EQ(nodes, (std::set<int>{1, 2, 3}));
  EXPECT_EQ(running, (std::set<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(pending, (std::set<int>{1, 2, 3}));
  EXPECT_EQ(workers, (std::set<int>{0, 1, 2}));
  EXPECT_GT(pdbs, 0);
  EXPECT_GT(later, 0);
  EXPECT_GT(never, 0);
  EXPECT_GT(eviction, 0);
  EXPECT_GT(binding, 0);
  EXPECT_GT(memory, 0);
}

// A property that fails on any cluster with a pending pod of priority >= 2 and cpu >= 2
// shrinks to exactly that pod, alone on one smallest node, with no faults.
TEST(propertiesGenerators, ShrinkTowardTheSmallestCluster) {
  const auto gen = gen_scenario(ClusterBounds::small(), "generated", "reference", Mechanisms{});
  std::optional<Scenario> last;
  const auto outcome = check(5, 200, [&] {
    const Scenario s = *gen;
    for (const PodSpec& p : s.pods) {
      if (p.node.empty() && p.priority >= 2 && p.cpu >= cores(2)) {
        last = s;
        RC_FAIL("a pending pod of priority >= 2 and cpu >= 2");
      }
    }
  });
  ASSERT_EQ(outcome.kind, RapidCheckOutcome::Kind::kFailure);
  ASSERT_TRUE(last.has_value());
  std::cout << cluster_text(*last);
  EXPECT_EQ(cluster_text(*last),
            "node n1 cpu 1 memory 1\n"
            "pod p1 priority 2 cpu 2 memory 0\n"
            "faults eviction 0 binding 0 workers 0\n");
}

// Generated clusters explore in milliseconds: the figures the per-cluster limit is set from.
TEST(propertiesGenerators, ClustersExploreInMilliseconds) {
  const auto gen = gen_scenario(ClusterBounds::small(), "generated", "reference", Mechanisms{});
  std::vector<std::uint64_t> states;
  std::vector<double> seconds;
  int cut = 0;
  const auto outcome = check(6, 300, [&] {
    const Scenario s = *gen;
    WorldModel model(std::make_shared<const Cluster>(s));
    const auto r =
        explore_world(model, checker::Limits{kDefaultClusterMaxStates, std::nullopt, std::nullopt});
    if (r.outcome == checker::Outcome::kLimitReached) {
      ++cut;
    } else {
      states.push_back(r.stats.states);
      seconds.push_back(r.stats.seconds);
    }
  });
  ASSERT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
  ASSERT_FALSE(states.empty());
  std::sort(states.begin(), states.end());
  std::sort(seconds.begin(), seconds.end());
  const auto at = [](const auto& v, double q) {
    return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
  };
  std::cout << fmt::format(
      "states per cluster: median {}, 90% {}, 99% {}, max {}; seconds: median {:.4f}, 99% "
      "{:.4f}; {} of 300 cut at {} states\n",
      at(states, 0.5), at(states, 0.9), at(states, 0.99), states.back(), at(seconds, 0.5),
      at(seconds, 0.99), cut, kDefaultClusterMaxStates);
  EXPECT_LT(at(states, 0.5), 2'000U);
  EXPECT_LT(at(states, 0.9), 20'000U);
  EXPECT_LE(cut, 3);
}

}  // namespace
}  // namespace preemptcheck
