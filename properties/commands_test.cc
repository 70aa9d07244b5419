// The commands as library values, without the command line: a check's options refused as a
// value, a check run (its verdict, the gate's expectations, each violation's schedule), a
// liveness run, and the replay of committed counterexample files (reproduced, or judged under
// other switches).
#include <gtest/gtest.h>

#include <string>

#include "files/counterexample_yaml.h"
#include "files/scenario_yaml.h"
#include "impl/mechanism_choice.h"
#include "properties/check_request.h"
#include "properties/check_run.h"
#include "properties/liveness_run.h"
#include "properties/ranks.h"
#include "properties/replay_run.h"

namespace preemptcheck {
namespace {

constexpr const char* kInflightOff = "counterexamples/no-double-victim--default--inflight-off.yaml";
constexpr const char* kLasso =
    "counterexamples/no-starvation--returning-victim--kubernetes-1.35.yaml";

Scenario scenario_with(const std::string& path, const MechanismChoice& choice) {
  Scenario s = load_scenario_file(path);
  EXPECT_FALSE(apply_choice(s, choice).has_value());
  return s;
}

TEST(CheckRequest, OptionsThatDoNotGoTogetherAreRefusedInWords) {
  CheckRequest r;
  EXPECT_EQ(check_request_problem(r), "");
  r.unfair = true;
  EXPECT_EQ(check_request_problem(r), "--unfair applies to --liveness only");
  r.liveness = true;
  EXPECT_EQ(check_request_problem(r), "");
  r.expect_violated = {"no-overcommit"};
  EXPECT_NE(check_request_problem(r).find("names a safety property"), std::string::npos);
  r = CheckRequest{};
  r.seed = 3;
  EXPECT_NE(check_request_problem(r).find("--seed seeds the random walks"), std::string::npos);
  r = CheckRequest{};
  r.junit_path = "j.xml";
  r.stop_at_first = true;
  EXPECT_TRUE(r.gated());
  EXPECT_NE(check_request_problem(r).find("--stop-at-first decides only one"), std::string::npos);
}

TEST(CheckRun, AViolationComesWithItsScheduleAndTheGateJudgesIt) {
  MechanismChoice choice;
  choice.switches = {{"inflight", "off"}};
  const Scenario scenario = scenario_with("scenarios/default.yaml", choice);
  CheckRequest request;
  request.threads = 1;
  request.expect_violated = {"no-double-victim"};
  const CheckRun run = run_check(request, scenario, Ranks::of_this_process(), {});
  EXPECT_EQ(run.failure, "");
  EXPECT_EQ(run.result.outcome, checker::Outcome::kViolated);
  ASSERT_TRUE(run.schedule.has_value());
  EXPECT_EQ(run.schedule->steps.size(), run.result.violation->path.size());
  EXPECT_TRUE(run.unconfirmed.empty());
  ASSERT_FALSE(run.expectations.empty());
  // Exit 0 when every expectation is met, 1 when one is not.
  bool all_met = true;
  for (const Expectation& e : run.expectations)
    all_met = all_met && e.is_met();
  EXPECT_EQ(run.exit_code, all_met ? 0 : 1);
}

TEST(CheckRun, TheReferenceDefaultHolds) {
  const Scenario scenario = scenario_with("scenarios/default.yaml", {});
  CheckRequest request;
  request.threads = 2;
  const CheckRun run = run_check(request, scenario, Ranks::of_this_process(), {});
  EXPECT_EQ(run.result.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_FALSE(run.schedule.has_value());
  EXPECT_TRUE(run.others.empty());
}

TEST(LivenessRun, ABoundTooSmallProvesNothing) {
  const Scenario scenario = scenario_with("scenarios/three-preemptors.yaml", {});
  CheckRequest request;
  request.liveness = true;
  request.limits.max_states = 100;
  const LivenessCheckRun run = run_liveness_check(request, scenario, "preemptcheck check");
  EXPECT_EQ(run.outcome, checker::Outcome::kLimitReached);
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(run.max_states, 100U);
}

TEST(ReplayRun, ACommittedFileReproducesAsRecorded) {
  for (const char* file : {kInflightOff, kLasso}) {
    const Counterexample cx = load_counterexample_file(file);
    const ReplayRun run = replay_counterexample(cx, cx.scenario, file);
    EXPECT_FALSE(run.overridden) << file;
    EXPECT_FALSE(run.unverified) << file;
    EXPECT_TRUE(run.ran_through()) << file;
    EXPECT_EQ(run.diverged, "") << file;
    EXPECT_EQ(run.exit_code, 1) << file;
    EXPECT_EQ(run.lasso.has_value(), cx.loop.has_value()) << file;
  }
}

TEST(ReplayRun, UnderOtherSwitchesAStepThatIsNotEnabledNamesTheSwitch) {
  const Counterexample cx = load_counterexample_file(kInflightOff);
  Scenario run = cx.scenario;
  MechanismChoice choice;
  choice.switches = {{"inflight", "on"}};
  ASSERT_FALSE(apply_choice(run, choice).has_value());
  const ReplayRun replay = replay_counterexample(cx, run, kInflightOff);
  EXPECT_TRUE(replay.overridden);
  ASSERT_TRUE(replay.schedule.blocked.has_value());
  EXPECT_FALSE(replay.ran_through());
  EXPECT_NE(replay.blocker.find("inflight=on"), std::string::npos) << replay.blocker;
  EXPECT_EQ(replay.exit_code, 2);
  EXPECT_EQ(replay.diverged,
            "step " + std::to_string(replay.schedule.blocked->number) + " is not enabled");
}

}  // namespace
}  // namespace preemptcheck
