// `check --simulate N`: random walks find a known violation on a gang scenario, shrink it and
// write a file that `replay` reproduces; one seed gives one output on one thread and on two;
// walks that find nothing prove nothing (exit 3); bad values are refused (exit 2). And the
// advice a check stopped at a limit prints: its levels, and options that exist.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::ScratchDir;
using testing::source_path;
using testing::split_lines;

struct Outcome {
  int code = 0;
  std::string out;
  std::string err;
};

Outcome run(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  args.insert(args.begin(), "check");
  const int code = run_main(args, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The text without its one line of timings ("walked ... s").
std::string without_timing(const std::string& text) {
  std::string out;
  for (const std::string& line : split_lines(text)) {
    if (!line.starts_with("walked "))
      out += line + "\n";
  }
  return out;
}

TEST(cliSimulate, FindsNoDoubleVictimOnAGangAndItsFileReplays) {
  ScratchDir dir;
  const Outcome r =
      run({source_path("cli/testdata/gang.yaml"), "--profile", "kubernetes", "--simulate", "1000",
           "--seed", "1", "--out", dir.path().string(), "--quiet"});
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "seed 1")) << r.out;
  EXPECT_TRUE(contains(r.out, "result     VIOLATED no-double-victim")) << r.out;
  EXPECT_TRUE(contains(r.out, "reproduce  preemptcheck check")) << r.out;
  const auto file = dir.path() / "no-double-victim--gang--kubernetes.yaml";
  ASSERT_TRUE(std::filesystem::exists(file)) << r.out;
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(run_main({"replay", file.string()}, out, err), 1) << out.str() << err.str();
  EXPECT_TRUE(contains(out.str(), "reproduced")) << out.str();
}

TEST(cliSimulate, OneSeedGivesOneOutputOnOneThreadAndOnTwo) {
  const std::vector<std::string> args = {source_path("cli/testdata/gang.yaml"),
                                         "--profile",
                                         "kubernetes",
                                         "--simulate",
                                         "600",
                                         "--seed",
                                         "7"};
  auto one = args;
  one.insert(one.end(), {"--threads", "1"});
  auto two = args;
  two.insert(two.end(), {"--threads", "2"});
  const Outcome a = run(one);
  const Outcome b = run(two);
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(without_timing(a.out), without_timing(b.out));
}

TEST(cliSimulate, WalksThatFindNothingProveNothing) {
  const Outcome r = run({"--simulate", "20", "--seed", "3", "--property", "no-overcommit"});
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "no violation in 20 walks of depth 100 — nothing is proven"))
      << r.out;
}

TEST(cliSimulate, BadValuesAreRefused) {
  for (const char* value : {"0", "x", "-1", "1e3", ""}) {
    const Outcome r = run({"--simulate", value});
    EXPECT_EQ(r.code, 2) << value;
    EXPECT_TRUE(contains(r.err, "--simulate expects a number of walks")) << value << r.err;
  }
  const Outcome depth = run({"--simulate", "5", "--simulate-depth", "0"});
  EXPECT_EQ(depth.code, 2);
  EXPECT_TRUE(contains(depth.err, "--simulate-depth expects")) << depth.err;
  const Outcome seed = run({"--seed", "5"});
  EXPECT_EQ(seed.code, 2);
  EXPECT_TRUE(contains(seed.err, "--seed seeds the random walks of --simulate N")) << seed.err;
  const Outcome both = run({"--simulate", "5", "--liveness"});
  EXPECT_EQ(both.code, 2);
  EXPECT_TRUE(contains(both.err, "--liveness")) << both.err;
}

// A check stopped by --max-states on the gang prints its levels with their growth and advice
// naming options that exist: each advised option, run, is accepted.
TEST(cliLimitAdvice, AStateLimitOnAGangPrintsLevelsAndAdviceThatParses) {
  const std::string gang = source_path("cli/testdata/gang.yaml");
  const Outcome r = run({gang, "--max-states", "20000", "--quiet"});
  ASSERT_EQ(r.code, 3) << r.out << r.err;
  std::vector<std::string> advised;
  bool levels = false;
  for (const std::string& line : split_lines(r.out)) {
    if (line.starts_with("levels ") && contains(line, "×"))
      levels = true;
    if (line.starts_with("advice ")) {
      const auto at = line.find("--");
      ASSERT_NE(at, std::string::npos) << line;
      advised.push_back(line.substr(at, line.find(':', at) - at));
    }
  }
  EXPECT_TRUE(levels) << r.out;
  ASSERT_FALSE(advised.empty()) << r.out;
  for (const std::string& option : advised) {
    std::vector<std::string> args = {gang, "--quiet"};
    std::istringstream words(option);
    for (std::string w; words >> w;)
      args.push_back(w == "10000" ? "10" : w == "NAME" ? "no-overcommit" : w);
    if (!option.starts_with("--simulate"))
      args.insert(args.end(), {"--max-states", "1000"});
    const Outcome advice = run(args);
    EXPECT_NE(advice.code, 2) << option << "\n" << advice.err;
  }
}

}  // namespace
}  // namespace preemptcheck::cli
