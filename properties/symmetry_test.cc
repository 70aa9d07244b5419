// Symmetry reduction, shown sound rather than argued: for every committed scenario and for 500
// generated clusters with alike pods, under `reference` and `kubernetes`, the per-property
// verdicts and the witnesses reached are the same with --reduce=symmetry as without, and every
// counterexample the reduced search finds replays, step by step, in the unreduced model and
// ends in its violation. An unsound class relation (pods of different priority
// interchangeable) is caught by the same comparisons, and the reduction's saving is pinned on a
// scenario of identical pods.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "properties/committed_scenarios.h"
#include "properties/generators.h"
#include "properties/rapidcheck_run.h"
#include "properties/reduction_testing.h"
#include "properties/symmetry.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "spec/ledger.h"

namespace preemptcheck {
namespace {

using reduction_testing::cluster_of;
using reduction_testing::replays;
using reduction_testing::verdicts;

constexpr std::uint64_t kMaxStates = 150'000;

checker::Result<Action> run(const std::shared_ptr<const Cluster>& cluster, Reduction r,
                            Symmetry::Options options = {}) {
  WorldModel model(cluster);
  model.reduce(r, options);
  checker::ExploreOptions<Action> opts;
  opts.threads = 1;
  opts.per_property = true;
  return explore_world(model, checker::Limits{kMaxStates, std::nullopt, std::nullopt}, opts);
}

// Two scenarios written for the unsound variants, compared with the committed ones.
// Start order decides: a and b bind in either order, and the preemptor evicts the one that
// started last; only the order b-then-a leaves a unbound, violating the expectation. (The
// forgotten start order is caught on user-deletes instead: see the test's output.)
constexpr std::string_view kStartOrderDecides = R"(name: start-order-decides
description: two pods bind in either order; the preemptor evicts the one that started last
nodes:
  - {name: node-a, cpu: 2}
pods:
  - {name: a, priority: 1, cpu: 1}
  - {name: b, priority: 1, cpu: 1}
  - {name: p, priority: 10, cpu: 1, arrives: later}
expect: {bound: [a]}
)";
// Priority decides: whichever of high and low is created first takes the node; only low
// first leads to a preemption (victims in flight), and `create high` is generated first.
constexpr std::string_view kPriorityDecides = R"(name: priority-decides
description: two pods of different priority arrive in either order for one node
nodes:
  - {name: node-a, cpu: 1}
pods:
  - {name: high, priority: 2, cpu: 1, arrives: later}
  - {name: low, priority: 1, cpu: 1, arrives: later}
)";

struct Comparison {
  int compared = 0;
  int alike = 0;  // clusters with alike pods (the reduction has something to merge)
  int skipped = 0;
  int replayed = 0;
  std::vector<std::string> differences;
};

// Compares one cluster searched both ways into `c`: verdicts, witnesses, counterexample
// lengths, and every reduced counterexample replayed unreduced. `cell` names it.
void compare_cluster(const std::shared_ptr<const Cluster>& cluster, const std::string& cell,
                     Symmetry::Options options, Comparison& c) {
  const auto plain = run(cluster, Reduction::kNone);
  const auto reduced = run(cluster, Reduction::kSymmetry, options);
  if (!plain.limit.empty() || !reduced.limit.empty()) {
    ++c.skipped;
    return;
  }
  ++c.compared;
  if (verdicts(plain) != verdicts(reduced))
    c.differences.push_back(cell + ": verdicts or witnesses differ");
  // A breadth-first search finds the shortest counterexample of a class as soon as any
  // state of it: the lengths are the same.
  for (std::size_t i = 0; i < plain.property_results.size(); ++i) {
    const auto& a = plain.property_results[i].violation;
    const auto& b = reduced.property_results[i].violation;
    if (a && b && a->path.size() != b->path.size())
      c.differences.push_back(cell + ": " + plain.properties[i].name +
                              ": counterexample lengths differ");
  }
  for (std::size_t i = 0; i < reduced.property_results.size(); ++i) {
    const auto& v = reduced.property_results[i].violation;
    if (!v)
      continue;
    const std::string problem = replays(cluster, v->path, i);
    if (problem.empty()) {
      ++c.replayed;
    } else {
      c.differences.push_back(cell + ": " + reduced.properties[i].name + ": " + problem);
    }
  }
}

Comparison compare_all(Symmetry::Options options) {
  Comparison c;
  std::vector<std::string> paths = committed_scenarios();
  paths.emplace_back(kStartOrderDecides);
  paths.emplace_back(kPriorityDecides);
  for (const std::string& path : paths) {
    for (const std::string profile : {"reference", "kubernetes"}) {
      const auto cluster = cluster_of(path, profile);
      compare_cluster(cluster, cluster->scenario().name + " " + profile, options, c);
    }
  }
  return c;
}

