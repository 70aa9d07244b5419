// Tests of `preemptcheck replay`: reproduction, the reference profile, and every way a file
// can be wrong — each named by file, line and column.
#include "cli/replay_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>

#include "cli/command_test_support.h"
#include "files/counterexample_yaml.h"

namespace preemptcheck::cli {
namespace {

using testing::check_to;
using testing::join_lines;
using testing::read_text;
using testing::ScratchDir;
using testing::split_lines;
using testing::write_text;

struct Outcome {
  int rc = -1;
  std::string out;
  std::string err;
};

Outcome replay(const std::string& file, MechanismChoice choice = {}, bool full = false,
               bool allow_unfingerprinted = false) {
  ReplayOptions o;
  o.file = file;
  o.full = full;
  o.allow_unfingerprinted = allow_unfingerprinted;
  o.mechanisms = std::move(choice);
  std::ostringstream out;
  std::ostringstream err;
  Outcome r;
  r.rc = run_replay(o, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// Writes the counterexample of `check [scenario] switches` into `dir`; returns its path.
std::string generate(const ScratchDir& dir, const std::string& scenario,
                     std::vector<std::pair<std::string, std::string>> switches) {
  std::string out;
  EXPECT_EQ(check_to(dir, scenario, std::move(switches), out), kExitViolated) << out;
  const auto files = dir.yaml_files();
  EXPECT_EQ(files.size(), 1U);
  return files.empty() ? std::string() : files[0];
}

// The 0-based index of the line of step k (1-based) in `lines`.
std::size_t step_line(const std::vector<std::string>& lines, std::size_t k) {
  std::size_t seen = 0;
  bool in_steps = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("steps:"))
      in_steps = true;
    if (in_steps && lines[i].starts_with("  - ") && ++seen == k)
      return i;
  }
  ADD_FAILURE() << "no step " << k;
  return 0;
}

// Replaces the action of step k in the file at `path`, writing the copy to `copy`; returns
// the copy's 1-based line of that step and the column of its action.
std::pair<int, int> edit_step(const std::string& path, const std::string& copy, std::size_t k,
                              const std::string& action) {
  std::vector<std::string> lines = split_lines(read_text(path));
  std::string& line = lines[step_line(lines, k)];
  const auto open = line.find("action: \"") + 8;
  const auto close = line.find('"', open + 1);
  line.replace(open, close - open + 1, "\"" + action + "\"");
  write_text(copy, join_lines(lines));
  return {static_cast<int>(step_line(lines, k)) + 1, static_cast<int>(open) + 1};
}

TEST(Replay, ReproducesUnderItsOwnSwitches) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const Outcome r = replay(path);
  EXPECT_EQ(r.rc, kExitViolated) << r.out << r.err;
  EXPECT_NE(r.out.find("as recorded; every step's fingerprint is compared"), std::string::npos);
  EXPECT_NE(r.out.find("the recorded violation of no-double-victim reproduced at step 4"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("VIOLATED no-double-victim: p-high chooses v1"), std::string::npos);
  // The first state in full, then only what changed: the queue shows up in the first state
  // and again only in the steps that moved p-high.
  EXPECT_NE(r.out.find("initial state\n"), std::string::npos);
  EXPECT_NE(r.out.find("activeQ               p-high -> empty"), std::string::npos) << r.out;
  // The victim chosen twice.
  std::size_t preempts = 0;
  for (std::size_t at = r.out.find("preempts v1, v2"); at != std::string::npos;
       at = r.out.find("preempts v1, v2", at + 1)) {
    ++preempts;
  }
  EXPECT_EQ(preempts, 2U) << r.out;
}

TEST(Replay, IsByteIdenticalEveryRun) {
  ScratchDir dir;
  const std::string path =
      generate(dir, "scenarios/binding-in-flight.yaml", {{"activate-on-finish", "off"}});
  const Outcome a = replay(path);
  const Outcome b = replay(path);
  EXPECT_EQ(a.rc, kExitViolated) << a.out << a.err;
  EXPECT_EQ(a.rc, b.rc);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.err, b.err);
  const Outcome c = replay(path, {}, true);
  const Outcome d = replay(path, {}, true);
  EXPECT_EQ(c.out, d.out);
}

TEST(Replay, FullPrintsTheWholeStateAfterEveryStep) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const Outcome r = replay(path, {}, true);
  EXPECT_EQ(r.rc, kExitViolated);
  std::size_t count = 0;
  for (std::size_t at = r.out.find("\n    jobs  "); at != std::string::npos;
       at = r.out.find("\n    jobs  ", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 5U) << r.out;  // the initial state and four steps
}

TEST(Replay, AStepEditedToAnotherEnabledActionDiverges) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const Counterexample cx = load_counterexample_file(path);
  // Step 3 (1-based): find another action enabled where it runs, leading elsewhere.
  const std::size_t k = 3;
  const Cluster cluster(cx.scenario);
  World w(cluster);
  for (std::size_t i = 0; i + 1 < k; ++i)
    w.apply(cx.steps[i].action);
  std::vector<Action> enabled;
  w.enabled_actions(enabled);
  std::string other;
  for (const Action& a : enabled) {
    World next = w;
    next.apply(a);
    if (!(a == cx.steps[k - 1].action) && next.fingerprint() != *cx.steps[k - 1].fingerprint) {
      other = format_action(a, w.cluster());
      break;
    }
  }
  ASSERT_FALSE(other.empty()) << "no other enabled action at step " << k;
  const std::string copy = dir.file("edited.yml");
  const auto [line, column] = edit_step(path, copy, k, other);
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.err.find(fmt::format("{}:{}:{}: diverged at step 3", copy, line, column)),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("diverged at step 3 (exit 2)"), std::string::npos) << r.out;
}

