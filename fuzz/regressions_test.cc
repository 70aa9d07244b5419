// The fuzzers' findings, replayed by the ordinary test suite without libFuzzer: every file
// under fuzz/regressions/<target>/ goes through the same oracle as the fuzz target, and so do
// the fuzzers' seeds: every committed scenario and counterexample, and the kubectl fixtures of
// files/testdata/.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "files/kubectl_import.h"
#include "fuzz/round_trip.h"

namespace preemptcheck::fuzz {
namespace {

namespace fs = std::filesystem;

fs::path source_dir() {
  const char* dir = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  return dir != nullptr ? fs::path(dir) : fs::path(PREEMPTCHECK_SOURCE_DIR_DEFAULT);
}

// The regular files under `dir` whose names end in `suffix` (any when empty), sorted.
std::vector<fs::path> files_in(const fs::path& dir, std::string_view suffix = {}) {
  std::vector<fs::path> out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().string().ends_with(suffix))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

using Oracle = std::optional<std::string> (*)(std::string_view);

void expect_round_trips(const std::vector<fs::path>& files, Oracle oracle) {
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    std::optional<std::string> difference;
    EXPECT_NO_THROW(difference = oracle(bytes_of(f)));
    EXPECT_EQ(difference, std::nullopt);
  }
}

TEST(FuzzRegressions, EveryScenarioFindingRoundTrips) {
  const auto files = files_in(source_dir() / "fuzz/regressions/scenario");
  EXPECT_FALSE(files.empty()) << "the scenario regression corpus is empty";
  expect_round_trips(files, scenario_round_trip);
}

TEST(FuzzRegressions, EveryCounterexampleFindingRoundTrips) {
  const auto files = files_in(source_dir() / "fuzz/regressions/counterexample");
  EXPECT_FALSE(files.empty()) << "the counterexample regression corpus is empty";
  expect_round_trips(files, counterexample_round_trip);
}

TEST(FuzzRegressions, EveryImportFindingImportsOrIsRefused) {
  const auto files = files_in(source_dir() / "fuzz/regressions/import");
  EXPECT_FALSE(files.empty()) << "the import regression corpus is empty";
  expect_round_trips(files, kubectl_import_round_trip);
}

// The seeds: every committed file must load and round-trip (an empty answer for a refused
// file would hide a broken seed, so these must load).
TEST(FuzzSeeds, EveryCommittedScenarioRoundTrips) {
  for (const fs::path& f : files_in(source_dir() / "scenarios", ".yaml")) {
    SCOPED_TRACE(f.string());
    EXPECT_EQ(scenario_round_trip(bytes_of(f)), std::nullopt);
  }
}

TEST(FuzzSeeds, EveryCommittedCounterexampleRoundTrips) {
  const auto files = files_in(source_dir() / "counterexamples", ".yaml");
  EXPECT_FALSE(files.empty());
  expect_round_trips(files, counterexample_round_trip);
}

// The import seeds: the well-formed fixture must import (the oracle says nothing about a
// refusal, so check that separately) and every fixture, malformed ones included, passes.
TEST(FuzzSeeds, EveryKubectlFixturePassesTheImportOracle) {
  const auto files = files_in(source_dir() / "files/testdata", ".yaml");
  EXPECT_FALSE(files.empty());
  expect_round_trips(files, kubectl_import_round_trip);
  EXPECT_NO_THROW(
      import_kubectl({KubectlInput{"kubectl-cluster.yaml",
                                   bytes_of(source_dir() / "files/testdata/kubectl-cluster.yaml")}},
                     {}));
}

// The oracle can fail: a scenario whose written form loads differently is reported, and an
// input that is refused is not.
TEST(FuzzOracle, RefusedInputIsNotAFinding) {
  EXPECT_EQ(scenario_round_trip("nodes: ["), std::nullopt);
  EXPECT_EQ(counterexample_round_trip("property: 3"), std::nullopt);
  EXPECT_EQ(kubectl_import_round_trip("kind: ["), std::nullopt);
}

}  // namespace
}  // namespace preemptcheck::fuzz
