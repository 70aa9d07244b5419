// The causal watch order (--reduce watch-order), shown exact rather than argued (SPEC §12):
// on every committed scenario under `reference` and `kubernetes` whose FIFO space fits the
// bound, the quotient reaches exactly the states the FIFO model reaches, compared with the
// serialization of concurrent writes forgotten on both sides; on every scenario and on
// generated clusters, the per-property verdicts, the witnesses reached and the counterexample
// lengths are the same, and every counterexample the reduced search finds, written as a FIFO
// schedule (serialize_schedule), replays step by step in the FIFO model and ends in its
// violation. The unsound variant that keeps only each object's own order (any-pod delivery)
// is caught by the same comparisons.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "impl/watch_order.h"
#include "properties/committed_scenarios.h"
#include "properties/generators.h"
#include "properties/rapidcheck_run.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

constexpr std::uint64_t kMaxStates = 150'000;
// The FIFO spaces whose every state is compared one by one.
constexpr std::size_t kMaxCompared = 40'000;

std::shared_ptr<const Cluster> cluster_of(const std::string& path, const std::string& profile) {
  Scenario s = load_scenario_file(path);
  MechanismChoice choice;
  choice.profile = profile;
  const auto error = apply_choice(s, choice);
  EXPECT_FALSE(error.has_value()) << error.value_or("");
  return std::make_shared<const Cluster>(s);
}

checker::Result<Action> run(const std::shared_ptr<const Cluster>& cluster, WatchOrder order,
                            unsigned threads = 1, std::uint64_t max_states = kMaxStates) {
  WorldModel model(cluster);
  model.set_watch_order(order);
  checker::ExploreOptions<Action> opts;
  opts.threads = threads;
  opts.per_property = true;
  return explore_world(model, checker::Limits{max_states, std::nullopt, std::nullopt}, opts);
}

// Every state a search of `fifo` under `order` reaches, as the fingerprint of the state with
// the serialization forgotten (World::without_serialization) and its ledger; nothing when
// there are more than kMaxCompared.
std::optional<std::set<std::uint64_t>> reached(const std::shared_ptr<const Cluster>& fifo,
                                               WatchOrder order) {
  WorldModel model(fifo);
  model.set_watch_order(order);
  std::unordered_set<std::uint64_t> visited;
  std::set<std::uint64_t> out;
  std::deque<WorldState> frontier{model.initial_state()};
  visited.insert(model.fingerprint(frontier.front()));
  std::vector<Action> enabled;
  while (!frontier.empty()) {
    const WorldState s = frontier.front();
    frontier.pop_front();
    out.insert(s.ledger.fingerprint(s.world.without_serialization(*fifo).fingerprint()));
    if (out.size() > kMaxCompared)
      return std::nullopt;
    enabled.clear();
    model.enabled_actions(s, enabled);
    for (const Action& a : enabled) {
      checker::Observation obs;
      WorldState next = model.next_state(s, a, obs);
      if (visited.insert(model.fingerprint(next)).second)
        frontier.push_back(next);
    }
  }
  return out;
}

// Each property's verdict, and the witnesses reached when the whole space was searched.
std::map<std::string, std::string> verdicts(const checker::Result<Action>& r) {
  std::map<std::string, std::string> out;
  bool whole = r.outcome == checker::Outcome::kHolds;
  for (std::size_t i = 0; i < r.property_results.size(); ++i) {
    if (r.properties[i].kind == checker::PropertyKind::kAlways) {
      out[r.properties[i].name] = std::string(property_status_name(r.property_results[i].status));
      whole = whole || r.property_results[i].status == checker::PropertyStatus::kHolds;
    }
  }
  if (whole) {
    for (std::size_t i = 0; i < r.reached.size(); ++i) {
      if (r.properties[i].kind == checker::PropertyKind::kSometimes)
        out[r.properties[i].name] = r.reached[i] ? "reached" : "not reached";
    }
  }
  return out;
}

// Replays `path`, a FIFO schedule, in the FIFO model: every step enabled, and the last one
// reports `property` violated. Empty when it does; otherwise what went wrong.
std::string replays(const std::shared_ptr<const Cluster>& cluster, const std::vector<Action>& path,
                    std::size_t property) {
  const WorldModel model(cluster);
  WorldState s = model.initial_state();
  checker::Observation obs;
  if (path.empty())
    model.check_initial(s, obs);
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!s.world.is_enabled(path[i]))
      return "step " + std::to_string(i + 1) + " is not enabled";
    obs.clear();
    s = model.next_state(s, path[i], obs);
  }
  for (const auto& [p, message] : obs.violated) {
    if (p == property)
      return {};
  }
  return "the last step does not violate the property";
}

struct Comparison {
  int compared = 0;
  int skipped = 0;
  int replayed = 0;
  std::uint64_t fifo_states = 0;
  std::uint64_t reduced_states = 0;
  std::vector<std::string> differences;
  std::vector<std::string> limits;  ///< the cells skipped, and why
};

// One cluster searched in FIFO order and under `order`: verdicts, witnesses, counterexample
// lengths, and every reduced counterexample serialized and replayed in the FIFO model.
void compare_cluster(const std::shared_ptr<const Cluster>& cluster, const std::string& cell,
                     WatchOrder order, Comparison& c, std::uint64_t max_states = kMaxStates) {
  const auto plain = run(cluster, WatchOrder::kFifo, 2, max_states);
  const auto reduced = run(cluster, order, 2, max_states);
  if (!plain.limit.empty() || !reduced.limit.empty()) {
    ++c.skipped;
    c.limits.push_back(cell + ": " + plain.limit + " " + plain.limit_detail + " / " +
                       reduced.limit + " " + reduced.limit_detail);
    return;
  }
  ++c.compared;
  c.fifo_states += plain.stats.states;
  c.reduced_states += reduced.stats.states;
  if (verdicts(plain) != verdicts(reduced)) {
    c.differences.push_back(
        cell + ": verdicts or witnesses differ: " + ::testing::PrintToString(verdicts(plain)) +
        " against " + ::testing::PrintToString(verdicts(reduced)));
  }
  for (std::size_t i = 0; i < plain.property_results.size(); ++i) {
    const auto& a = plain.property_results[i].violation;
    const auto& b = reduced.property_results[i].violation;
    if (a && b && a->path.size() != b->path.size()) {
      c.differences.push_back(cell + ": " + plain.properties[i].name +
                              ": counterexample lengths differ");
    }
  }
  const Cluster causal = cluster->with_watch_order(order);
  for (std::size_t i = 0; i < reduced.property_results.size(); ++i) {
    const auto& v = reduced.property_results[i].violation;
    if (!v)
      continue;
    std::string problem;
    try {
      problem = replays(cluster, serialize_schedule(causal, v->path), i);
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