TEST(Replay, AStepThatIsNotEnabledIsNamed) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const std::string copy = dir.file("not-enabled.yml");
  const auto [line, column] = edit_step(path, copy, 4, "bind v1");
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(
      r.err.find(fmt::format("{}:{}:{}: step 4 'bind v1' is not enabled", copy, line, column)),
      std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no binding of v1 is in flight"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("enabled here: "), std::string::npos) << r.err;
}

TEST(Replay, AnUnknownPodIsNamedWithItsPosition) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const std::string copy = dir.file("unknown-pod.yml");
  const auto [line, column] = edit_step(path, copy, 2, "schedule nobody");
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find(fmt::format("{}:{}:{}: step 2: unknown pod 'nobody'", copy, line, column)),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the scenario's pods are: v1, v2, p-high"), std::string::npos) << r.err;
}

TEST(Replay, AnUnknownActionIsNamedWithItsPosition) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  const std::string copy = dir.file("unknown-action.yml");
  const auto [line, column] = edit_step(path, copy, 1, "dance p-high");
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find(fmt::format("{}:{}:{}: step 1: unknown action 'dance'", copy, line, column)),
            std::string::npos)
      << r.err;
}

TEST(Replay, AYamlErrorIsNamedWithItsPosition) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  std::vector<std::string> lines = split_lines(read_text(path));
  const std::size_t at = step_line(lines, 2);
  lines[at] = "  - {action: \"observe\", fingerprint: [}";
  const std::string copy = dir.file("syntax.yml");
  write_text(copy, join_lines(lines));
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_EQ(testing::number_after(r.err, copy + ":"), at + 1) << r.err;
  EXPECT_NE(r.err.find(": invalid YAML: "), std::string::npos) << r.err;
}

TEST(Replay, AMissingFieldIsNamedWithItsPosition) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  std::vector<std::string> lines = split_lines(read_text(path));
  std::erase_if(lines, [](const std::string& l) { return l.starts_with("property:"); });
  const std::string copy = dir.file("missing.yml");
  write_text(copy, join_lines(lines));
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  // Reported at the top-level mapping: its first key, after the header comments.
  std::size_t first_key = 0;
  while (lines[first_key].starts_with("#"))
    ++first_key;
  EXPECT_NE(r.err.find(fmt::format("{}:{}:1: missing required key 'property' in the "
                                   "counterexample",
                                   copy, first_key + 1)),
            std::string::npos)
      << r.err;
}

