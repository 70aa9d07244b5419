// `check` across thread counts and properties: one and two threads print the same document
// for every committed scenario, reduced (SPEC §8) or not, each violated property's own
// counterexample is as short as a check of that property alone finds, and the memory bound's
// sizes and exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/check_command.h"
#include "properties/committed_scenarios.h"

namespace preemptcheck::cli {
namespace {

// `check ARGS --quiet --json --max-states 100000` as a JSON document, without the figures
// that depend on the machine (time, rates, memory). The state bound keeps the larger
// scenarios under kubernetes (three-preemptors does not complete) to seconds; a search cut
// by it must be the same for every thread count too.
nlohmann::json check_json(std::vector<std::string> args, int& code) {
  args.insert(args.begin(), "check");
  args.insert(args.end(), {"--quiet", "--json", "--max-states", "100000"});
  std::ostringstream o;
  std::ostringstream e;
  code = run_main(args, o, e);
  nlohmann::json j = nlohmann::json::parse(o.str());
  for (const char* key : {"seconds", "states_per_second", "peak_rss_bytes"})
    j["stats"].erase(key);
  return j;
}

// Runs `preemptcheck check ARGS`; its standard output and error in `out`.
int run(std::vector<std::string> args, std::string& out) {
  args.insert(args.begin(), "check");
  std::ostringstream o;
  std::ostringstream e;
  const int code = run_main(args, o, e);
  out = o.str() + e.str();
  return code;
}

TEST(cliThreads, OneAndTwoThreadsPrintTheSameForEveryCommittedScenario) {
  const std::vector<std::vector<std::string>> modes = {
      {},
      {"--profile", "kubernetes"},
      {"--profile", "kubernetes", "--stop-at-first"},
      {"--profile", "kubernetes-1.35"},
      {"--reduce=symmetry"},
      {"--profile", "kubernetes", "--reduce=symmetry"},
      {"--reduce=watch-order"},
      {"--profile", "kubernetes", "--reduce=watch-order"}};
  for (const std::string& path : committed_scenarios()) {
    for (const std::vector<std::string>& extra : modes) {
      std::vector<std::string> args{path};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<std::string> one_args = args;
      one_args.insert(one_args.end(), {"--threads", "1"});
      std::vector<std::string> two_args = args;
      two_args.insert(two_args.end(), {"--threads", "2"});
      int one_code = 0;
      int two_code = 0;
      const nlohmann::json one = check_json(one_args, one_code);
      const nlohmann::json two = check_json(two_args, two_code);
      EXPECT_EQ(one_code, two_code) << path;
      std::string mode;
      for (const std::string& word : extra)
        mode += " " + word;
      EXPECT_EQ(one.dump(1), two.dump(1)) << path << mode;
    }
  }
}

TEST(cliThreads, EachViolatedPropertysCounterexampleIsAsShortAsItsOwnCheck) {
  std::size_t compared = 0;
  for (const std::string& path : committed_scenarios()) {
    int code = 0;
    const nlohmann::json all =
        check_json({path, "--profile", "kubernetes", "--threads", "2"}, code);
    for (const nlohmann::json& p : all["properties"]) {
      if (p["verdict"] != "violated")
        continue;
      ASSERT_TRUE(p.contains("steps")) << path << " " << p["name"];
      int alone_code = 0;
      const nlohmann::json alone =
          check_json({path, "--profile", "kubernetes", "--property", p["name"].get<std::string>(),
                      "--stop-at-first", "--threads", "1"},
                     alone_code);
      EXPECT_EQ(alone_code, kExitViolated) << path << " " << p["name"];
      ASSERT_TRUE(alone.contains("violation")) << path << " " << p["name"];
      EXPECT_EQ(p["steps"].size(), alone["violation"]["steps"].size()) << path << " " << p["name"];
      ++compared;
    }
  }
  EXPECT_GT(compared, 0U) << "no committed scenario violates a property under kubernetes";
}

TEST(cliThreads, MemorySizesParse) {
  EXPECT_EQ(parse_memory_size("200M"), 200'000'000U);
  EXPECT_EQ(parse_memory_size("2G"), 2'000'000'000U);
  EXPECT_EQ(parse_memory_size("512Mi"), 512U << 20);
  EXPECT_EQ(parse_memory_size("4096"), 4096U);
  EXPECT_FALSE(parse_memory_size("0").has_value());
  EXPECT_FALSE(parse_memory_size("2GB").has_value());
  EXPECT_FALSE(parse_memory_size("-1M").has_value());
  EXPECT_FALSE(parse_memory_size("").has_value());
}

TEST(cliThreads, MemoryLimitExitsThreeNamingIt) {
  std::string out;
  EXPECT_EQ(run({"--max-memory", "1K", "--quiet"}, out), kExitLimit);
  EXPECT_NE(out.find("memory limit"), std::string::npos) << out;
}

// The search keeps its parent links past the first 65,536 states, and the frontier past
// 64 MiB, in temporary files: one that cannot be created stops the search with exit 3 and
// says why, never a pass.
TEST(cliThreads, ATemporaryFileThatCannotBeWrittenExitsThreeNamingIt) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  setenv("TMPDIR", "/nonexistent-directory-of-preemptcheck", 1);
  std::string out;
  // two-nodes holds every property, so the stop is the only outcome (exit 3, not 1).
  const int code = run({"bench/two-nodes.yaml", "--quiet", "--threads", "2"}, out);
  if (old != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_EQ(code, kExitLimit) << out;
  EXPECT_NE(out.find("a temporary file failed (cannot create a temporary file in "
                     "/nonexistent-directory-of-preemptcheck: "),
            std::string::npos)
      << out;
}

TEST(cliThreads, TextAndJsonGiveTheCollisionProbability) {
  std::string out;
  EXPECT_EQ(run({"--quiet"}, out), kExitHolds);
  EXPECT_NE(out.find("fingerprint collision probability"), std::string::npos) << out;
  int code = 0;
  const nlohmann::json j = check_json({}, code);
  EXPECT_EQ(code, kExitHolds);
  ASSERT_TRUE(j["stats"].contains("collision_probability")) << j.dump(1);
  EXPECT_GT(j["stats"]["collision_probability"].get<double>(), 0.0);
}

}  // namespace
}  // namespace preemptcheck::cli
