// The scenario-level suite: RapidCheck generates clusters, each is explored exhaustively.
// Under `reference` the properties without an open finding hold on every generated cluster;
// each switch of the pinned table breaks what it guards on a small cluster RapidCheck finds
// and shrinks (differentially: the profile alone holds on that cluster); the findings the
// search made under `reference` are pinned; every counterexample is written and replays.
// Every search is the one `preemptcheck search` runs with the same words, printed first.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/search_command.h"
#include "properties/property_test_support.h"
#include "properties/search.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

using testing_support::expect_written_and_replayed;

struct Search {
  cli::SearchCommandOptions options;
  SearchOptions search;
  SearchResult result;
  std::string command;
};

// Runs what `preemptcheck search ARGS` runs, printing its command line and outcome.
Search search(const std::vector<std::string>& args) {
  Search s;
  std::string error;
  auto options = cli::parse_search_args(args, error);
  EXPECT_TRUE(options.has_value()) << error;
  EXPECT_TRUE(options->seed.has_value()) << "every search here has a fixed seed";
  s.options = *options;
  s.search = *cli::to_search_options(s.options, *s.options.seed, error);
  s.command = cli::search_command_line(s.options, *s.options.seed);
  std::cout << "seed " << *s.options.seed << ": " << s.command << "\n";
  s.result = run_search(s.search);
  const SearchResult& r = s.result;
  std::cout << fmt::format("{} clusters, {} cut, {} states, {} transitions, {:.2f} s\n",
                           r.clusters, r.cut, r.states, r.transitions, r.seconds);
  if (r.found) {
    std::cout << fmt::format("found  {}: {}, {} steps\nshrunk {}: {}, {} steps ({} of {} kept)\n",
                             r.found->result.violation->name, cluster_size(r.found->scenario),
                             r.found->steps(), r.shrunk->result.violation->name,
                             cluster_size(r.shrunk->scenario), r.shrunk->steps(),
                             r.shrinks_accepted, r.shrinks_tried)
              << cluster_text(r.shrunk->scenario);
  }
  return s;
}