TEST(Replay, AMissingScenarioFieldIsNamedAtItsPositionInTheFile) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  std::vector<std::string> lines = split_lines(read_text(path));
  std::size_t scenario_name = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] == "scenario:")
      scenario_name = i + 1;
  }
  ASSERT_GT(scenario_name, 0U);
  std::erase_if(lines, [](const std::string& l) {
    return l.starts_with("  nodes:") || l.starts_with("    - {name: node-a");
  });
  const std::string copy = dir.file("missing-nodes.yml");
  write_text(copy, join_lines(lines));
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find(fmt::format("{}:{}:3: missing required key 'nodes' in the scenario", copy,
                                   scenario_name + 1)),
            std::string::npos)
      << r.err;
}

TEST(Replay, AMalformedFingerprintIsNamed) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  std::string text = read_text(path);
  const auto at = text.find("fingerprint: \"0x");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 14, 2, "zz");
  const std::string copy = dir.file("fingerprint.yml");
  write_text(copy, text);
  const Outcome r = replay(copy);
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("expected a fingerprint like \"0x0123456789abcdef\""), std::string::npos)
      << r.err;
}

TEST(Replay, AnUnreadableFileIsAnError) {
  ScratchDir dir;
  const Outcome r = replay(dir.file("absent.yaml"));
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("absent.yaml: cannot read file"), std::string::npos) << r.err;
}

