// The stateful suite: rc::state commands are the World's actions, chosen at random among
// those enabled, on clusters too large to explore (3–4 nodes, 9–12 pods, 3–4 of them
// pending); every step is checked. Under `reference` the properties without an open finding
// hold; a planted defect — victim selection that ignores the in-flight set (inflight=off),
// or a filter that does not yet see the nominations it should (nomination=async) — is caught
// and shrunk to a schedule of at most 8 steps, which is written and replays.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/search_command.h"
#include "cli/search_test_support.h"
#include "properties/stateful.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

using testing_support::expect_written_and_replayed;

struct Stateful {
  cli::SearchCommandOptions options;
  StatefulOptions stateful;
  StatefulResult result;
  std::string command;
};

std::string figures(const BrokenSchedule& b) {
  return fmt::format("{}, {} steps", cluster_size(b.scenario), b.steps.size());
}

// Runs what `preemptcheck search --stateful ARGS` runs, printing its command and outcome.
Stateful walk(std::vector<std::string> args) {
  args.insert(args.begin(), "--stateful");
  Stateful s;
  std::string error;
  auto options = cli::parse_search_args(args, error);
  EXPECT_TRUE(options.has_value()) << error;
  s.options = *options;
  s.stateful = *cli::to_stateful_options(s.options, *s.options.seed, error);
  s.command = cli::search_command_line(s.options, *s.options.seed);
  std::cout << "seed " << *s.options.seed << ": " << s.command << "\n";
  s.result = run_stateful(s.stateful);
  const StatefulResult& r = s.result;
  std::cout << fmt::format("{} runs, {} steps, {:.2f} s\n", r.runs, r.steps, r.seconds);
  if (r.found) {
    std::cout << fmt::format("found   {}: {}\nshrunk  {} ({} of {} kept)\nreduced {}\n",
                             r.found->property, figures(*r.found), figures(*r.shrunk),
                             r.shrinks_accepted, r.shrinks_tried, figures(*r.reduced))
              << cluster_text(r.reduced->scenario);
  }
  return s;
}

TEST(propertiesStateful, ReferenceHoldsOnRandomWalks) {
  const Stateful s = walk({"--seed", "11", "--runs", "1000"});
  SCOPED_TRACE("reproduce: " + s.command);
  ASSERT_EQ(s.result.outcome, StatefulResult::Outcome::kHolds) << s.result.message;
  EXPECT_EQ(s.result.runs, 1000);
  EXPECT_GT(s.result.steps, 1000U * 20U);
}

struct Defect {
  std::string name;
  std::string planted;  ///< the switch that plays the defect
  std::string property;
  std::string seed;  ///< a seed whose first failing run is long, so shrinking shows
};

void PrintTo(const Defect& d, std::ostream* os) { *os << d.name; }

class PlantedDefect : public ::testing::TestWithParam<Defect> {};

TEST_P(PlantedDefect, IsCaughtAndShrunkToAtMostEightSteps) {
  const Defect& d = GetParam();
  const Stateful s = walk({"--seed", d.seed, "--runs", "300", d.planted, "--property", d.property});
  SCOPED_TRACE("reproduce: " + s.command);
  ASSERT_EQ(s.result.outcome, StatefulResult::Outcome::kViolated) << s.result.message;
  const StatefulResult& r = s.result;
  EXPECT_EQ(r.shrunk->property, d.property);
  EXPECT_GT(r.found->steps.size(), 8U) << "pick a seed whose failing run needs shrinking";
  EXPECT_LE(r.shrunk->steps.size(), 8U) << "RapidCheck's shrunk schedule";
  EXPECT_LE(r.reduced->steps.size(), r.shrunk->steps.size());
  EXPECT_LT(cluster_weight(r.reduced->scenario), cluster_weight(r.shrunk->scenario));

  // The breadth-first shortest schedule for the reduced cluster, for comparison.
  std::bitset<spec::kPropertyCount> one;
  one.set(static_cast<std::size_t>(*spec::find_property(d.property)));
  WorldModel model(std::make_shared<const Cluster>(r.reduced->scenario), one);
  const auto bfs = explore_world(model, checker::Limits{1'000'000, {}, {}});
  ASSERT_TRUE(bfs.violation.has_value());
  std::cout << fmt::format("{}: shrunk {} steps, reduced {} steps, breadth-first shortest {}\n",
                           d.name, r.shrunk->steps.size(), r.reduced->steps.size(),
                           bfs.violation->path.size());
  EXPECT_GE(r.reduced->steps.size(), bfs.violation->path.size());

  // Without the defect the same schedule breaks nothing (or cannot run).
  Scenario fixed = r.reduced->scenario;
  fixed.mechanisms = Mechanisms{};
  EXPECT_FALSE(
      broken_schedule(fixed, replay_schedule(fixed, r.reduced->steps, one, StopAt::kFirstViolation))
          .has_value());

  const Counterexample cx =
      stateful_counterexample(*r.found, *r.reduced, s.stateful.checked, *s.options.seed, s.command);
  EXPECT_EQ(cx.found_by.method, "rapidcheck-stateful");
  EXPECT_FALSE(cx.found_by.shortest);
  expect_written_and_replayed(cx, "stateful-" + d.name, d.property);
}

INSTANTIATE_TEST_SUITE_P(properties, PlantedDefect,
                         ::testing::Values(Defect{"victims_ignore_the_in_flight_set",
                                                  "--inflight=off", "no-double-victim", "3"},
                                           Defect{"filter_ignores_fresh_nominations",
                                                  "--nomination=async", "no-double-claim", "5"}),
                         [](const auto& param_info) { return param_info.param.name; });

// A show() of every command reads as the schedule: one action line per step.
TEST(propertiesStateful, ShrunkRunsReadAsSchedules) {
  const Stateful s = walk({"--seed", "3", "--runs", "300", "--inflight=off"});
  ASSERT_EQ(s.result.outcome, StatefulResult::Outcome::kViolated);
  std::cout << s.result.message;
  const Cluster cluster(s.result.shrunk->scenario);
  for (const Action& a : s.result.shrunk->steps) {
    EXPECT_NE(s.result.message.find(format_action(a, cluster)), std::string::npos)
        << s.result.message;
  }
}

TEST(propertiesStateful, IsDeterministic) {
  const Stateful a = walk({"--seed", "4", "--runs", "200", "--inflight=off"});
  const Stateful b = walk({"--seed", "4", "--runs", "200", "--inflight=off"});
  ASSERT_TRUE(a.result.reduced && b.result.reduced);
  EXPECT_EQ(a.result.runs, b.result.runs);
  EXPECT_EQ(a.result.shrunk->steps, b.result.shrunk->steps);
  EXPECT_EQ(cluster_text(a.result.reduced->scenario), cluster_text(b.result.reduced->scenario));
}

}  // namespace
}  // namespace preemptcheck
