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
#include <tuple>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "impl/watch_order.h"
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

// Compares one cluster searched unreduced and with `reduced_by` (symmetry, or symmetry over the
// causal watch order) into `c`: verdicts, witnesses, counterexample lengths, and every reduced
// counterexample replayed unreduced (serialized into a FIFO schedule first under the watch
// order). `cell` names it.
void compare_cluster(const std::shared_ptr<const Cluster>& cluster, const std::string& cell,
                     Reduction reduced_by, Symmetry::Options options, Comparison& c) {
  const auto plain = run(cluster, Reduction::kNone);
  const auto reduced = run(cluster, reduced_by, options);
  const Cluster causal = cluster->with_watch_order(WatchOrder::kCausal);
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
    std::string problem;
    try {
      problem = replays(
          cluster, has_watch_order(reduced_by) ? serialize_schedule(causal, v->path) : v->path, i);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    if (problem.empty()) {
      ++c.replayed;
    } else {
      c.differences.push_back(cell + ": " + reduced.properties[i].name + ": " + problem);
    }
  }
}

Comparison compare_all(Symmetry::Options options, Reduction reduced_by = Reduction::kSymmetry) {
  Comparison c;
  std::vector<std::string> paths = committed_scenarios();
  paths.emplace_back(kStartOrderDecides);
  paths.emplace_back(kPriorityDecides);
  for (const std::string& path : paths) {
    for (const std::string profile : {"reference", "kubernetes"}) {
      const auto cluster = cluster_of(path, profile);
      compare_cluster(cluster, cluster->scenario().name + " " + profile, reduced_by, options, c);
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
                                    Comparison& tally,
                                    Reduction reduced_by = Reduction::kSymmetry) {
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
          compare_cluster(cluster, cluster_text(s) + " under " + profile, reduced_by, options, c);
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
    const World w = s.world.renamed(to).renamed(back);
    EXPECT_TRUE(w == s.world) << "step " << step;
    const spec::Ledger l = s.ledger.renamed(to).renamed(back);
    EXPECT_TRUE(l == s.ledger) << "step " << step;
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    if (enabled.empty())
      break;
    checker::Observation obs;
    s = model.next_state(s, enabled[static_cast<std::size_t>(step) % enabled.size()], obs);
  }
}

// Symmetry over the causal watch order (`--reduce watch-order,symmetry`): a renamed state keeps
// its pending events in the canonical serialization of the renamed pods, and the same
// comparisons hold, each reduced counterexample serialized into the FIFO model and replayed.

// A renaming commutes with every step, under the causal watch order too: the steps enabled in
// a renamed state are the renamed steps, and each leads to the renamed successor (World and
// Ledger), on every state of random walks of a scenario with alike pending pods (their starts
// are given as they bind) and alike running pods (their starts renamed with them). Fails
// when a causal field (a pod's clock, the happens-before masks) is left unrenamed or the
// renamed events are left out of their canonical serialization.
TEST(SymmetryOverWatchOrder, ARenamedStateStepsToTheRenamedSuccessors) {
  const std::string gang = R"(name: pending-gang
description: three alike pending workers preempting two alike running batch pods
nodes:
  - {name: node-1, cpu: 2}
  - {name: node-2, cpu: 2}
pods:
  - {name: batch-1, priority: 0, cpu: 1, node: node-1}
  - {name: batch-2, priority: 0, cpu: 1, node: node-1}
  - {name: batch-3, priority: 0, cpu: 2, node: node-2}
  - {name: w1, priority: 50, cpu: 1}
  - {name: w2, priority: 50, cpu: 1}
  - {name: w3, priority: 50, cpu: 1}
)";
  std::uint64_t x = 41;
  int compared = 0;
  for (const std::string profile : {"reference", "kubernetes", "kubernetes-prebind"}) {
    const auto cluster = cluster_of(gang, profile);
    WorldModel model(cluster);
    model.reduce(Reduction::kWatchOrderSymmetry);
    ASSERT_TRUE(model.cluster().is_causal());
    const int n = cluster->pod_count();
    // batch-1 <-> batch-2 (their start order renamed with them), w1 -> w2 -> w3 -> w1.
    std::array<PodId, kMaxPods> to{};
    for (int p = 0; p < n; ++p)
      to[p] = static_cast<PodId>(p);
    to[0] = 1;
    to[1] = 0;
    to[3] = 4;
    to[4] = 5;
    to[5] = 3;
    const auto rename_action = [&](Action a) {
      a.pod = a.pod == kNoPod ? kNoPod : to[a.pod];
      a.victim = a.victim == kNoPod ? kNoPod : to[a.victim];
      return a;
    };
    const auto key = [](const Action& a) {
      return std::tuple(static_cast<int>(a.kind), a.pod, a.victim, a.node);
    };
    const auto sorted = [&](std::vector<Action> v) {
      std::sort(v.begin(), v.end(),
                [&](const Action& a, const Action& b) { return key(a) < key(b); });
      return v;
    };
    for (int walk = 0; walk < 30; ++walk) {
      WorldState s = model.initial_state();
      for (int step = 0; step < 40; ++step) {
        const WorldState r{s.world.renamed(to), s.ledger.renamed(to)};
        std::vector<Action> enabled;
        model.enabled_actions(s, enabled);
        std::vector<Action> renamed_enabled;
        model.enabled_actions(r, renamed_enabled);
        std::vector<Action> expected;
        for (const Action& a : enabled)
          expected.push_back(rename_action(a));
        ASSERT_TRUE(sorted(expected) == sorted(renamed_enabled))
            << profile << " walk " << walk << " step " << step;
        if (enabled.empty())
          break;
        for (const Action& a : enabled) {
          checker::Observation obs;
          const WorldState next = model.next_state(s, a, obs);
          const WorldState renamed_next = model.next_state(r, rename_action(a), obs);
          EXPECT_TRUE(next.world.renamed(to) == renamed_next.world)
              << profile << " walk " << walk << " step " << step << ": "
              << format_action(a, model.cluster());
          EXPECT_TRUE(next.ledger.renamed(to) == renamed_next.ledger)
              << profile << " walk " << walk << " step " << step << ": "
              << format_action(a, model.cluster());
          ++compared;
        }
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        checker::Observation obs;
        s = model.next_state(s, enabled[(x >> 33) % enabled.size()], obs);
      }
    }
  }
  std::cout << compared << " steps compared with their renamed steps\n";
  EXPECT_GE(compared, 2000);
}

