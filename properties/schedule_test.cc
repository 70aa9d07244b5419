// The schedule: one replay gives, per step, the text, comment, fingerprint and verdicts the
// explorer's own steps give; a step that is not enabled stops it with the World's reason; the
// counterexample built from it carries exactly those words.
#include "properties/schedule.h"

#include <gtest/gtest.h>

#include <memory>

#include "files/scenario_yaml.h"
#include "impl/mechanisms.h"
#include "properties/reduce.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

Scenario scenario(const std::string& name, const std::string& switch_name,
                  const std::string& value) {
  Scenario s = load_scenario_file("scenarios/" + name + ".yaml");
  EXPECT_FALSE(set_mechanism(s.mechanisms, switch_name, value).has_value());
  return s;
}

// The explorer's shortest violation on `s`.
checker::Violation<Action> shortest(const Scenario& s) {
  WorldModel model(std::make_shared<const Cluster>(s));
  auto r = explore_world(model, checker::Limits{2'000'000, std::nullopt, std::nullopt});
  EXPECT_TRUE(r.violation.has_value());
  return *r.violation;
}

TEST(Schedule, AgreesWithTheExplorerOnItsShortestViolation) {
  const Scenario s = scenario("default", "inflight", "off");
  const auto v = shortest(s);
  const Schedule schedule = replay_schedule(s, v.path);
  ASSERT_FALSE(schedule.blocked.has_value());
  ASSERT_EQ(schedule.steps.size(), v.path.size());
  EXPECT_EQ(schedule.first_violation(), v.path.size());
  const auto& last = schedule.violated_at(v.path.size());
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.front().name, v.name);
  EXPECT_EQ(last.front().message, v.message);
  // Each step's fingerprint is the World's after applying the same actions.
  World w(*schedule.cluster);
  for (std::size_t i = 0; i < v.path.size(); ++i) {
    w.apply(v.path[i]);
    EXPECT_EQ(schedule.steps[i].fingerprint, w.fingerprint()) << "step " << i + 1;
    EXPECT_EQ(schedule.steps[i].text, format_action(v.path[i], *schedule.cluster));
    EXPECT_FALSE(schedule.steps[i].comment.empty());
  }
}

TEST(Schedule, StopsAtTheFirstStepThatIsNotEnabledWithTheWorldsReason) {
  const Scenario s = scenario("default", "inflight", "off");
  auto path = shortest(s).path;
  std::swap(path[0], path[1]);
  const Schedule schedule = replay_schedule(s, path);
  ASSERT_TRUE(schedule.blocked.has_value());
  const std::size_t at = schedule.blocked->number;
  EXPECT_EQ(schedule.steps.size(), at - 1);
  const World& there = schedule.world_at(at - 1);
  EXPECT_FALSE(there.is_enabled(schedule.blocked->action));
  EXPECT_EQ(schedule.blocked->why, there.why_not_enabled(schedule.blocked->action));
  EXPECT_FALSE(schedule.blocked->enabled.empty());
}

TEST(Schedule, StopsAtTheFirstViolationWhenAsked) {
  const Scenario s = scenario("default", "inflight", "off");
  auto path = shortest(s).path;
  const std::size_t n = path.size();
  std::vector<Action> longer = path;
  const Cluster cluster(s);
  World w(cluster);
  for (const Action& a : path)
    w.apply(a);
  std::vector<Action> more;
  w.enabled_actions(more);
  if (!more.empty())
    longer.push_back(more.front());
  EXPECT_EQ(
      replay_schedule(s, longer, CheckedProperties().set(), StopAt::kFirstViolation).steps.size(),
      n);
  const auto b = broken_schedule(
      s, replay_schedule(s, longer, CheckedProperties().set(), StopAt::kFirstViolation));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->steps, path);
}

TEST(Schedule, CounterexampleCarriesTheSchedulesWords) {
  const Scenario s = scenario("default", "inflight", "off");
  const auto v = shortest(s);
  const Schedule schedule = replay_schedule(s, v.path);
  const Counterexample cx = to_counterexample(schedule, s, v.name, FoundBy{}, "a command");
  EXPECT_EQ(cx.property, v.name);
  EXPECT_EQ(cx.message, v.message);
  std::vector<spec::PropertyMessage> also;
  for (const checker::PropertyMessage& m : v.also_violated)
    also.push_back({m.name, m.message});
  EXPECT_EQ(cx.also, also);
  EXPECT_EQ(cx.found_by.depth, v.path.size());
  ASSERT_EQ(cx.steps.size(), schedule.steps.size());
  for (std::size_t i = 0; i < cx.steps.size(); ++i) {
    EXPECT_EQ(cx.steps[i].text, schedule.steps[i].text);
    EXPECT_EQ(cx.steps[i].comment, schedule.steps[i].comment);
    EXPECT_EQ(cx.steps[i].fingerprint, schedule.steps[i].fingerprint);
  }
  // A property the last step does not break is refused, not written.
  EXPECT_THROW(to_counterexample(schedule, s, "no-overcommit", FoundBy{}, ""), std::logic_error);
}

}  // namespace
}  // namespace preemptcheck
