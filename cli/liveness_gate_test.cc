// `check --liveness` as a first-class check: --json prints one document, --junit writes the
// no-starvation testcase, --expect-violated no-starvation gates the exit code as for a safety
// property, --time-limit stops the graph build with a safety check's words, --property
// no-starvation points to --liveness, the text says why its state count is not the safety
// check's, and an --unfair lasso says so in the text, the document and its file's name.
// returning-victim has a fair lasso under kubernetes-1.35 (FIDELITY §3 F15).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::number_after;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;

using Outcome = testing::Ran;

Outcome check(std::vector<std::string> args) { return testing::run_check_quiet(std::move(args)); }

const std::string kReturning = source_path("scenarios/returning-victim.yaml");
const std::string kG2 = source_path("scenarios/g2-single-victim.yaml");

// The one JSON document of `out`, which must be one line.
nlohmann::json one_document(const std::string& out) {
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  return nlohmann::json::parse(out);
}

TEST(cliLivenessGate, ExpectViolatedNoStarvationIsMetWithAJsonDocumentAndAJunitReport) {
  const ScratchDir dir;
  const std::string junit = dir.file("junit.xml");
  const Outcome r = check({kReturning, "--profile", "kubernetes-1.35", "--liveness",
                           "--expect-violated", "no-starvation", "--junit", junit, "--json"});
  ASSERT_EQ(r.rc, kExitHolds) << r.out << r.err;
  const nlohmann::json doc = one_document(r.out);
  EXPECT_EQ(doc["command"], "check");
  EXPECT_EQ(doc["outcome"], "violated");
  EXPECT_EQ(doc["exit_code"], 0);
  EXPECT_EQ(doc["liveness"]["fairness"], "weak");
  EXPECT_FALSE(doc["lasso"]["unfair"].get<bool>());
  ASSERT_EQ(doc["expectations"].size(), 1U);
  EXPECT_EQ(doc["expectations"][0]["property"], "no-starvation");
  EXPECT_EQ(doc["expectations"][0]["expected"], "violated");
  EXPECT_TRUE(doc["expectations"][0]["met"].get<bool>());
  EXPECT_EQ(doc["properties"][0]["verdict"], "violated");
  const std::string xml = read_text(junit);
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" skipped=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"no-starvation violated\"/>"), std::string::npos) << xml;
}