TEST(Replay, UnderReferenceTheScheduleBecomesImpossibleAndTheBlockerIsNamed) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  MechanismChoice reference;
  reference.profile = "reference";
  const Outcome r = replay(path, reference);
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.out.find("fingerprints are not compared"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("step 4 'schedule p-high' is not enabled"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("held at the PreEnqueue gate"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("blocked by inflight=on (the file's inflight=off enables it)"),
            std::string::npos)
      << r.err;
  // The blocker stands under the result too, where the reader of the output looks.
  EXPECT_NE(r.out.find("(exit 2)\n  blocked by inflight=on"), std::string::npos) << r.out;
}

TEST(Replay, UnderReferenceTheScheduleRunsWithEveryPropertyHolding) {
  ScratchDir dir;
  const std::string path =
      generate(dir, "scenarios/nomination-window.yaml", {{"nomination", "async"}});
  MechanismChoice reference;
  reference.profile = "reference";
  const Outcome r = replay(path, reference);
  EXPECT_EQ(r.rc, kExitHolds) << r.out << r.err;
  EXPECT_NE(r.out.find("every step ran and every property held"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Replay, ASwitchOverridesTheFilesMechanisms) {
  ScratchDir dir;
  const std::string path = generate(dir, "", {{"inflight", "off"}});
  MechanismChoice choice;
  choice.switches = {{"inflight", "on"}};
  const Outcome r = replay(path, choice);
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.out.find("changed: --inflight=on"), std::string::npos) << r.out;
  // Restating the recorded value is no override: fingerprints are compared.
  choice.switches = {{"inflight", "off"}};
  const Outcome same = replay(path, choice);
  EXPECT_EQ(same.rc, kExitViolated);
  EXPECT_NE(same.out.find("as recorded"), std::string::npos);
}

TEST(ReplayArgs, ParsesFileFullAndSwitches) {
  std::string error;
  const auto o =
      parse_replay_args({"f.yaml", "--full", "--profile", "reference", "--inflight=off"}, error);
  ASSERT_TRUE(o) << error;
  EXPECT_EQ(o->file, "f.yaml");
  EXPECT_TRUE(o->full);
  EXPECT_EQ(o->mechanisms.profile, "reference");
  ASSERT_EQ(o->mechanisms.switches.size(), 1U);
  EXPECT_FALSE(parse_replay_args({}, error));
  EXPECT_NE(error.find("expected a counterexample file"), std::string::npos);
  EXPECT_FALSE(parse_replay_args({"f.yaml", "--frobnicate"}, error));
  EXPECT_NE(error.find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_FALSE(parse_replay_args({"f.yaml", "--inflight=sideways"}, error));
}

// A race as a bug report tells it: a scenario and its steps, nothing the tool wrote.
const char* const kHandWritten = R"(scenario:
  name: by-hand
  nodes:
    - {name: node-a, cpu: 4, memory: 4}
  pods:
    - {name: v1, priority: 1, cpu: 2, memory: 2, node: node-a}
    - {name: v2, priority: 1, cpu: 2, memory: 2, node: node-a}
    - {name: p-high, priority: 100, cpu: 4, memory: 4}
profile: reference
mechanisms: {inflight: off}
{PROPERTY}steps:
  - {action: "schedule p-high"}
  - {action: "observe"}
  - {action: "flush"}
  - {action: "{LAST}"}
)";

std::string hand_written(const ScratchDir& dir, const std::string& property,
                         const std::string& last) {
  std::string text = kHandWritten;
  text.replace(text.find("{PROPERTY}"), 10, property.empty() ? "" : "property: " + property + "\n");
  text.replace(text.find("{LAST}"), 6, last);
  const std::string path = dir.file("by-hand.yaml");
  write_text(path, text);
  return path;
}

Outcome replay_unverified(const std::string& file) { return replay(file, {}, false, true); }

TEST(ReplayByHand, KeepsTheProfileAndSwitchesOfItsInlineScenario) {
  ScratchDir dir;
  const std::string path = dir.file("inline.yaml");
  write_text(path, R"(scenario:
  name: by-hand
  nodes:
    - {name: node-a, cpu: 4, memory: 4}
  pods:
    - {name: v1, priority: 1, cpu: 4, memory: 4, node: node-a}
    - {name: p-high, priority: 100, cpu: 4, memory: 4}
  profile: kubernetes
  mechanisms: {inflight: off}
steps:
  - {action: "schedule p-high"}
)");
  const Outcome r = replay_unverified(path);
  EXPECT_EQ(r.rc, kExitHolds) << r.out << r.err;
  EXPECT_NE(r.out.find("inflight=off"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(profile kubernetes)"), std::string::npos) << r.out;
}

TEST(ReplayByHand, IsRefusedWithoutTheOptionNamingItAndCheckScenarioOf) {
  ScratchDir dir;
  const Outcome r = replay(hand_written(dir, "no-double-victim", "schedule p-high"));
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.err.find("no scenario-digest"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--allow-unfingerprinted"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("check --scenario-of"), std::string::npos) << r.err;
}

TEST(ReplayByHand, ReplaysWithTheOptionAndSaysNothingWasVerified) {
  ScratchDir dir;
  Outcome r = replay_unverified(hand_written(dir, "no-double-victim", "schedule p-high"));
  EXPECT_EQ(r.rc, kExitViolated) << r.out << r.err;
  EXPECT_NE(r.out.find("unverified     the file has no scenario-digest"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("as written, no-double-victim breaks at step 4"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("reproduced"), std::string::npos) << r.out;

  // The property it names holds along these steps: exit 0.
  r = replay_unverified(hand_written(dir, "no-overcommit", "schedule p-high"));
  EXPECT_EQ(r.rc, kExitHolds) << r.out << r.err;
  // No property named: any that breaks counts.
  r = replay_unverified(hand_written(dir, "", "schedule p-high"));
  EXPECT_EQ(r.rc, kExitViolated) << r.out << r.err;
  EXPECT_NE(r.out.find("recorded       no property"), std::string::npos) << r.out;
  // A step the model does not enable: exit 2, naming it.
  r = replay_unverified(hand_written(dir, "", "terminate v1"));
  EXPECT_EQ(r.rc, kExitBadInput) << r.out << r.err;
  EXPECT_NE(r.err.find("step 4 'terminate v1' is not enabled"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace preemptcheck::cli
