// Nothing wrong in silence: `check --scenario-of` verifies the file's digest as `replay`
// does; a replay without fingerprints is "unverified", never "reproduced", whatever the
// digest says; a replay that stops at step k judges no property past it; `--junit` that cannot
// be written is refused before the search; a lasso that names no property is refused at its
// `loop:`. Every file is written by the tool, then edited as a person would.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"

namespace preemptcheck::cli {
namespace {

using testing::join_lines;
using testing::read_text;
using testing::ScratchDir;
using testing::source_path;
using testing::split_lines;
using testing::write_text;

using testing::Ran;

Ran run(const std::vector<std::string>& args) { return testing::run_command(args); }

// The one file `check ARGS --out DIR` writes (g2-single-victim's lost wake-up, 7 steps).
std::string written_file(const ScratchDir& dir) {
  const Ran check = run({"check", source_path("scenarios/g2-single-victim.yaml"),
                         "--gate=hold-until-done", "--activate-on-finish=off", "--property",
                         "no-lost-wakeup", "--out", dir.path().string(), "--quiet"});
  EXPECT_EQ(check.rc, 1) << check.out << check.err;
  const std::vector<std::string> files = dir.yaml_files();
  EXPECT_EQ(files.size(), 1U);
  return files.empty() ? std::string() : files[0];
}

// The indices of the step lines.
std::vector<std::size_t> step_lines(const std::vector<std::string>& lines) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("  - {action: "))
      out.push_back(i);
  }
  return out;
}

// The file's lines without any step's fingerprint.
std::vector<std::string> without_fingerprints(const std::string& file) {
  std::vector<std::string> lines = split_lines(read_text(file));
  for (std::string& line : lines) {
    const auto at = line.find(", fingerprint: \"");
    if (at != std::string::npos)
      line.erase(at, line.find('"', at + 16) + 1 - at);
  }
  return lines;
}

TEST(ScenarioOf, RefusesAnEditedFileAsReplayDoes) {
  const ScratchDir dir;
  const std::string file = written_file(dir);
  ASSERT_EQ(run({"check", "--scenario-of", file, "--quiet"}).rc, 1);
  // A switch edited: the digest no longer matches.
  std::string text = read_text(file);
  const auto at = text.find("gate: hold-until-done");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 21, "gate: last-victim");
  const std::string edited = dir.file("edited.yaml");
  write_text(edited, text);
  const Ran replay = run({"replay", edited});
  EXPECT_EQ(replay.rc, 2);
  const Ran check = run({"check", "--scenario-of", edited, "--quiet"});
  EXPECT_EQ(check.rc, 2) << check.out;
  EXPECT_EQ(check.out, "");  // nothing searched
  for (const Ran* r : {&replay, &check}) {
    EXPECT_NE(r->err.find(edited + ":"), std::string::npos) << r->err;
    EXPECT_NE(r->err.find("does not match the inline scenario and switches"), std::string::npos)
        << r->err;
  }
  const Ran json = run({"check", "--scenario-of", edited, "--json"});
  EXPECT_EQ(json.rc, 2);
  EXPECT_NE(json.out.find("\"exit_code\":2"), std::string::npos) << json.out;
}

TEST(Unfingerprinted, IsNeverReproducedWhateverTheDigestSays) {
  const ScratchDir dir;
  const std::string file = written_file(dir);
  const std::vector<std::string> lines = without_fingerprints(file);
  const std::vector<std::size_t> steps = step_lines(lines);
  ASSERT_GE(steps.size(), 3U);
  std::vector<std::string> added = lines;
  added.insert(added.begin() + static_cast<std::ptrdiff_t>(steps[1]), lines[steps[1]]);
  std::vector<std::string> swapped = lines;
  std::swap(swapped[steps[0]], swapped[steps[1]]);
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"as-written", lines}, {"step-added", added}, {"steps-swapped", swapped}};
  for (const auto& [name, edited] : cases) {
    const std::string path = dir.file(name + ".yml");
    write_text(path, join_lines(edited));
    const Ran replay = run({"replay", path, "--allow-unfingerprinted"});
    EXPECT_EQ(replay.out.find("reproduced"), std::string::npos) << name << "\n" << replay.out;
    EXPECT_NE(replay.out.find("unverified"), std::string::npos) << name << "\n" << replay.out;
    const Ran json = run({"replay", path, "--allow-unfingerprinted", "--json"});
    EXPECT_NE(json.out.find("\"reproduced\":false"), std::string::npos) << name << json.out;
    EXPECT_NE(json.out.find("\"unverified\":true"), std::string::npos) << name << json.out;
  }
}

