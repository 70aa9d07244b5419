// Tests of `check --out` and of the counterexample file format.
#include "files/counterexample_yaml.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "cli/command_test_support.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck::cli {
namespace {

using testing::check_to;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;
using testing::split_lines;

// The step lines of a counterexample file: those under `steps:`.
std::vector<std::string> step_lines(const std::string& text) {
  std::vector<std::string> out;
  bool in_steps = false;
  for (const std::string& line : split_lines(text)) {
    if (line.starts_with("steps:")) {
      in_steps = true;
    } else if (in_steps && line.starts_with("  - ")) {
      out.push_back(line);
    } else if (in_steps && !line.empty() && line[0] != ' ') {
      in_steps = false;
    }
  }
  return out;
}

TEST(CheckOut, DefaultInflightOffIsShortestAndCommented) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "", {{"inflight", "off"}}, out), kExitViolated) << out;
  const std::string path = dir.file("no-double-victim--default--inflight-off.yaml");
  EXPECT_NE(out.find("replay     preemptcheck replay " + path + "\n"), std::string::npos) << out;

  // The depth check reports is the length of the file's schedule.
  const auto depth = testing::number_after(out, "depth ");
  ASSERT_TRUE(depth) << out;
  const Counterexample cx = load_counterexample_file(path);
  EXPECT_EQ(cx.steps.size(), *depth);
  EXPECT_EQ(cx.steps.size(), cx.found_by.depth);
  EXPECT_EQ(cx.found_by.method, "breadth-first");
  EXPECT_TRUE(cx.found_by.shortest);
  EXPECT_EQ(cx.property, "no-double-victim");

  // ... and the breadth-first depth of the first violation.
  Scenario scenario = load_scenario("");
  scenario.mechanisms.inflight = Inflight::kOff;
  const WorldModel model(std::make_shared<const Cluster>(scenario));
  const auto result = explore_world(model, checker::Limits{});
  ASSERT_TRUE(result.violation);
  EXPECT_EQ(cx.steps.size(), result.violation->path.size());
  const std::uint32_t from_depth =
      cx.steps.empty() ? 0 : static_cast<std::uint32_t>(cx.steps.size() - 1);
  EXPECT_EQ(result.violation->path.size(), from_depth + 1);

  // Every step is one line with its fingerprint and a comment saying what it did.
  const std::vector<std::string> lines = step_lines(read_text(path));
  ASSERT_EQ(lines.size(), cx.steps.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_TRUE(cx.steps[i].fingerprint) << lines[i];
    const auto hash = lines[i].find("  # ");
    ASSERT_NE(hash, std::string::npos) << lines[i];
    EXPECT_GT(lines[i].size(), hash + 4) << lines[i];
  }
  // The victim is chosen twice: the first and the last step both preempt v1.
  EXPECT_NE(lines.front().find("preempts v1"), std::string::npos) << lines.front();
  EXPECT_NE(lines.back().find("preempts v1"), std::string::npos) << lines.back();
}

TEST(CheckOut, GoingOnWritesOneFilePerViolatedProperty) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "scenarios/g1-basic.yaml", {}, out, "kubernetes", false), kExitViolated)
      << out;
  std::vector<std::string> names;
  for (const std::string& file : dir.yaml_files()) {
    const Counterexample cx = load_counterexample_file(file);
    names.push_back(cx.property);
    EXPECT_EQ(std::filesystem::path(file).filename().string().substr(0, cx.property.size()),
              cx.property);
    EXPECT_NE(out.find("replay     preemptcheck replay " + file + "\n"), std::string::npos) << out;
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"no-double-victim", "no-lost-wakeup"})) << out;
}

TEST(CheckOut, FileNameSaysPropertyScenarioProfileAndSwitches) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "scenarios/g2-single-victim.yaml", {{"gate", "release-before-last"}}, out,
                     "kubernetes"),
            kExitViolated)
      << out;
  const auto files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(std::filesystem::path(files[0]).filename(),
            "no-double-victim--g2-single-victim--kubernetes--gate-release-before-last.yaml");
  const Counterexample cx = load_counterexample_file(files[0]);
  EXPECT_EQ(cx.scenario.profile, "kubernetes");
  EXPECT_EQ(cx.scenario.mechanisms.gate, Gate::kReleaseBeforeLast);
  // Every switch is written, not only those that differ from the profile — except `cycle`,
  // written only when `split`, so that files from before it keep their text and digest.
  const std::string text = read_text(files[0]);
  for (std::string_view m : mechanism_names()) {
    if (!mechanism_printed(cx.scenario.mechanisms, m, cx.scenario.profile)) {
      EXPECT_EQ(text.find(std::string(m) + ": "), std::string::npos) << m;
      continue;
    }
    EXPECT_NE(text.find(std::string(m) + ": "), std::string::npos) << m;
  }
  EXPECT_FALSE(mechanism_printed(cx.scenario.mechanisms, "cycle", cx.scenario.profile));
  EXPECT_NE(text.find("# Found by:  preemptcheck check "), std::string::npos);
}

