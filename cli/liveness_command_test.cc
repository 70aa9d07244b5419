// Tests of `check --liveness` and of `replay` on a lasso file: the verdicts and exit codes, the
// file the check writes, its replay (the loop returns to its start), and a lasso file edited
// so that its loop no longer returns, or so that it claims fairness its loop does not have.
#include "cli/liveness_command.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command_test_support.h"
#include "cli/replay_command.h"

namespace preemptcheck::cli {
namespace {

using testing::read_text;
using testing::ScratchDir;
using testing::source_path;
using testing::write_text;

using Outcome = testing::Ran;

Outcome run(const std::vector<std::string>& args) { return testing::run_command(args); }

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

const std::string kG2 = "scenarios/g2-single-victim.yaml";

TEST(cliLiveness, NoStarvationHoldsOnTheWholeGraphUnderFairness) {
  const Outcome r = run({"check", source_path(kG2), "--profile", "kubernetes", "--liveness"});
  EXPECT_EQ(r.rc, kExitHolds) << r.out << r.err;
  EXPECT_NE(r.out.find("explored   35 states, 66 transitions, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": the whole graph\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result     no-starvation holds: no fair loop of the graph starves a pod "
                       "(exit 0)\n"),
            std::string::npos)
      << r.out;
}

TEST(cliLiveness, AStateLimitIsExitThreeAndNeverHolds) {
  const Outcome r = run({"check", source_path(kG2), "--liveness", "--max-states", "10"});
  EXPECT_EQ(r.rc, kExitLimit) << r.out << r.err;
  EXPECT_NE(r.out.find("more than 10 states; nothing is proven (exit 3)"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("holds"), std::string::npos) << r.out;
}

TEST(cliLiveness, OptionsThatDoNotApplyAreRefused) {
  Outcome r = run({"check", source_path(kG2), "--unfair"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("--unfair applies to --liveness only"), std::string::npos) << r.err;
  r = run({"check", source_path(kG2), "--liveness", "--property", "no-double-victim"});
  EXPECT_EQ(r.rc, kExitBadInput);
  EXPECT_NE(r.err.find("--liveness checks no-starvation alone"), std::string::npos) << r.err;
  for (const std::string limit : {"--max-depth", "--max-memory"}) {
    r = run({"check", source_path(kG2), "--liveness", limit, limit == "--max-memory" ? "1G" : "5"});
    EXPECT_EQ(r.rc, kExitBadInput) << limit;
    EXPECT_NE(r.err.find("bounded by --max-states and --time-limit alone"), std::string::npos)
        << r.err;
  }
}

TEST(cliLiveness, AnUnfairLassoIsWrittenAndReplaysWithItsLoop) {
  const ScratchDir dir;
  const Outcome r = run({"check", source_path(kG2), "--profile", "kubernetes", "--liveness",
                         "--unfair", "--out", dir.path().string()});
  ASSERT_EQ(r.rc, kExitViolated) << r.out << r.err;
  EXPECT_NE(r.out.find("lasso (3 steps: a shortest prefix of 2, then a loop of 1 that repeats "
                       "forever):\n"),
            std::string::npos)
      << r.out;
  const auto files = dir.yaml_files();
  ASSERT_EQ(files.size(), 1U);
  EXPECT_EQ(std::filesystem::path(files[0]).filename(),
            "no-starvation--g2-single-victim--kubernetes--unfair.yaml");
  const std::string text = read_text(files[0]);
  EXPECT_NE(text.find("loop: 2  # step 3 repeats forever"), std::string::npos) << text;
  // The file is named as a safety check names its file: one replay line, nothing else.
  EXPECT_NE(r.out.find("\nreplay     preemptcheck replay " + files[0] + "\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;

  const Outcome replayed = run({"replay", files[0]});
  EXPECT_EQ(replayed.rc, kExitViolated) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("---- the loop: step 3 repeats forever"), std::string::npos);
  EXPECT_NE(replayed.out.find("result         reproduced the recorded violation of "
                              "no-starvation: step 3 returns to the state after step 2; "
                              "preemptor stays pending forever"),
            std::string::npos)
      << replayed.out;

  // The swimlane page marks the loop before its first step.
  const std::string page = dir.file("page.html");
  EXPECT_EQ(run({"replay", files[0], "--html", page}).rc, kExitViolated);
  const std::string html = read_text(page);
  EXPECT_NE(html.find("no-starvation</span>: after step 2, step 3 repeats forever</h1>"),
            std::string::npos);
  EXPECT_LT(html.find("id=\"step-2\""), html.find("<tbody class=\"loop-start\""));
  EXPECT_LT(html.find("<tbody class=\"loop-start\""), html.find("id=\"step-3\""));

  // graph --around draws it, verified as replay verifies it: the loop's last step re-enters
  // the state after step 2.
  const std::string dot = dir.file("around.dot");
  const Outcome around = run({"graph", "--around", files[0], "--dot", dot});
  EXPECT_EQ(around.rc, kExitHolds) << around.out << around.err;
  EXPECT_NE(read_text(dot).find("#2, #3"), std::string::npos);

  // The loop marked one step earlier does not return: refused with the loop's position.
  const std::string moved = dir.file("moved.yaml");
  write_text(moved, replace_once(text, "loop: 2", "loop: 1"));
  const Outcome bad = run({"replay", moved});
  const Outcome bad_graph = run({"graph", "--around", moved, "--dot", dot});
  EXPECT_EQ(bad_graph.rc, kExitBadInput);
  EXPECT_NE(bad_graph.err.find("the loop after step 1 does not return to where it started"),
            std::string::npos)
      << bad_graph.err;
  EXPECT_EQ(bad.rc, kExitBadInput) << bad.out;
  EXPECT_NE(bad.err.find(moved + ":24:7: the loop does not return: the state after step 3 is "
                                 "not the one after step 1"),
            std::string::npos)
      << bad.err;

  // Judged under weak fairness, the same loop neglects the executor: no pod starves on it.
  const std::string fair = dir.file("fair.yaml");
  write_text(fair, replace_once(text, "method: liveness-unfair", "method: liveness"));
  const Outcome unfair = run({"replay", fair});
  EXPECT_EQ(unfair.rc, kExitBadInput) << unfair.out;
  EXPECT_NE(unfair.out.find("diverged: step 3 returns to the state after step 2, but no pod "
                            "starves on it: the loop is not fair: 'clear-nominations preemptor'"),
            std::string::npos)
      << unfair.out;

  // Under the reference profile the schedule is still a loop, but the preemptor waits for its
  // own victims in flight on it: no cycle would let it preempt, so nothing starves.
  const Outcome reference = run({"replay", files[0], "--profile", "reference"});
  EXPECT_EQ(reference.rc, kExitHolds) << reference.out << reference.err;
  EXPECT_NE(reference.out.find("result         step 3 returns to the state after step 2; "
                               "no-starvation holds on this loop"),
            std::string::npos)
      << reference.out;
}

// The lasso search does not depend on the thread count: --threads 1, 2 and 3 print the same
// text and write the same lasso file, byte for byte (rank counts: cli_mpi_check runs the
// committed lasso file's check under 2 and 3 ranks).
TEST(cliLiveness, EveryThreadCountPrintsAndWritesTheSameLasso) {
  const std::string scenario = source_path("scenarios/returning-victim.yaml");
  std::string first_out;
  std::string first_file;
  for (const char* threads : {"1", "2", "3"}) {
    const ScratchDir dir;
    const Outcome r = run({"check", scenario, "--profile", "kubernetes-1.35", "--liveness",
                           "--threads", threads, "--out", dir.path().string()});
    ASSERT_EQ(r.rc, kExitViolated) << r.out << r.err;
    const auto files = dir.yaml_files();
    ASSERT_EQ(files.size(), 1U);
    std::string out = r.out;
    // The output names the directory the file went to, which differs per run.
    for (auto at = out.find(dir.path().string()); at != std::string::npos;
         at = out.find(dir.path().string()))
      out.replace(at, dir.path().string().size(), "DIR");
    // The statistics line's time, rate and memory differ per run; its counts do not.
    const auto stats = out.find(" transitions, ");
    if (stats != std::string::npos)
      out.erase(stats, out.find(": the whole graph", stats) - stats);
    const std::string file = read_text(files[0]);
    if (first_out.empty()) {
      first_out = out;
      first_file = file;
      continue;
    }
    EXPECT_EQ(out, first_out) << "--threads " << threads;
    EXPECT_EQ(file, first_file) << "--threads " << threads;
  }
  EXPECT_NE(first_file.find("\nloop: "), std::string::npos) << first_file;
}

}  // namespace
}  // namespace preemptcheck::cli