std::vector<std::string> words(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The shrunk cluster's schedule is its breadth-first shortest, and it is written and replays.
void expect_shortest_and_replayed(const Search& s, const std::string& name) {
  const FailingCluster& shrunk = *s.result.shrunk;
  WorldModel model(std::make_shared<const Cluster>(shrunk.scenario), s.search.checked);
  const auto bfs = checker::explore(model, checker::Limits{s.search.max_states, {}, {}});
  ASSERT_TRUE(bfs.violation.has_value());
  EXPECT_EQ(bfs.violation->path, shrunk.result.violation->path);
  const cli::Counterexample cx = cli::search_counterexample(
      *s.result.found, shrunk, s.search.checked, *s.options.seed, s.command);
  EXPECT_EQ(cx.found_by.method, "rapidcheck");
  EXPECT_EQ(cx.found_by.seed, s.options.seed);
  expect_written_and_replayed(cx, name, shrunk.result.violation->name);
}

int running_pods(const Scenario& s) {
  int n = 0;
  for (const PodSpec& p : s.pods) n += p.node.empty() ? 0 : 1;
  return n;
}

// --- Findings under `reference` ----------------------------------------------------------
//
// Classes of violations the search found under `reference` on generated clusters, each
// pinned with the search that finds it. While a finding is open its property is left out of
// the reference test below; when the model or the monitor changes so that a finding no
// longer reproduces, its test fails: remove it here, and the reference test checks that
// property again.
struct Finding {
  std::string name;
  std::string property;
  std::vector<std::string> args;  ///< the search, without --property
  std::size_t max_nodes;          ///< the shrunk cluster's size this search reaches
  std::size_t max_pods;
  std::string step;               ///< an action keyword the schedule must contain, if any
};

void PrintTo(const Finding& f, std::ostream* os) { *os << f.name; }

const std::vector<Finding>& reference_findings() {
  static const std::vector<Finding> kFindings = {
      // A pod unschedulable only because of another pod's nomination is not woken when that
      // nomination is cleared (its holder found no room): status-only updates move nothing.
      {"cleared_nomination_wakes_nobody", "no-lost-wakeup",
       {"--seed", "5", "--runs", "3000", "--max-nodes", "1", "--max-pods", "4", "--max-faults", "0"},
       1, 4, ""},
      // A preemptor activated at the end of its job, before the informer shows its victim
      // terminating, chooses a second victim after the victim's (older) bind event arrives.
      {"own_victim_forgotten_after_its_bind_event", "no-over-preemption",
       {"--seed", "2", "--runs", "1000", "--max-nodes", "2", "--max-pods", "5", "--max-faults", "0"},
       1, 3, ""},
      // A pod unschedulable only because its victim was in another job's in-flight set is not
      // woken when that job's eviction fails and frees the victim.
      {"failed_eviction_wakes_nobody", "no-lost-wakeup",
       {"--seed", "3", "--runs", "200", "--max-nodes", "1", "--max-pods", "3"}, 1, 3,
       "evict-fails"},
      // A pod deleted while its binding was in flight is still scheduled from the informer's
      // stale view; its nomination then counts as a standing claim of a pod that is gone.
      {"claim_of_a_deleted_pod", "no-double-claim",
       {"--seed", "1", "--runs", "200", "--max-nodes", "2", "--max-pods", "4"}, 2, 4,
       "bind-fails"},
  };
  return kFindings;
}

class ReferenceFinding : public ::testing::TestWithParam<Finding> {};

TEST_P(ReferenceFinding, IsFoundAndShrunk) {
  const Finding& f = GetParam();
  const Search s = search(words(f.args, {"--property", f.property}));
  SCOPED_TRACE("reproduce: " + s.command);
  ASSERT_EQ(s.result.outcome, SearchResult::Outcome::kViolated)
      << "the finding no longer reproduces: remove it from reference_findings()";
  const FailingCluster& shrunk = *s.result.shrunk;
  EXPECT_EQ(shrunk.result.violation->name, f.property);
  EXPECT_LE(shrunk.scenario.nodes.size(), f.max_nodes);
  EXPECT_LE(shrunk.scenario.pods.size(), f.max_pods);
  if (!f.step.empty()) {
    bool seen = false;
    for (const Action& a : shrunk.result.violation->path) {
      seen = seen || action_keyword(a.kind) == f.step;
    }
    EXPECT_TRUE(seen) << "the schedule has no '" << f.step << "' step";
  }
  expect_shortest_and_replayed(s, "finding-" + f.name);
}

INSTANTIATE_TEST_SUITE_P(properties, ReferenceFinding, ::testing::ValuesIn(reference_findings()),
                         [](const auto& param_info) { return param_info.param.name; });

// --- Reference --------------------------------------------------------------------------

TEST(propertiesSearch, OpenFindingsAreThePinnedOnes) {
  std::bitset<spec::kPropertyCount> pinned;
  for (const Finding& f : reference_findings()) {
    pinned.set(static_cast<std::size_t>(*spec::find_property(f.property)));
  }
  EXPECT_EQ(pinned, testing_support::open_finding_properties());
}

TEST(propertiesSearch, ReferenceHoldsOnEveryGeneratedCluster) {
  const Search s = search(words({"--seed", "7", "--runs", "1000"},
                                testing_support::clean_property_args()));
  SCOPED_TRACE("reproduce: " + s.command);
  ASSERT_EQ(s.result.outcome, SearchResult::Outcome::kHolds)
      << (s.result.shrunk ? s.result.shrunk->result.violation->message : s.result.message);
  EXPECT_EQ(s.result.clusters, 1000);
  EXPECT_LE(s.result.cut, 5) << "the per-cluster limit cuts too many clusters";
  EXPECT_GT(s.result.states, 0U);
}

// --- Each switch breaks what it guards --------------------------------------------------

// The pinned table of cli/scenarios_test.cc, as searches: the switches (a profile, when not
// `reference`), the property, and the size of the shrunk cluster this seed reaches.
struct Switch {
  std::string name;
  std::vector<std::string> switches;
  std::string property;
  std::size_t max_nodes;
  std::size_t max_pods;
};

void PrintTo(const Switch& s, std::ostream* os) { *os << s.name; }

const std::vector<Switch>& switches() {
  static const std::vector<Switch> kSwitches = {
      {"inflight_off", {"--inflight=off"}, "no-double-victim", 1, 2},
      {"nomination_async", {"--nomination=async"}, "no-double-claim", 1, 3},
      {"assume_off", {"--assume=off"}, "no-overcommit", 1, 2},
      {"hold_until_done_without_activation",
       {"--gate=hold-until-done", "--activate-on-finish=off"}, "no-lost-wakeup", 1, 2},
      {"kubernetes_release_before_last",
       {"--profile", "kubernetes", "--gate=release-before-last"}, "no-double-victim", 1, 2},
      {"inflight_preemptor_only", {"--inflight=preemptor-only"}, "no-double-victim", 1, 2},
      {"activate_on_finish_off", {"--activate-on-finish=off"}, "no-lost-wakeup", 1, 2},
      // kubernetes-1.32 is kubernetes with gate=release-before-last.
      {"kubernetes_1_32_over_preemption",
       {"--profile", "kubernetes", "--gate=release-before-last"}, "no-over-preemption", 2, 3},
  };
  return kSwitches;
}

class SwitchSearch : public ::testing::TestWithParam<Switch> {};

TEST_P(SwitchSearch, FindsAndShrinksASmallClusterTheProfileAloneHolds) {
  const Switch& sw = GetParam();
  const Search s = search(words({"--seed", "2", "--runs", "300", "--differential", "--property",
                                 sw.property},
                                sw.switches));
  SCOPED_TRACE("reproduce: " + s.command);
  ASSERT_EQ(s.result.outcome, SearchResult::Outcome::kViolated) << s.result.message;
  const FailingCluster& shrunk = *s.result.shrunk;
  EXPECT_EQ(shrunk.result.violation->name, sw.property);
  EXPECT_TRUE(shrunk.baseline.has_value()) << "the profile alone must hold on the cluster";
  EXPECT_LE(shrunk.scenario.nodes.size(), sw.max_nodes);
  EXPECT_LE(shrunk.scenario.pods.size(), sw.max_pods);
  EXPECT_LE(cluster_weight(shrunk.scenario), cluster_weight(s.result.found->scenario));
  std::cout << fmt::format("{}: {} running; shortest schedule {} steps\n", sw.name,
                           running_pods(shrunk.scenario), shrunk.steps());
  expect_shortest_and_replayed(s, "switch-" + sw.name);
}

INSTANTIATE_TEST_SUITE_P(properties, SwitchSearch, ::testing::ValuesIn(switches()),
                         [](const auto& param_info) { return param_info.param.name; });

// --- Determinism and limits ------------------------------------------------------------------

TEST(propertiesSearch, IsDeterministic) {
  const std::vector<std::string> args = {"--seed", "9", "--runs", "100", "--nomination=async"};
  const Search a = search(args);
  const Search b = search(args);
  ASSERT_EQ(a.result.outcome, SearchResult::Outcome::kViolated);
  ASSERT_EQ(b.result.outcome, SearchResult::Outcome::kViolated);
  EXPECT_EQ(a.result.clusters, b.result.clusters);
  EXPECT_EQ(a.result.shrinks_tried, b.result.shrinks_tried);
  EXPECT_EQ(cluster_text(a.result.found->scenario), cluster_text(b.result.found->scenario));
  EXPECT_EQ(cluster_text(a.result.shrunk->scenario), cluster_text(b.result.shrunk->scenario));
  EXPECT_EQ(a.result.shrunk->result.violation->path, b.result.shrunk->result.violation->path);
}

// A cluster the per-cluster limit cuts is counted as cut, never as checked; with too many
// cut, the search gives up and says how many it explored completely.
TEST(propertiesSearch, ClustersCutByTheLimitAreNeverCountedAsPassing) {
  const Search s = search({"--seed", "1", "--runs", "50", "--max-states", "1"});
  EXPECT_EQ(s.result.outcome, SearchResult::Outcome::kGaveUp);
  EXPECT_LT(s.result.clusters, 50);
  EXPECT_GT(s.result.cut, 0);
  EXPECT_FALSE(s.result.shrunk.has_value());
}

}  // namespace
}  // namespace preemptcheck
