// no-starvation on the reference scheduler: it holds on committed scenarios under weak
// fairness (state counts pinned), and without fairness the flush loop starves a preemptor; the
// tool's lasso file reads back, replays, returns to its start and is judged as recorded.
#include "properties/liveness_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "files/counterexample_yaml.h"
#include "files/scenario_yaml.h"
#include "impl/mechanisms.h"
#include "spec/liveness.h"

namespace preemptcheck {
namespace {

Scenario scenario(const std::string& name, const std::string& profile_name) {
  Scenario s = load_scenario_file("scenarios/" + name + ".yaml");
  s.profile = profile_name;
  s.mechanisms = *profile(profile_name);
  return s;
}

std::vector<Action> actions_of(const Counterexample& cx) {
  std::vector<Action> out;
  for (const CounterexampleStep& s : cx.steps)
    out.push_back(s.action);
  return out;
}

TEST(propertiesLiveness, NoStarvationHoldsOnCommittedScenariosUnderWeakFairness) {
  struct Case {
    const char* scenario;
    const char* profile;
    std::uint64_t states;
  };
  for (const Case& c :
       {Case{"g2-single-victim", "reference", 33}, Case{"g2-single-victim", "kubernetes", 35},
        Case{"g1-basic", "reference", 132}, Case{"g1-basic", "kubernetes", 151},
        Case{"g4-higher-takeover", "reference", 1410},
        Case{"g4-higher-takeover", "kubernetes", 11311}}) {
    const LivenessRun run = check_no_starvation(scenario(c.scenario, c.profile), 100000, "test");
    EXPECT_EQ(run.status, checker::LivenessStatus::kHolds) << c.scenario << " " << c.profile;
    EXPECT_EQ(run.states, c.states) << c.scenario << " " << c.profile;
    EXPECT_FALSE(run.counterexample);
  }
}

TEST(propertiesLiveness, AStateLimitIsNeverAVerdict) {
  const LivenessRun run =
      check_no_starvation(scenario("g4-higher-takeover", "reference"), 1000, "test");
  EXPECT_EQ(run.status, checker::LivenessStatus::kTooManyStates);
  EXPECT_FALSE(run.counterexample);
}

TEST(propertiesLiveness, WithoutFairnessTheFlushLoopStarvesThePreemptorAndTheFileReplays) {
  const Scenario s = scenario("g2-single-victim", "kubernetes");
  const LivenessRun run = check_no_starvation(s, 100000, "test", false);
  ASSERT_EQ(run.status, checker::LivenessStatus::kViolated);
  ASSERT_TRUE(run.counterexample);
  const Counterexample& cx = *run.counterexample;
  EXPECT_EQ(cx.property, "no-starvation");
  EXPECT_EQ(cx.found_by.method, kLivenessUnfairMethod);
  ASSERT_EQ(cx.steps.size(), 3U);
  EXPECT_EQ(cx.steps[0].text, "schedule preemptor");
  EXPECT_EQ(cx.steps[1].text, "observe");
  EXPECT_EQ(cx.steps[2].text, "flush");
  EXPECT_EQ(cx.loop, 2U);
  EXPECT_EQ(cx.message.rfind("preemptor stays pending forever", 0), 0U) << cx.message;

  // Written, read back, replayed: the loop returns to the state after step 2.
  const Counterexample back =
      load_counterexample_text(counterexample_to_yaml(cx, "lasso.yaml"), "lasso.yaml");
  ASSERT_EQ(back.loop, 2U);
  EXPECT_TRUE(back.digest_matches());
  const Schedule schedule = replay_schedule(back.scenario, actions_of(back));
  ASSERT_FALSE(schedule.blocked);
  for (std::size_t i = 0; i < back.steps.size(); ++i)
    EXPECT_EQ(schedule.steps[i].fingerprint, back.steps[i].fingerprint) << "step " << i + 1;
  const LassoVerdict unfair = judge_lasso(schedule, *back.loop, false);
  EXPECT_TRUE(unfair.returns);
  EXPECT_EQ(unfair.message, cx.message);
  // Under weak fairness the same loop neglects the executor's job (its first step).
  const LassoVerdict fair = judge_lasso(schedule, *back.loop, true);
  EXPECT_TRUE(fair.returns);
  EXPECT_TRUE(fair.message.empty());
  EXPECT_NE(fair.why_not.find("the loop is not fair: 'clear-nominations preemptor' is enabled"),
            std::string::npos)
      << fair.why_not;
  // A loop marked one step earlier does not return to where it started.
  EXPECT_FALSE(judge_lasso(schedule, 1, false).returns);
}

TEST(propertiesLiveness, TheLeadsToFormCountsALegitimateTakeoverAsStarvation) {
  // G(could progress -> F bound or gone): `second` could be bound at the start, `first` takes
  // the space, and `second` retries forever on the flush loop. The recurring form, which
  // no-starvation uses, asks `second` to be able to progress on the loop, and holds.
  const Scenario s = scenario("assume-window", "reference");
  const Cluster cluster(s);
  const WorldLivenessModel model(cluster);
  auto property = no_starvation(cluster);
  property.form = checker::LivenessForm::kLeadsTo;
  const auto result = checker::check_liveness(model, property, 1000);
  ASSERT_EQ(result.status, checker::LivenessStatus::kViolated);
  std::vector<std::string> prefix;
  std::vector<std::string> cycle;
  for (const Action& a : result.lasso->prefix)
    prefix.push_back(format_action(a, cluster));
  for (const Action& a : result.lasso->cycle)
    cycle.push_back(format_action(a, cluster));
  EXPECT_EQ(cluster.pod_name(static_cast<PodId>(result.lasso->obligation)), "second");
  EXPECT_EQ(prefix, std::vector<std::string>({"schedule first", "bind first", "observe"}));
  EXPECT_EQ(cycle, std::vector<std::string>({"schedule second", "flush"}));
  EXPECT_EQ(check_no_starvation(s, 1000, "test").status, checker::LivenessStatus::kHolds);
}

TEST(propertiesLiveness, ASecondSchedulerThatPutsTheReturningVictimBackMakesAPreemptionLoop) {
  // #130429: the lasso's prefix and loop lengths as the tool prints them, under the profile
  // the committed file belongs to and under reference, and a replay that returns.
  struct Case {
    const char* profile;
    std::size_t prefix;
    std::size_t loop;
    std::uint64_t states;
  };
  for (const Case& c : {Case{"kubernetes-1.35", 7, 11, 561}, Case{"reference", 5, 10, 119}}) {
    const Scenario s = scenario("returning-victim", c.profile);
    const LivenessRun run = check_no_starvation(s, 100000, "test");
    ASSERT_EQ(run.status, checker::LivenessStatus::kViolated) << c.profile;
    EXPECT_EQ(run.states, c.states) << c.profile;
    ASSERT_TRUE(run.counterexample);
    const Counterexample& cx = *run.counterexample;
    ASSERT_TRUE(cx.loop);
    EXPECT_EQ(*cx.loop, c.prefix) << c.profile;
    EXPECT_EQ(cx.steps.size() - *cx.loop, c.loop) << c.profile;
    EXPECT_EQ(cx.message.rfind("p-high stays pending forever", 0), 0U) << cx.message;
    bool recreated = false;
    bool rebound = false;
    for (std::size_t i = *cx.loop; i < cx.steps.size(); ++i) {
      recreated = recreated || cx.steps[i].text == "recreate victim";
      rebound = rebound || cx.steps[i].text == "external-bind victim node-a";
    }
    EXPECT_TRUE(recreated && rebound) << c.profile;
    const Schedule schedule = replay_schedule(s, actions_of(cx));
    ASSERT_FALSE(schedule.blocked);
    const LassoVerdict fair = judge_lasso(schedule, *cx.loop, true);
    EXPECT_TRUE(fair.returns);
    EXPECT_EQ(fair.message, cx.message);
  }
}

TEST(propertiesLiveness, ASecondSchedulersPodIsNotThisSchedulersToPlace) {
  // no-starvation asks nothing of a second scheduler's pod: it is never pending for this
  // scheduler, however long its own scheduler leaves it unbound.
  const Cluster cluster(scenario("returning-victim", "reference"));
  World w(cluster);
  const PodId victim = cluster.find_pod("victim").value();
  const PodId p_high = cluster.find_pod("p-high").value();
  EXPECT_TRUE(spec::is_pending(w, p_high));
  for (const char* line : {"schedule p-high", "evict p-high victim", "terminate victim",
                           "recreate victim", "observe", "observe", "observe", "observe"}) {
    const auto a = parse_action(line, cluster);
    ASSERT_TRUE(a && w.is_enabled(*a)) << line;
    w.apply(*a);
  }
  ASSERT_TRUE(w.api(victim).exists);
  ASSERT_EQ(w.api(victim).node, kNoNode);
  EXPECT_FALSE(spec::is_pending(w, victim));
  EXPECT_FALSE(spec::could_progress(w, victim));
}

TEST(propertiesLiveness, TheReturningVictimsLoopClosesWhenNominationsAreRespected) {
  // The second scheduler counting nominations, or one scheduler placing both pods.
  for (const char* name : {"returning-victim-aware", "returning-victim-one-scheduler"}) {
    for (const char* profile : {"reference", "kubernetes", "kubernetes-1.35"}) {
      const LivenessRun run = check_no_starvation(scenario(name, profile), 100000, "test");
      EXPECT_EQ(run.status, checker::LivenessStatus::kHolds) << name << " " << profile;
    }
  }
}

}  // namespace
}  // namespace preemptcheck
