// `check --expect-violated` and `--junit`: gating one's own scenarios in CI (docs/ci/gating.md).
// Under kubernetes, g1-basic breaks no-double-victim and no-lost-wakeup and holds the rest;
// under reference it holds every property.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::count_of;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;

int run(std::vector<std::string> args, std::string& out) {
  const testing::Ran r = testing::run_check_quiet(std::move(args));
  out = r.out + r.err;
  return r.rc;
}

const std::string kG1 = source_path("scenarios/g1-basic.yaml");

TEST(cliGate, ExitsZeroWhenTheNamedPropertiesAreViolatedAndTheRestHold) {
  std::string out;
  EXPECT_EQ(run({kG1, "--profile", "kubernetes", "--expect-violated", "no-double-victim",
                 "--expect-violated", "no-lost-wakeup"},
                out),
            kExitHolds)
      << out;
  EXPECT_NE(out.find("gate       every expectation is met (exit 0)"), std::string::npos) << out;
  EXPECT_EQ(count_of(out, " met\n"), 7U) << out;  // one line per safety property
  EXPECT_EQ(out.find("(exit 1)"), std::string::npos) << out;
}

TEST(cliGate, ExitsOneWhenAPropertyExpectedToHoldIsViolated) {
  std::string out;
  EXPECT_EQ(run({kG1, "--profile", "kubernetes", "--expect-violated", "no-lost-wakeup"}, out),
            kExitViolated)
      << out;
  EXPECT_NE(out.find("no-double-victim       holds     NOT MET"), std::string::npos) << out;
  EXPECT_NE(out.find("an expectation is NOT MET (exit 1)"), std::string::npos) << out;
}

TEST(cliGate, ExitsOneWhenAPropertyExpectedViolatedHoldsEverywhere) {
  std::string out;
  EXPECT_EQ(run({kG1, "--expect-violated", "no-lost-wakeup"}, out), kExitViolated) << out;
  EXPECT_NE(out.find("no-lost-wakeup         violated  NOT MET"), std::string::npos) << out;
}

TEST(cliGate, ExitsThreeWhenALimitLeavesAnExpectationUndecided) {
  std::string out;
  EXPECT_EQ(run({kG1, "--profile", "kubernetes", "--expect-violated", "no-lost-wakeup",
                 "--expect-violated", "no-double-victim", "--max-states", "20"},
                out),
            kExitLimit)
      << out;
  EXPECT_NE(out.find("undecided"), std::string::npos) << out;
}

TEST(cliGate, WritesAJUnitReportWithAFailurePerUnmetExpectation) {
  ScratchDir dir;
  const std::string junit = dir.file("junit.xml");
  std::string out;
  EXPECT_EQ(run({kG1, "--profile", "kubernetes", "--junit", junit}, out), kExitViolated) << out;
  const std::string xml = read_text(junit);
  EXPECT_EQ(xml.rfind("<?xml", 0), 0U) << xml;
  EXPECT_NE(xml.find("tests=\"7\" failures=\"2\" skipped=\"0\""), std::string::npos) << xml;
  EXPECT_EQ(count_of(xml, "<failure "), 2U) << xml;
  EXPECT_NE(xml.find("no-lost-wakeup was expected to hold, but it is violated"), std::string::npos)
      << xml;
  EXPECT_EQ(count_of(xml, "<testcase "), 7U) << xml;
}

TEST(cliGate, PutsTheExpectationsInTheJsonDocument) {
  std::string out;
  std::vector<std::string> args = {"check",
                                   kG1,
                                   "--profile",
                                   "kubernetes",
                                   "--json",
                                   "--quiet",
                                   "--expect-violated",
                                   "no-lost-wakeup",
                                   "--property",
                                   "no-lost-wakeup",
                                   "--property",
                                   "no-overcommit"};
  std::ostringstream o;
  std::ostringstream e;
  EXPECT_EQ(run_main(args, o, e), kExitHolds) << o.str() << e.str();
  const nlohmann::json doc = nlohmann::json::parse(o.str());
  ASSERT_EQ(doc["expectations"].size(), 2U) << doc.dump(1);
  EXPECT_EQ(doc["expectations"][0]["property"], "no-overcommit");
  EXPECT_EQ(doc["expectations"][0]["expected"], "holds");
  EXPECT_EQ(doc["expectations"][1]["verdict"], "violated");
  EXPECT_EQ(doc["expectations"][1]["met"], true);
  EXPECT_EQ(doc["exit_code"], 0);
}

TEST(cliGate, RefusesStopAtFirstAndAnExpectationOnAnUncheckedProperty) {
  std::string out;
  EXPECT_EQ(run({kG1, "--expect-violated", "no-lost-wakeup", "--stop-at-first"}, out),
            kExitBadInput);
  EXPECT_NE(out.find("--stop-at-first"), std::string::npos) << out;
  EXPECT_EQ(run({kG1, "--expect-violated", "no-lost-wakeup", "--property", "no-overcommit"}, out),
            kExitBadInput);
  EXPECT_NE(out.find("leaves unchecked"), std::string::npos) << out;
  EXPECT_EQ(run({kG1, "--expect-violated", "no-such"}, out), kExitBadInput);
  EXPECT_NE(out.find("expected one of: no-double-victim"), std::string::npos) << out;
}

}  // namespace
}  // namespace preemptcheck::cli