TEST(cliLivenessGate, WithoutTheExpectationTheLassoFailsTheGate) {
  const ScratchDir dir;
  const std::string junit = dir.file("junit.xml");
  const Outcome r =
      check({kReturning, "--profile", "kubernetes-1.35", "--liveness", "--junit", junit, "--json"});
  ASSERT_EQ(r.rc, kExitViolated) << r.out << r.err;
  const nlohmann::json doc = one_document(r.out);
  EXPECT_EQ(doc["exit_code"], 1);
  EXPECT_FALSE(doc["expectations"][0]["met"].get<bool>());
  const std::string xml = read_text(junit);
  EXPECT_NE(xml.find("<failure message=\"no-starvation was expected to hold, but it is violated"),
            std::string::npos)
      << xml;

  // In words: the expectation and the gate line, as for the safety properties.
  const Outcome text = check({kReturning, "--profile", "kubernetes-1.35", "--liveness",
                              "--expect-violated", "no-starvation"});
  EXPECT_EQ(text.rc, kExitHolds) << text.out << text.err;
  EXPECT_NE(text.out.find("  no-starvation          violated  met\n"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("gate       every expectation is met (exit 0)"), std::string::npos);
  EXPECT_EQ(text.out.find("(exit 1)"), std::string::npos) << text.out;

  // Expected violated where no fair loop starves a pod: not met.
  const Outcome holds =
      check({kG2, "--profile", "kubernetes", "--liveness", "--expect-violated", "no-starvation"});
  EXPECT_EQ(holds.rc, kExitViolated) << holds.out << holds.err;
  EXPECT_NE(holds.out.find("no-starvation          violated  NOT MET"), std::string::npos)
      << holds.out;
}

TEST(cliLivenessGate, ATimeLimitStopsTheGraphBuildAsItStopsASafetyCheck) {
  const Outcome safety = check({kReturning, "--profile", "kubernetes-1.35", "--time-limit", "0"});
  const Outcome live =
      check({kReturning, "--profile", "kubernetes-1.35", "--liveness", "--time-limit", "0"});
  ASSERT_EQ(safety.rc, kExitLimit) << safety.out;
  ASSERT_EQ(live.rc, kExitLimit) << live.out << live.err;
  // The same result line, with each one's own count.
  const auto result_line = [](const std::string& text) {
    const auto at = text.find("result     ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  const auto without_count = [](std::string line) {
    const auto at = line.find(" after ");
    const auto end = line.find(" states", at);
    if (at != std::string::npos && end != std::string::npos)
      line.replace(at, end - at, " after N");
    return line;
  };
  EXPECT_NE(result_line(live.out).find("at the time limit (--time-limit)"), std::string::npos)
      << live.out;
  EXPECT_NE(result_line(live.out).find("nothing is proven (exit 3)"), std::string::npos);
  EXPECT_EQ(without_count(result_line(live.out)), without_count(result_line(safety.out)));
  // The statistics a safety check prints: states, transitions, seconds, rate, memory.
  for (const char* figure : {" states, ", " transitions, ", " s, ", " states/s, ", "peak memory "})
    EXPECT_NE(live.out.find(figure), std::string::npos) << figure << "\n" << live.out;
  EXPECT_EQ(live.out.find("holds"), std::string::npos) << live.out;

  // Under a gate the expectation is undecided: exit 3; the document says which limit.
  const Outcome gated =
      check({kReturning, "--profile", "kubernetes-1.35", "--liveness", "--time-limit", "0",
             "--expect-violated", "no-starvation", "--json"});
  ASSERT_EQ(gated.rc, kExitLimit) << gated.out << gated.err;
  const nlohmann::json doc = one_document(gated.out);
  EXPECT_EQ(doc["limit"], "time-limit");
  EXPECT_EQ(doc["outcome"], "limit-reached");
  EXPECT_EQ(doc["expectations"][0]["verdict"], "undecided");
}

TEST(cliLivenessGate, OptionsThatNameTheWrongKindOfPropertyAreRefused) {
  Outcome r = check({kG2, "--property", "no-starvation"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("no-starvation is a liveness property: check it with --liveness"),
            std::string::npos)
      << r.err;
  r = check({kG2, "--expect-violated", "no-starvation"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("add --liveness to check it"), std::string::npos) << r.err;
  r = check({kG2, "--liveness", "--expect-violated", "no-double-victim"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("names a safety property; --liveness checks no-starvation alone"),
            std::string::npos)
      << r.err;
  r = check({kG2, "--liveness", "--property", "no-double-victim"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("leave out --property"), std::string::npos) << r.err;
}

TEST(cliLivenessGate, TheTextSaysWhyItsStateCountIsNotTheSafetyChecks) {
  // g4-higher-takeover: two paths to one cluster state that the monitors tell apart.
  const std::string g4 = source_path("scenarios/g4-higher-takeover.yaml");
  const Outcome safety = check({g4});
  const Outcome live = check({g4, "--liveness"});
  const auto safety_states = number_after(safety.out, "explored   ");
  const auto live_states = number_after(live.out, "explored   ");
  ASSERT_TRUE(safety_states && live_states) << safety.out << live.out;
  EXPECT_LT(*live_states, *safety_states);
  EXPECT_NE(live.out.find("\nstates     a liveness state is the cluster alone: the safety "
                          "monitors' memory (the ledger) is not part of it"),
            std::string::npos)
      << live.out;
}

TEST(cliLivenessGate, AnUnfairLassoIsMarkedInTheTextTheDocumentAndItsFileName) {
  const ScratchDir dir;
  const Outcome fair = check(
      {kReturning, "--profile", "kubernetes-1.35", "--liveness", "--out", dir.path().string()});
  const Outcome unfair = check({kReturning, "--profile", "kubernetes-1.35", "--liveness",
                                "--unfair", "--out", dir.path().string()});
  ASSERT_EQ(fair.rc, kExitViolated) << fair.out << fair.err;
  ASSERT_EQ(unfair.rc, kExitViolated) << unfair.out << unfair.err;
  EXPECT_NE(unfair.out.find("\nunfair lasso ("), std::string::npos) << unfair.out;
  EXPECT_EQ(fair.out.find("unfair"), std::string::npos) << fair.out;
  // Two files: the unfair one did not replace the fair one.
  auto files = dir.yaml_files();
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 2U);
  EXPECT_EQ(std::filesystem::path(files[0]).filename(),
            "no-starvation--returning-victim--kubernetes-1.35--unfair.yaml");
  EXPECT_EQ(std::filesystem::path(files[1]).filename(),
            "no-starvation--returning-victim--kubernetes-1.35.yaml");
  EXPECT_NE(read_text(files[0]).find("method: liveness-unfair"), std::string::npos);
  EXPECT_NE(read_text(files[1]).find("method: liveness,"), std::string::npos);

  const Outcome json =
      check({kReturning, "--profile", "kubernetes-1.35", "--liveness", "--unfair", "--json"});
  const nlohmann::json doc = one_document(json.out);
  EXPECT_TRUE(doc["lasso"]["unfair"].get<bool>());
  EXPECT_EQ(doc["liveness"]["fairness"], "none");
}

}  // namespace
}  // namespace preemptcheck::cli