TEST(SymmetryOverWatchOrder,
     SameVerdictsWitnessesAndReplayingCounterexamplesOnEveryCommittedScenario) {
  const Comparison c = compare_all({}, Reduction::kWatchOrderSymmetry);
  std::cout << "compared " << c.compared << " scenario-profile cells (" << c.skipped
            << " skipped at the limit of " << kMaxStates << " states); " << c.replayed
            << " reduced counterexamples serialized and replayed unreduced\n";
  EXPECT_TRUE(c.differences.empty()) << ::testing::PrintToString(c.differences);
  EXPECT_GE(c.compared, 50);
  EXPECT_GT(c.replayed, 20);
}

TEST(SymmetryOverWatchOrder, TheComparisonCatchesPodsOfDifferentPriorityMadeInterchangeable) {
  Symmetry::Options unsound;
  unsound.priority = false;
  const Comparison c = compare_all(unsound, Reduction::kWatchOrderSymmetry);
  std::cout << "pods of any priority interchangeable: " << c.differences.size()
            << " differences in " << c.compared
            << " cells: " << ::testing::PrintToString(c.differences) << "\n";
  EXPECT_FALSE(c.differences.empty());
}

TEST(SymmetryOverWatchOrder, SameVerdictsOnThreeHundredGeneratedClustersWithAlikePods) {
  Comparison tally;
  const RapidCheckOutcome outcome =
      compare_generated(generated_seed(28), 300, {}, tally, Reduction::kWatchOrderSymmetry);
  std::cout << "compared " << tally.compared << " cluster-profile cells (" << tally.alike
            << " with alike pods, " << tally.skipped << " skipped at the limit of " << kMaxStates
            << " states); " << tally.replayed
            << " reduced counterexamples serialized and replayed unreduced\n";
  EXPECT_EQ(outcome.kind, RapidCheckOutcome::Kind::kSuccess) << outcome.message;
  EXPECT_EQ(outcome.successes, 300);
  EXPECT_GE(tally.compared, 500);
  EXPECT_GE(tally.alike, 300);
  EXPECT_GT(tally.replayed, 0);
}

// The saving, pinned: each reduction alone and both, each search to the end with the same
// outcome. Four alike victims: both together store fewer states than either alone (1/12 and
// 1/6.5 of the unreduced space). Equal-priority workers under `kubernetes`: the watch order's
// own bookkeeping (which pending writes each pod's next write depends on) splits more states
// than the serializations it merges, so both store more than symmetry alone; measured, and
// pinned so that a change to either shows.
TEST(SymmetryOverWatchOrder, StoresFewerStatesThanEitherReductionAloneOnAlikeVictims) {
  struct Pin {
    std::string scenario;
    std::string profile;
    std::uint64_t none;
    std::uint64_t symmetry;
    std::uint64_t watch_order;
    std::uint64_t both;
  };
  for (const Pin& pin :
       {Pin{"scenarios/four-victims.yaml", "reference", 21084, 19142, 2406, 1758},
        Pin{"scenarios/four-victims.yaml", "kubernetes", 31841, 18336, 14930, 4879},
        Pin{"scenarios/equal-priority-workers.yaml", "kubernetes", 50600, 41625, 53373, 43815}}) {
    const auto cluster = cluster_of(pin.scenario, pin.profile);
    const std::string cell = pin.scenario + " " + pin.profile;
    const Reduction all[4] = {Reduction::kNone, Reduction::kSymmetry, Reduction::kWatchOrder,
                              Reduction::kWatchOrderSymmetry};
    std::uint64_t got[4] = {};
    const auto plain = run(cluster, Reduction::kNone);
    for (int i = 0; i < 4; ++i) {
      const auto r = run(cluster, all[i]);
      EXPECT_TRUE(r.limit.empty()) << cell << " " << reduction_name(all[i]);
      EXPECT_EQ(r.outcome, plain.outcome) << cell << " " << reduction_name(all[i]);
      EXPECT_EQ(verdicts(r), verdicts(plain)) << cell << " " << reduction_name(all[i]);
      got[i] = r.stats.states;
    }
    EXPECT_EQ(got[0], pin.none) << cell;
    EXPECT_EQ(got[1], pin.symmetry) << cell;
    EXPECT_EQ(got[2], pin.watch_order) << cell;
    EXPECT_EQ(got[3], pin.both) << cell;
    if (pin.scenario == "scenarios/four-victims.yaml") {
      EXPECT_LT(got[3], std::min(got[1], got[2])) << cell;
    }
  }
}

}  // namespace
}  // namespace preemptcheck
