// `check --reduce`: the option's words and errors, the reduction named in the text and JSON
// statistics, and every file `check --reduce=symmetry --out`, `check --reduce=watch-order
// --out` and `check --reduce=watch-order,symmetry --out` writes replaying in the unreduced model
// (`replay` checks every step), for every committed scenario under `reference` and `kubernetes` and
// with mechanisms switched off that break properties.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "properties/committed_scenarios.h"

namespace preemptcheck::cli {
namespace {

using testing::ScratchDir;
using testing::source_path;

int run(const std::vector<std::string>& args, std::string& out) {
  std::ostringstream o;
  std::ostringstream e;
  const int code = run_main(args, o, e);
  out = o.str() + e.str();
  return code;
}

TEST(cliCheckReduce, NamesTheReductionAndRefusesUnknownWords) {
  const std::string scenario = source_path("scenarios/g1-basic.yaml");
  std::string out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--json", "--reduce=symmetry"}, out), kExitHolds);
  EXPECT_NE(out.find("\"reduction\":\"symmetry\""), std::string::npos) << out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--json"}, out), kExitHolds);
  EXPECT_NE(out.find("\"reduction\":\"none\""), std::string::npos) << out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--reduce", "symmetry"}, out), kExitHolds);
  EXPECT_NE(out.find("reduction  symmetry"), std::string::npos) << out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--json", "--reduce=watch-order"}, out), kExitHolds);
  EXPECT_NE(out.find("\"reduction\":\"watch-order\""), std::string::npos) << out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--reduce", "watch-order"}, out), kExitHolds);
  EXPECT_NE(out.find("reduction  watch-order: the states are counted once per serialization"),
            std::string::npos)
      << out;
  // Both, in either order, named one way.
  for (const char* both : {"--reduce=watch-order,symmetry", "--reduce=symmetry,watch-order"}) {
    EXPECT_EQ(run({"check", scenario, "--quiet", "--json", both}, out), kExitHolds) << both;
    EXPECT_NE(out.find("\"reduction\":\"watch-order,symmetry\""), std::string::npos) << out;
    EXPECT_EQ(run({"check", scenario, "--quiet", both}, out), kExitHolds) << both;
    EXPECT_NE(out.find("reduction  watch-order,symmetry: the states are counted once per "
                       "serialization of concurrent writes and renaming of interchangeable pods"),
              std::string::npos)
        << out;
  }
  for (const char* bad : {"--reduce=por", "--reduce=symmetry,symmetry", "--reduce=none,symmetry",
                          "--reduce=watch-order,", "--reduce=,symmetry"}) {
    EXPECT_EQ(run({"check", scenario, "--quiet", bad}, out), kExitBadInput) << bad;
    EXPECT_NE(
        out.find("--reduce expects none, symmetry, watch-order or watch-order,symmetry, got '" +
                 std::string(bad).substr(9) + "'"),
        std::string::npos)
        << out;
  }
  EXPECT_EQ(run({"check", scenario, "--quiet", "--reduce="}, out), kExitBadInput) << out;
  EXPECT_EQ(run({"check", scenario, "--quiet", "--liveness", "--reduce=symmetry"}, out),
            kExitBadInput);
  EXPECT_NE(out.find("leave out --reduce"), std::string::npos) << out;
  // The causal watch order and DeltaFIFO's per-key delivery do not combine; either alone runs.
  for (const char* reduce : {"--reduce=watch-order", "--reduce=watch-order,symmetry"}) {
    EXPECT_EQ(run({"check", scenario, "--quiet", reduce, "--informer-fifo=per-key"}, out),
              kExitBadInput)
        << reduce;
    EXPECT_NE(out.find("--informer-fifo=per-key delivers it out of that order"), std::string::npos)
        << out;
  }
  EXPECT_NE(
      run({"check", scenario, "--quiet", "--reduce=symmetry", "--informer-fifo=per-key"}, out),
      kExitBadInput)
      << out;
}

// Of the interchangeable states one level reaches, the search keeps the one of the smallest
// step on every thread count (SPEC §8). When it kept the first one stored, two threads on
// four-victims under kubernetes reported "p chooses v1" in one run and "v2" in another: each
// run on 1, 2 and 3 threads, repeated, prints the same document.
TEST(cliCheckReduce, EveryRunAndThreadCountPrintsTheSame) {
  const std::string scenario = source_path("scenarios/four-victims.yaml");
  for (const char* reduction :
       {"--reduce=symmetry", "--reduce=watch-order", "--reduce=watch-order,symmetry"}) {
    std::string out;
    std::string first;
    for (int i = 0; i < 7; ++i) {
      const std::string threads = std::to_string(1 + i % 3);
      ASSERT_EQ(run({"check", scenario, "--quiet", "--json", "--profile", "kubernetes", reduction,
                     "--threads", threads},
                    out),
                kExitViolated);
      nlohmann::json j = nlohmann::json::parse(out);
      for (const char* key : {"seconds", "states_per_second", "peak_rss_bytes"})
        j["stats"].erase(key);
      if (i == 0)
        first = j.dump(1);
      else
        EXPECT_EQ(j.dump(1), first) << reduction;
    }
  }
}

TEST(cliCheckReduce, EveryFileTheReducedSearchWritesReplaysUnreduced) {
  ScratchDir scratch;
  const std::vector<std::string> scenarios = committed_scenarios(source_path("scenarios"));
  std::size_t replayed = 0;
  const std::vector<std::vector<std::string>> variants = {
      {"--profile", "reference"},
      {"--profile", "kubernetes"},
      {"--profile", "reference", "--inflight=off"},
      {"--profile", "reference", "--assume=off"}};
  for (const std::string& scenario : scenarios) {
    for (const auto& variant : variants) {
      for (const char* reduction :
           {"--reduce=symmetry", "--reduce=watch-order", "--reduce=watch-order,symmetry"}) {
        const std::filesystem::path dir = scratch.path() / "out";
        std::filesystem::remove_all(dir);
        std::vector<std::string> args = {"check",      scenario,       "--out",
                                         dir.string(), "--quiet",      "--json",
                                         reduction,    "--max-states", "30000"};
        args.insert(args.end(), variant.begin(), variant.end());
        std::string out;
        run(args, out);
        if (!std::filesystem::exists(dir))
          continue;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
          std::string replay_out;
          EXPECT_EQ(run({"replay", e.path().string()}, replay_out), kExitViolated)
              << scenario << " " << e.path().filename() << "\n"
              << replay_out;
          EXPECT_NE(replay_out.find("reproduced at step"), std::string::npos) << replay_out;
          EXPECT_EQ(replay_out.find("diverged"), std::string::npos) << replay_out;
          ++replayed;
        }
      }
    }
  }
  std::cout << replayed << " counterexamples of the reduced searches replayed\n";
  EXPECT_GE(replayed, 60U);
}

}  // namespace
}  // namespace preemptcheck::cli
