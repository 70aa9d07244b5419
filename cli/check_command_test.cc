// The `check` command: honest partial reports at its limits, its printed schedule, and its
// usage errors (the pinned scenario counts are in properties/scenarios_test.cc).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/check_command.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "spec/property.h"

namespace preemptcheck::cli {
namespace {

// --- Limits: an honest partial report, never a pass ------------------------------------------

// Runs `preemptcheck check ARGS` as the command does.
int run(std::vector<std::string> args, std::string& out) {
  args.insert(args.begin(), "check");
  std::ostringstream o;
  std::ostringstream e;
  int code = run_main(args, o, e);
  out = o.str() + e.str();
  return code;
}

TEST(cliLimits, MaxStatesStopsWithExitThreeAndNoPass) {
  std::string out;
  EXPECT_EQ(run({"--max-states", "100"}, out), kExitLimit);
  EXPECT_NE(out.find("INCOMPLETE"), std::string::npos) << out;
  EXPECT_NE(out.find("max-states"), std::string::npos) << out;
  EXPECT_EQ(out.find(" holds\n"), std::string::npos) << out;
  EXPECT_NE(out.find("100 states"), std::string::npos) << out;
}

TEST(cliLimits, NoStateLimitUnlessOneIsAsked) {
  CheckOptions o;
  EXPECT_FALSE(o.limits.max_states.has_value());
  std::string out;
  EXPECT_EQ(run({"--help"}, out), kExitHolds);
  EXPECT_NE(out.find("default: no limit"), std::string::npos) << out;
}

// A --property selection stops once each selected property is violated, as every property
// does without one, instead of searching on for properties it does not check.
TEST(cliLimits, PropertySelectionStopsWhenItsPropertiesAreViolated) {
  std::string out;
  EXPECT_EQ(run({"scenarios/three-preemptors.yaml", "--profile", "kubernetes", "--property",
                 "no-double-claim", "--quiet", "--json", "--threads", "2"},
                out),
            kExitViolated);
  const auto at = out.find("\"states\":");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_LT(std::stoull(out.substr(at + 9)), 1'000'000ULL) << out;
  EXPECT_NE(out.find("\"limit\":null"), std::string::npos) << out;
}

// The progress callback sees the committed figures: never decreasing, never past max_states.
TEST(cliLimits, ProgressNeverDecreasesNorPassesTheStateLimit) {
  auto cluster = std::make_shared<const Cluster>(load_scenario("bench/two-nodes.yaml"));
  const WorldModel model(cluster);
  checker::ExploreOptions<Action> opts;
  opts.threads = 2;
  opts.per_property = true;
  opts.progress_interval_seconds = 0;
  std::vector<std::uint64_t> seen;
  opts.progress = [&seen](const checker::Stats& s) { seen.push_back(s.states); };
  const checker::Limits limits{200'000, std::nullopt, std::nullopt};
  const auto r = explore_world(model, limits, opts);
  EXPECT_EQ(r.limit, checker::kMaxStatesLimit);
  ASSERT_GT(seen.size(), 2U);
  for (std::size_t i = 1; i < seen.size(); ++i)
    EXPECT_LE(seen[i - 1], seen[i]) << "at report " << i;
  EXPECT_LE(seen.back(), 200'000U);
  EXPECT_LE(seen.back(), r.stats.states);
}

TEST(cliLimits, MaxDepthStopsWithExitThree) {
  std::string out;
  EXPECT_EQ(run({"--max-depth", "5"}, out), kExitLimit);
  EXPECT_NE(out.find("max-depth"), std::string::npos) << out;
  EXPECT_EQ(out.find(" holds\n"), std::string::npos) << out;
}

TEST(cliLimits, TimeLimitStopsWithExitThree) {
  std::string out;
  EXPECT_EQ(run({"--time-limit", "0"}, out), kExitLimit);
  EXPECT_NE(out.find("time-limit"), std::string::npos) << out;
}

TEST(cliLimits, JsonReportsTheLimit) {
  std::string out;
  EXPECT_EQ(run({"--max-states", "10", "--json"}, out), kExitLimit);
  EXPECT_NE(out.find("\"outcome\":\"limit-reached\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"limit\":\"max-states\""), std::string::npos) << out;
}

TEST(cliLimits, AViolationFoundWithinTheLimitStillExitsOne) {
  std::string out;
  EXPECT_EQ(run({"--inflight=off", "--max-depth", "4"}, out), kExitViolated);
}

TEST(cliCheck, DefaultHoldsAndPrintsStatistics) {
  std::string out;
  EXPECT_EQ(run({}, out), kExitHolds);
  EXPECT_NE(out.find("8819 states"), std::string::npos) << out;
  EXPECT_NE(out.find("states/s"), std::string::npos) << out;
  EXPECT_NE(out.find("peak memory"), std::string::npos) << out;
  EXPECT_NE(out.find("blocking   the most any preemption cycle keeps kube-scheduler's scheduling "
                     "thread waiting: 3 API round trips with deletion=sync, 1 with "
                     "deletion=async"),
            std::string::npos)
      << out;
}

TEST(cliCheck, ViolationPrintsEveryStepWithItsComment) {
  std::string out;
  EXPECT_EQ(run({"--inflight=off"}, out), kExitViolated);
  EXPECT_NE(out.find("VIOLATED no-double-victim"), std::string::npos) << out;
  EXPECT_NE(out.find("1. schedule p-high"), std::string::npos) << out;
  EXPECT_NE(out.find("4. schedule p-high"), std::string::npos) << out;
}

TEST(cliCheck, UnknownMechanismValueIsUsageError) {
  std::string error;
  EXPECT_FALSE(parse_check_args({"--inflight=maybe"}, error).has_value());
  EXPECT_NE(error.find("on, preemptor-only, off"), std::string::npos) << error;
  EXPECT_FALSE(parse_check_args({"--bogus"}, error).has_value());
  EXPECT_FALSE(parse_check_args({"--max-states", "lots"}, error).has_value());
  EXPECT_FALSE(parse_check_args({"--property", "takeover"}, error).has_value());
}

TEST(cliCheck, UnknownProfileExitsTwo) {
  std::string out;
  EXPECT_EQ(run({"--profile", "nonsense"}, out), kExitBadInput);
  EXPECT_NE(out.find("unknown profile"), std::string::npos) << out;
}

TEST(cliCheck, BadScenarioExitsTwoNamingFileLineAndColumn) {
  const auto path = std::filesystem::temp_directory_path() / "preemptcheck-bad-scenario.yaml";
  {
    std::ofstream f(path);
    f << "name: bad\ndescription: a pod on a node that does not exist\nnodes:\n"
         "  - {name: node-a, cpu: 4}\npods:\n  - {name: v1, cpu: 1, node: node-z}\n";
  }
  std::string out;
  EXPECT_EQ(run({path.string()}, out), kExitBadInput);
  EXPECT_NE(out.find(path.string() + ":6:"), std::string::npos) << out;
  EXPECT_NE(out.find("node-z"), std::string::npos) << out;
  std::filesystem::remove(path);
}

TEST(cliCheck, MissingScenarioFileExitsTwo) {
  std::string out;
  EXPECT_EQ(run({"scenarios/does-not-exist.yaml"}, out), kExitBadInput);
}

}  // namespace
}  // namespace preemptcheck::cli
