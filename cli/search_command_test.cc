// The `search` command: its options, its report (seed, progress, shrink figures, the
// counterexample file and the command that reproduces it), its exit codes, and honesty about
// clusters a limit cut.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"
#include "impl/mechanisms.h"

namespace preemptcheck::cli {
namespace {

struct Output {
  int code = 0;
  std::string out;
  std::string err;
};

// Runs `preemptcheck search ARGS` as the command does.
Output run(std::vector<std::string> args) {
  args.insert(args.begin(), "search");
  Output o;
  std::ostringstream out;
  std::ostringstream err;
  o.code = run_main(args, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("preemptcheck-search-" + std::to_string(::getpid()) + "-" + name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

TEST(cliSearch, ParsesItsOptions) {
  std::string error;
  auto o = parse_search_args(
      {"--runs", "7", "--seed=42", "--max-nodes", "2", "--max-pods=5", "--max-faults", "0",
       "--max-states", "1000", "--profile", "kubernetes", "--gate=release-before-last",
       "--property", "no-double-victim", "--out", "dir", "--differential"},
      error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->runs, 7);
  EXPECT_EQ(o->seed, 42U);
  EXPECT_EQ(o->max_nodes, 2);
  EXPECT_EQ(o->max_pods, 5);
  EXPECT_EQ(o->max_faults, 0);
  EXPECT_EQ(o->max_states, 1000U);
  EXPECT_EQ(o->mechanisms.profile, "kubernetes");
  EXPECT_EQ(o->mechanisms.switches.size(), 1U);
  EXPECT_EQ(o->checked.count(), 1U);
  EXPECT_EQ(o->out_dir, "dir");
  EXPECT_TRUE(o->differential);
  EXPECT_EQ(search_command_line(*o, 42),
            "preemptcheck search --seed 42 --runs 7 --max-nodes 2 --max-pods 5 --max-faults 0 "
            "--differential --max-states 1000 --profile kubernetes --gate=release-before-last "
            "--property no-double-victim --out dir");
}

TEST(cliSearch, RejectsBadOptions) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--runs", "0"},
           {"--runs", "many"},
           {"--seed", "-1"},
           {"--max-nodes", "9"},
           {"--max-pods", "33"},
           {"--max-pods", "0"},
           {"--max-faults", "4"},
           {"--max-states", "0"},
           {"--property", "takeover"},
           {"--inflight=maybe"},
           {"--bogus"},
           {"scenario.yaml"},
           {"--stateful", "--differential"},
       }) {
    std::string error;
    EXPECT_FALSE(parse_search_args(args, error).has_value()) << args[0];
    EXPECT_FALSE(error.empty());
  }
}

TEST(cliSearch, UnknownProfileExitsTwo) {
  const Output o = run({"--seed", "1", "--runs", "1", "--profile", "nonsense"});
  EXPECT_EQ(o.code, kExitBadInput);
  EXPECT_TRUE(contains(o.err, "unknown profile")) << o.err;
}

TEST(cliSearch, UsageNamesTheCommand) {
  EXPECT_TRUE(contains(usage_text(), "search"));
  EXPECT_TRUE(contains(usage_text(), "--max-pods"));
  EXPECT_TRUE(contains(command_help("search"), "--max-pods"));
  EXPECT_FALSE(contains(command_help("check"), "--max-pods"));
}

TEST(cliSearch, UsageListsEveryMechanismAndProfile) {
  for (std::string_view name : mechanism_names()) {
    EXPECT_TRUE(contains(usage_text(), fmt::format("--{}=", name))) << name;
  }
  for (std::string_view name : profile_names()) {
    EXPECT_TRUE(contains(usage_text(), std::string(name))) << name;
  }
}

TEST(cliSearch, NoViolationReportsClustersAndStatesAndExitsZero) {
  const Output o = run({"--seed", "3", "--runs", "40", "--property", "no-double-victim"});
  EXPECT_EQ(o.code, kExitHolds) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "search     seed 3, 40 clusters")) << o.out;
  EXPECT_TRUE(contains(o.out, "result     no violation in 40 clusters")) << o.out;
  EXPECT_TRUE(contains(o.out, "and all of their schedules, explored exhaustively")) << o.out;
  EXPECT_TRUE(contains(o.out, "(exit 0)")) << o.out;
}