TEST(StoppedReplay, JudgesNoPropertyPastTheLastStepThatRan) {
  // A step that is not enabled under other switches (the README's example).
  const std::string committed =
      source_path("counterexamples/no-lost-wakeup--g1-basic--kubernetes.yaml");
  const Ran text = run({"replay", committed, "--profile", "reference"});
  EXPECT_EQ(text.rc, 2);
  EXPECT_EQ(text.out.find("holds at every step"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("not judged past step 1"), std::string::npos) << text.out;
  const Ran json = run({"replay", committed, "--profile", "reference", "--json"});
  EXPECT_EQ(json.rc, 2);
  EXPECT_EQ(json.out.find("\"verdict\":\"holds\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"verdict\":\"not-judged\""), std::string::npos) << json.out;
  // A step made impossible in a file without fingerprints: its first step dropped.
  const ScratchDir dir;
  const std::string file = written_file(dir);
  std::vector<std::string> lines = without_fingerprints(file);
  const std::vector<std::size_t> steps = step_lines(lines);
  ASSERT_FALSE(steps.empty());
  lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(steps[0]));
  const std::string dropped = dir.file("dropped.yml");
  write_text(dropped, join_lines(lines));
  const Ran replay = run({"replay", dropped, "--allow-unfingerprinted"});
  EXPECT_EQ(replay.rc, 2) << replay.out << replay.err;
  EXPECT_EQ(replay.out.find("holds at every step"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("not judged past step 0"), std::string::npos) << replay.out;
  // A fingerprint that differs at step 3 (the digest still matches): judged up to step 2.
  std::vector<std::string> changed = split_lines(read_text(file));
  const std::string line = changed[step_lines(changed).at(2)];
  const auto at = line.find("fingerprint: \"0x");
  ASSERT_NE(at, std::string::npos) << line;
  changed[step_lines(changed).at(2)].replace(at + 16, 16, "0123456789abcdef");
  const std::string differs = dir.file("differs.yml");
  write_text(differs, join_lines(changed));
  const Ran diverged = run({"replay", differs});
  EXPECT_EQ(diverged.rc, 2) << diverged.out << diverged.err;
  EXPECT_NE(diverged.out.find("diverged at step 3"), std::string::npos) << diverged.out;
  EXPECT_EQ(diverged.out.find("holds at every step"), std::string::npos) << diverged.out;
  EXPECT_NE(diverged.out.find("not judged past step 2"), std::string::npos) << diverged.out;
}

TEST(Junit, ThatCannotBeWrittenIsRefusedBeforeTheSearch) {
  const ScratchDir dir;
  for (const std::string& junit : {dir.path().string(), dir.file("missing/x.xml")}) {
    const Ran check = run({"check", source_path("scenarios/g1-basic.yaml"), "--profile",
                           "kubernetes", "--expect-violated", "no-double-victim",
                           "--expect-violated", "no-lost-wakeup", "--junit", junit, "--quiet"});
    EXPECT_EQ(check.rc, 2) << junit << "\n" << check.out << check.err;
    EXPECT_EQ(check.out, "") << junit;  // nothing searched
    EXPECT_NE(check.err.find("cannot write '" + junit + "'"), std::string::npos) << check.err;
    EXPECT_NE(check.err.find("nothing was searched"), std::string::npos) << check.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing")));
}

TEST(Lasso, WithoutAPropertyIsRefusedAtItsLoop) {
  const ScratchDir dir;
  const Ran check = run({"check", source_path("scenarios/g2-single-victim.yaml"), "--profile",
                         "kubernetes", "--liveness", "--unfair", "--out", dir.path().string()});
  ASSERT_EQ(check.rc, 1) << check.out << check.err;
  const std::vector<std::string> files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1U);
  // Written by hand from it: no property, message or digest.
  std::vector<std::string> kept;
  std::size_t loop_line = 0;
  for (const std::string& line : split_lines(read_text(files[0]))) {
    if (line.starts_with("property:") || line.starts_with("message:") ||
        line.starts_with("scenario-digest:"))
      continue;
    kept.push_back(line);
    if (line.starts_with("loop:"))
      loop_line = kept.size();
  }
  ASSERT_NE(loop_line, 0U);
  const std::string by_hand = dir.file("by-hand.yml");
  write_text(by_hand, join_lines(kept));
  const Ran replay = run({"replay", by_hand, "--allow-unfingerprinted"});
  EXPECT_EQ(replay.rc, 2);
  EXPECT_NE(replay.err.find(fmt::format("{}:{}:1: 'loop' marks a lasso", by_hand, loop_line)),
            std::string::npos)
      << replay.err;
  EXPECT_NE(replay.err.find("expected 'property:'"), std::string::npos) << replay.err;
  EXPECT_EQ(replay.out.find("violation of :"), std::string::npos) << replay.out;
}

}  // namespace
}  // namespace preemptcheck::cli