TEST(Symmetry, SameVerdictsWitnessesAndReplayingCounterexamplesOnEveryCommittedScenario) {
  const Comparison c = compare_all({});
  std::cout << "compared " << c.compared << " scenario-profile cells (" << c.skipped
            << " skipped at the limit of " << kMaxStates << " states); " << c.replayed
            << " reduced counterexamples replayed unreduced\n";
  EXPECT_TRUE(c.differences.empty()) << ::testing::PrintToString(c.differences);
  EXPECT_GE(c.compared, 40);
  EXPECT_GT(c.replayed, 0);
}

TEST(Symmetry, TheComparisonCatchesPodsOfDifferentPriorityMadeInterchangeable) {
  Symmetry::Options unsound;
  unsound.priority = false;
  const Comparison c = compare_all(unsound);
  std::cout << "pods of any priority interchangeable: " << c.differences.size()
            << " differences in " << c.compared
            << " cells: " << ::testing::PrintToString(c.differences) << "\n";
  EXPECT_FALSE(c.differences.empty());
}

TEST(Symmetry, TheComparisonCatchesStartOrderForgottenWhereItDecides) {
  Symmetry::Options unsound;
  unsound.forget_starts = true;
  const Comparison c = compare_all(unsound);
  std::cout << "start order forgotten: " << c.differences.size() << " differences in " << c.compared
            << " cells: " << ::testing::PrintToString(c.differences) << "\n";
  EXPECT_FALSE(c.differences.empty());
}

// Generated clusters of up to 3 nodes and 9 pods, alike pods made on purpose: a genome of up
// to 6 pods, then a copy of its first pending pod and copies of up to two of its running pods
// (a copy of a running pod goes to the first node it fits on, like any running gene).
rc::Gen<ClusterGene> gen_alike_pods() {
  return rc::gen::apply(
      [](ClusterGene g, int running_copies, int pending_copies) {
        const std::size_t running = g.running.size();
        for (int i = 0; running > 0 && i < running_copies; ++i)
          g.running.push_back(g.running[static_cast<std::size_t>(i) % running]);
        const std::size_t pending = g.pending.size();
        for (int i = 0; pending > 0 && i < pending_copies; ++i)
          g.pending.push_back(g.pending[static_cast<std::size_t>(i) % pending]);
        return g;
      },
      gen_cluster_gene(ClusterBounds::limited(3, 6)), rc::gen::inRange(0, 3),
      rc::gen::inRange(1, 2));
}

// Compares `cases` generated clusters, each under `reference` and `kubernetes`, reduced with
// `options` against unreduced; RapidCheck's outcome, and the tally over every case tried.
RapidCheckOutcome compare_generated(std::uint64_t seed, int cases, Symmetry::Options options,
                                    Comparison& tally) {
  RapidCheckRun run;
  run.seed = seed;
  run.max_success = cases;
  std::cout << "seed " << seed << ", " << cases << " generated clusters\n";
  const auto gen = gen_alike_pods();
  return run_rapidcheck(
      [&] {
        const ClusterGene gene = *gen;
        Comparison c;
        for (const std::string profile : {"reference", "kubernetes"}) {
          Scenario s = to_scenario(gene);
          MechanismChoice choice;
          choice.profile = profile;
          RC_ASSERT(!apply_choice(s, choice).has_value());
          const auto cluster = std::make_shared<const Cluster>(s);
          compare_cluster(cluster, cluster_text(s) + " under " + profile, options, c);
          c.alike += Symmetry(*cluster).reduces() ? 1 : 0;
        }
        tally.alike += c.alike;
        tally.compared += c.compared;
        tally.skipped += c.skipped;
        tally.replayed += c.replayed;
        if (!c.differences.empty())
          RC_FAIL(::testing::PrintToString(c.differences));
      },
      run);
}

// The seed of the generated comparisons: PREEMPTCHECK_SEED when set (to replay a printed
// one), otherwise a fixed one, so that the default suite is the same on every run.
std::uint64_t generated_seed(std::uint64_t fixed) {
  const char* given = std::getenv("PREEMPTCHECK_SEED");
  return given != nullptr ? std::stoull(given) : fixed;
}

TEST(Symmetry, SameVerdictsOnFiveHundredGeneratedClustersWithAlikePods) {
  Comparison tally;
  const RapidCheckOutcome outcome = compare_generated(generated_seed(26), 500, {}, tally);
  std::cout << "compared " << tally.compared << " cluster-profile cells (" << tally.alike
            << " with alike pods, " << tally.skipped << " skipped at the limit of " << kMaxStates
            << " states); " << tally.replayed << " reduced counterexamples replayed unreduced\n";
  EXPECT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
  EXPECT_EQ(outcome.successes, 500);
  EXPECT_GE(tally.compared, 900);
  EXPECT_GE(tally.alike, 500);
  EXPECT_GT(tally.replayed, 0);
}