TEST(cliSearch, AViolationIsShrunkWrittenAndReplays) {
  const std::string dir = scratch("violation");
  const Output o = run({"--seed", "2", "--runs", "100", "--inflight=off", "--property",
                        "no-double-victim", "--out", dir});
  EXPECT_EQ(o.code, kExitViolated) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "found      no-double-victim in cluster ")) << o.out;
  EXPECT_TRUE(contains(o.out, "shrunk     to 1 node, 2 pods")) << o.out;
  EXPECT_TRUE(contains(o.out, "VIOLATED   no-double-victim")) << o.out;
  EXPECT_TRUE(contains(o.out, "schedule   (breadth-first, shortest for this cluster)")) << o.out;
  EXPECT_TRUE(contains(o.out, "reproduce  preemptcheck search --seed 2 --runs 100")) << o.out;
  const std::string file = dir + "/no-double-victim--search-2--inflight-off.yaml";
  ASSERT_TRUE(std::filesystem::exists(file)) << o.out;
  EXPECT_TRUE(contains(o.out, "counterexample " + file)) << o.out;

  const Counterexample cx = load_counterexample_file(file);
  EXPECT_EQ(cx.found_by.method, "rapidcheck");
  EXPECT_EQ(cx.found_by.seed, 2U);
  EXPECT_TRUE(contains(cx.found_by.shrunk, " -> 1 node, 2 pods, 4 steps")) << cx.found_by.shrunk;
  ReplayOptions replay;
  replay.file = file;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_replay(replay, out, err), kExitViolated) << out.str() << err.str();
  std::filesystem::remove_all(dir);
}

TEST(cliSearch, DifferentialSaysWhatTheProfileAloneDoes) {
  const Output o = run({"--seed", "2", "--runs", "100", "--differential", "--assume=off",
                        "--property", "no-overcommit"});
  EXPECT_EQ(o.code, kExitViolated) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "differential a cluster fails only if profile reference alone"))
      << o.out;
  EXPECT_TRUE(contains(o.out, "baseline   profile reference alone holds on this cluster")) << o.out;
}

TEST(cliSearch, WithoutOutItSaysHowToWriteTheFile) {
  const Output o = run({"--seed", "2", "--runs", "100", "--assume=off"});
  EXPECT_EQ(o.code, kExitViolated);
  EXPECT_TRUE(contains(o.out, "add --out DIR")) << o.out;
}

// Clusters the per-cluster limit cuts are reported and never counted; when too many are cut
// to explore the number asked for, the search is incomplete: exit 3.
TEST(cliSearch, TooManyClustersCutIsIncompleteWithExitThree) {
  const Output o = run({"--seed", "1", "--runs", "50", "--max-states", "1"});
  EXPECT_EQ(o.code, kExitLimit) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "INCOMPLETE")) << o.out;
  EXPECT_TRUE(contains(o.out, "cut by the limit of 1 state")) << o.out;
  EXPECT_FALSE(contains(o.out, "no violation in 50")) << o.out;
}

TEST(cliSearch, SomeClustersCutAreReportedApart) {
  const Output o =
      run({"--seed", "1", "--runs", "30", "--max-states", "400", "--property", "no-overcommit"});
  EXPECT_EQ(o.code, kExitHolds) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "no violation in 30 clusters")) << o.out;
  EXPECT_TRUE(contains(o.out, "cut by the limit of 400 states and not counted")) << o.out;
}

TEST(cliSearch, StatefulFindsShrinksAndReducesAPlantedDefect) {
  const std::string dir = scratch("stateful");
  const Output o =
      run({"--stateful", "--seed", "1", "--runs", "200", "--inflight=off", "--out", dir});
  EXPECT_EQ(o.code, kExitViolated) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "search     stateful, seed 1")) << o.out;
  EXPECT_TRUE(contains(o.out, "shrunk     to ")) << o.out;
  EXPECT_TRUE(contains(o.out, "reduced    to ")) << o.out;
  EXPECT_TRUE(contains(o.out, "shortest   ")) << o.out;
  const std::string file = dir + "/no-double-victim--stateful-1--inflight-off.yaml";
  ASSERT_TRUE(std::filesystem::exists(file)) << o.out;
  ReplayOptions replay;
  replay.file = file;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_replay(replay, out, err), kExitViolated) << out.str() << err.str();
  std::filesystem::remove_all(dir);
}

TEST(cliSearch, StatefulWithoutViolationExitsZero) {
  const Output o =
      run({"--stateful", "--seed", "1", "--runs", "20", "--property", "no-overcommit"});
  EXPECT_EQ(o.code, kExitHolds) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "no violation in 20 random runs")) << o.out;
}

}  // namespace
}  // namespace preemptcheck::cli