TEST(CheckOut, WritesNothingWhenEveryPropertyHolds) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "scenarios/g2-single-victim.yaml", {}, out), kExitHolds) << out;
  EXPECT_TRUE(dir.yaml_files().empty());
  EXPECT_EQ(out.find("replay     "), std::string::npos);
}

TEST(CheckOut, JsonNamesTheFile) {
  ScratchDir dir;
  CheckOptions o;
  o.mechanisms.switches = {{"inflight", "off"}};
  o.out_dir = dir.path().string();
  o.json = true;
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(run_check(o, out, err), kExitViolated) << err.str();
  EXPECT_NE(out.str().find("\"counterexample\""), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("no-double-victim--default--inflight-off.yaml"), std::string::npos);
}

TEST(CheckOut, RestrictedPropertiesAreRecorded) {
  ScratchDir dir;
  CheckOptions o;
  o.scenario_path = source_path("scenarios/assume-window.yaml");
  o.mechanisms.switches = {{"assume", "off"}};
  o.checked.reset();
  o.checked.set(static_cast<std::size_t>(spec::Property::kNoOvercommit));
  o.out_dir = dir.path().string();
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(run_check(o, out, err), kExitViolated) << err.str();
  const auto files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1U);
  const Counterexample cx = load_counterexample_file(files[0]);
  EXPECT_EQ(cx.property, "no-overcommit");
  EXPECT_EQ(cx.found_by.properties, std::vector<std::string>{"no-overcommit"});
}

TEST(Counterexample, TextRoundTrips) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "scenarios/binding-in-flight.yaml", {{"activate-on-finish", "off"}}, out),
            kExitViolated);
  const auto files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1U);
  const Counterexample a = load_counterexample_file(files[0]);
  const Counterexample b =
      load_counterexample_text(counterexample_to_yaml(a, files[0]), "copy.yaml");
  EXPECT_EQ(a.property, b.property);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.also, b.also);
  EXPECT_EQ(a.found_by.states, b.found_by.states);
  EXPECT_EQ(a.found_by.depth, b.found_by.depth);
  EXPECT_EQ(a.scenario.name, b.scenario.name);
  EXPECT_EQ(a.scenario.pods.size(), b.scenario.pods.size());
  EXPECT_EQ(a.scenario.profile, b.scenario.profile);
  EXPECT_EQ(a.scenario.mechanisms, b.scenario.mechanisms);
  ASSERT_EQ(a.steps.size(), b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    EXPECT_EQ(a.steps[i].action, b.steps[i].action);
    EXPECT_EQ(a.steps[i].text, b.steps[i].text);
    EXPECT_EQ(a.steps[i].fingerprint, b.steps[i].fingerprint);
  }
  EXPECT_EQ(counterexample_to_yaml(a, files[0]), counterexample_to_yaml(b, files[0]));
}

TEST(Counterexample, AStepMayBeAPlainActionWithoutFingerprint) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "", {{"inflight", "off"}}, out), kExitViolated);
  std::string text = read_text(dir.yaml_files().at(0));
  const auto at = text.find("  - {action: \"observe\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, text.find('\n', at) - at, "  - observe  # no fingerprint");
  const Counterexample cx = load_counterexample_text(text, "plain.yaml");
  ASSERT_EQ(cx.steps.size(), 4U);
  EXPECT_EQ(cx.steps[1].text, "observe");
  EXPECT_FALSE(cx.steps[1].fingerprint);
  EXPECT_TRUE(cx.steps[0].fingerprint);
}

TEST(Counterexample, ScenarioErrorsPointIntoTheFile) {
  ScratchDir dir;
  std::string out;
  ASSERT_EQ(check_to(dir, "", {{"inflight", "off"}}, out), kExitViolated);
  std::vector<std::string> lines = split_lines(read_text(dir.yaml_files().at(0)));
  std::size_t node_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("{name: node-a, cpu: 4") != std::string::npos)
      node_line = i;
  }
  ASSERT_GT(node_line, 0U);
  const std::string before = lines[node_line];
  lines[node_line].replace(lines[node_line].find("cpu: 4"), 6, "cpu: many");
  try {
    load_counterexample_text(testing::join_lines(lines), "cx.yaml");
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file, "cx.yaml");
    EXPECT_EQ(e.line, static_cast<int>(node_line) + 1) << e.what();
    EXPECT_EQ(e.column, static_cast<int>(before.find("cpu: 4")) + 6) << e.what();
    EXPECT_NE(e.message.find("expected a positive quantity for 'cpu'"), std::string::npos)
        << e.what();
  }
}

TEST(Counterexample, FingerprintsAreFormattedAsSixteenHexDigits) {
  EXPECT_EQ(format_fingerprint(0x1234abcd5678ef90ULL), "0x1234abcd5678ef90");
  EXPECT_EQ(format_fingerprint(1), "0x0000000000000001");
}

}  // namespace
}  // namespace preemptcheck::cli