// The same comparison on generated clusters catches an unsound class relation.
TEST(Symmetry, TheGeneratedComparisonCatchesPodsOfDifferentPriorityMadeInterchangeable) {
  Symmetry::Options unsound;
  unsound.priority = false;
  Comparison tally;
  const RapidCheckOutcome outcome = compare_generated(generated_seed(27), 500, unsound, tally);
  std::cout << outcome.message << "\n";
  EXPECT_EQ(outcome.kind, RapidCheckOutcome::Kind::kFailure);
}

// The saving, pinned: scenarios whose victims (four-victims) or workers
// (equal-priority-workers) are alike, under `reference`, searched to the end both ways.
TEST(Symmetry, StoresFewerStatesWhenPodsAreAlike) {
  struct Pin {
    std::string scenario;
    std::uint64_t none;
    std::uint64_t symmetry;
  };
  for (const Pin& pin : {Pin{"scenarios/four-victims.yaml", 21084, 19142},
                         Pin{"scenarios/equal-priority-workers.yaml", 1747, 1655}}) {
    const auto cluster = cluster_of(pin.scenario, "reference");
    const auto plain = run(cluster, Reduction::kNone);
    const auto reduced = run(cluster, Reduction::kSymmetry);
    EXPECT_EQ(plain.outcome, checker::Outcome::kHolds) << pin.scenario;
    EXPECT_EQ(reduced.outcome, checker::Outcome::kHolds) << pin.scenario;
    EXPECT_EQ(plain.stats.states, pin.none) << pin.scenario;
    EXPECT_EQ(reduced.stats.states, pin.symmetry) << pin.scenario;
  }
}

// The classes: alike pods share one, and each attribute the model reads tells pods apart.
TEST(Symmetry, ClassesAreThePodsAlikeInEveryAttributeTheModelReads) {
  const auto cluster = cluster_of(std::string(R"(name: classes
description: classes
nodes:
  - {name: node-a, cpu: 8}
pods:
  - {name: v1, priority: 1, cpu: 1, node: node-a}
  - {name: v2, priority: 1, cpu: 1, node: node-a}
  - {name: v3, priority: 2, cpu: 1, node: node-a}
  - {name: v4, priority: 1, cpu: 2, node: node-a}
  - {name: w1, priority: 5, cpu: 1}
  - {name: w2, priority: 5, cpu: 1}
  - {name: w3, priority: 5, cpu: 1}
  - {name: w4, priority: 5, cpu: 1, arrives: later}
expect: {bound: [w3]}
)"),
                                  "reference");
  const Symmetry sym(*cluster);
  EXPECT_EQ(sym.class_of(0), sym.class_of(1));
  EXPECT_NE(sym.class_of(0), sym.class_of(2));  // priority
  EXPECT_NE(sym.class_of(0), sym.class_of(3));  // requests
  EXPECT_EQ(sym.class_of(4), sym.class_of(5));
  EXPECT_NE(sym.class_of(4), sym.class_of(6));  // named by expect:
  EXPECT_NE(sym.class_of(4), sym.class_of(7));  // arrives later
  EXPECT_NE(sym.class_of(0), sym.class_of(4));  // placement
  EXPECT_EQ(sym.class_count(), 6);
  EXPECT_TRUE(sym.reduces());
}

// A renaming is a bijection on states: renaming and renaming back gives the state again, on
// states along a real schedule.
TEST(Symmetry, RenamingBackRestoresTheState) {
  const auto cluster = cluster_of("scenarios/four-victims.yaml", "reference");
  const WorldModel model(cluster);
  WorldState s = model.initial_state();
  const int n = cluster->pod_count();
  std::array<PodId, kMaxPods> to{};
  std::array<PodId, kMaxPods> back{};
  for (int p = 0; p < n; ++p) {
    to[p] = static_cast<PodId>((p + 1) % n);
    back[(p + 1) % n] = static_cast<PodId>(p);
  }
  for (int step = 0; step < 12; ++step) {
    const World w = PodRenaming::rename(PodRenaming::rename(s.world, to), back);
    EXPECT_TRUE(w == s.world) << "step " << step;
    const spec::Ledger l = PodRenaming::rename(PodRenaming::rename(s.ledger, to, n), back, n);
    EXPECT_TRUE(l == s.ledger) << "step " << step;
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    if (enabled.empty())
      break;
    checker::Observation obs;
    s = model.next_state(s, enabled[static_cast<std::size_t>(step) % enabled.size()], obs);
  }
}

}  // namespace
}  // namespace preemptcheck
