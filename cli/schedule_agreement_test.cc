// One schedule, one set of words: the comment, the fingerprint and the verdict printed for
// step k are byte-identical between `search`, `check` (on the cluster the search shrank to),
// `check --out` + `replay`, and the counterexample files both commands write.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/check_command.h"
#include "cli/command_test_support.h"
#include "cli/replay_command.h"
#include "cli/search_command.h"
#include "files/counterexample_yaml.h"
#include "files/scenario_yaml.h"
#include "report/json.h"

namespace preemptcheck::cli {
namespace {

using testing::ScratchDir;
using testing::split_lines;
using testing::write_text;

// The numbered schedule lines of a command's output ("   1. schedule p  # ...").
std::vector<std::string> schedule_lines(const std::string& out) {
  std::vector<std::string> steps;
  for (const std::string& line : split_lines(out)) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ')
      ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] >= '0' && line[j] <= '9')
      ++j;
    if (i >= 2 && j > i && j + 1 < line.size() && line[j] == '.' && line[j + 1] == ' ') {
      steps.push_back(line);
    }
  }
  return steps;
}

// The text after the first line starting with `prefix`.
std::string after(const std::string& out, const std::string& prefix) {
  for (const std::string& line : split_lines(out)) {
    if (line.starts_with(prefix))
      return line.substr(prefix.size());
  }
  return {};
}

// The comments written beside the steps of a counterexample file.
std::vector<std::string> file_comments(const std::string& path) {
  std::vector<std::string> out;
  bool in_steps = false;
  for (const std::string& line : split_lines(testing::read_text(path))) {
    if (line.starts_with("steps:"))
      in_steps = true;
    const auto hash = line.find("}  ");
    if (in_steps && line.starts_with("  - ") && hash != std::string::npos) {
      out.push_back(line.substr(line.find("# ", hash) + 2));
    }
  }
  return out;
}

TEST(ScheduleAgreement, SearchCheckOutAndReplayPrintTheSameWordsForEveryStep) {
  ScratchDir dir;
  // search: a shrunk cluster and its breadth-first shortest schedule, written to a file.
  std::string error;
  auto search = parse_search_args({"--seed", "2", "--runs", "100", "--inflight=off", "--property",
                                   "no-double-victim", "--out", dir.file("search")},
                                  error);
  ASSERT_TRUE(search.has_value()) << error;
  std::ostringstream search_out;
  std::ostringstream search_err;
  ASSERT_EQ(run_search_command(*search, search_out, search_err), kExitViolated)
      << search_out.str() << search_err.str();
  const std::string search_file =
      dir.file("search") + "/no-double-victim--search-2--inflight-off.yaml";
  const Counterexample searched = load_counterexample_file(search_file);

  // check --out on the same cluster finds the same shortest schedule.
  const std::string scenario_file = dir.file("cluster.yaml");
  write_text(scenario_file, scenario_to_yaml(searched.scenario));
  CheckOptions check;
  check.scenario_path = scenario_file;
  check.checked.reset();
  check.checked.set(static_cast<std::size_t>(*spec::find_property("no-double-victim")));
  check.out_dir = dir.file("check");
  std::ostringstream check_out;
  std::ostringstream check_err;
  ASSERT_EQ(run_check(check, check_out, check_err), kExitViolated) << check_out.str();
  const auto written = std::filesystem::directory_iterator(dir.file("check"))->path().string();
  const Counterexample checked = load_counterexample_file(written);

  // replay of the file check wrote, as JSON.
  ReplayOptions replay;
  replay.file = written;
  replay.json = true;
  std::ostringstream replay_out;
  std::ostringstream replay_err;
  ASSERT_EQ(run_replay(replay, replay_out, replay_err), kExitViolated) << replay_err.str();
  const report::Json doc = report::Json::parse(replay_out.str());

  // The printed schedules, line for line.
  const auto search_steps = schedule_lines(search_out.str());
  const auto check_steps = schedule_lines(check_out.str());
  ASSERT_FALSE(check_steps.empty()) << check_out.str();
  EXPECT_EQ(search_steps, check_steps) << search_out.str() << check_out.str();

  // Step by step: action, comment and fingerprint, in both files and in replay.
  const auto search_comments = file_comments(search_file);
  const auto check_comments = file_comments(written);
  ASSERT_EQ(check_comments.size(), checked.steps.size());
  EXPECT_EQ(search_comments, check_comments);
  ASSERT_EQ(searched.steps.size(), checked.steps.size());
  ASSERT_EQ(doc["steps"].size(), checked.steps.size());
  for (std::size_t i = 0; i < checked.steps.size(); ++i) {
    const report::Json& step = doc["steps"][i];
    SCOPED_TRACE(fmt::format("step {}", i + 1));
    EXPECT_EQ(searched.steps[i].text, checked.steps[i].text);
    EXPECT_EQ(searched.steps[i].fingerprint, checked.steps[i].fingerprint);
    EXPECT_EQ(step["action"].get<std::string>(), checked.steps[i].text);
    EXPECT_EQ(step["fingerprint"].get<std::string>(),
              format_fingerprint(*checked.steps[i].fingerprint));
    // A file's comments are written, never read back: compare what each command printed.
    const std::string& line = check_steps[i];
    EXPECT_EQ(line.substr(line.find("  # ") + 4), step["comment"].get<std::string>());
    EXPECT_EQ(check_comments[i], step["comment"].get<std::string>());
    EXPECT_EQ(line.substr(0, line.find("  # ")).find(checked.steps[i].text), line.find(". ") + 2);
  }

  // The verdict at the last step: the same property and message everywhere.
  const std::string verdict = checked.property + ": " + checked.message;
  EXPECT_EQ(searched.property + ": " + searched.message, verdict);
  EXPECT_EQ(after(check_out.str(), "result     VIOLATED "), verdict);
  EXPECT_EQ(after(search_out.str(), "VIOLATED   "), verdict);
  const report::Json& last = doc["steps"].back()["violated"];
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last[0]["property"].get<std::string>() + ": " + last[0]["message"].get<std::string>(),
            verdict);
}

}  // namespace
}  // namespace preemptcheck::cli
