// Timeline tests: the adapter puts each action kind in its component's lane, links each
// `observe` to the write it delivers and each `terminate` to the eviction's write, marks the
// step where the property first breaks (and none when it does not), and asks the caller for
// the state after every step. Expected: all pass.
#include "report/timeline.h"

#include <gtest/gtest.h>

#include "impl/test_support.h"

namespace preemptcheck::report {
namespace {

using test::id;
using test::pod;

// The default scenario's core: two running victims, and p-high needs the whole node.
Scenario two_victims(std::string_view inflight) {
  Scenario s =
      test::scenario({test::node("node-a", 4)},
                     {pod("v1", 1, 2, "node-a"), pod("v2", 1, 2, "node-a"), pod("p-high", 100, 4)});
  EXPECT_FALSE(set_mechanism(s.mechanisms, "inflight", inflight).has_value());
  return s;
}

Action action(const World& w, std::string_view line) {
  std::string error;
  auto a = parse_action(line, w.cluster(), &error);
  EXPECT_TRUE(a.has_value()) << error;
  return a.value_or(Action{});
}

std::vector<std::string> fake_state(const World& w) {
  return {"pending events: " + std::to_string(w.events().size())};
}

TimelineSource source_of(const Scenario& s, const std::vector<std::string>& lines) {
  TimelineSource src;
  src.property = "no-double-victim";
  src.message = "recorded message";
  src.scenario = s;
  src.reproduce = "preemptcheck replay x.yaml";
  const Cluster cluster(s);
  const World w(cluster);
  for (const std::string& line : lines)
    src.actions.push_back(action(w, line));
  return src;
}

TEST(Timeline, MapsEveryActionKindToItsComponentsLane) {
  EXPECT_EQ(lane_of(ActionKind::kSchedule), Lane::kSchedulingThread);
  EXPECT_EQ(lane_of(ActionKind::kBind), Lane::kBinding);
  EXPECT_EQ(lane_of(ActionKind::kBindFails), Lane::kBinding);
  EXPECT_EQ(lane_of(ActionKind::kClearNominations), Lane::kExecutor);
  EXPECT_EQ(lane_of(ActionKind::kEvict), Lane::kExecutor);
  EXPECT_EQ(lane_of(ActionKind::kEvictFails), Lane::kExecutor);
  EXPECT_EQ(lane_of(ActionKind::kFinish), Lane::kExecutor);
  EXPECT_EQ(lane_of(ActionKind::kObserve), Lane::kInformer);
  EXPECT_EQ(lane_of(ActionKind::kTerminate), Lane::kKubelet);
  EXPECT_EQ(lane_of(ActionKind::kFlush), Lane::kQueueFlush);
  EXPECT_EQ(lane_of(ActionKind::kCreate), Lane::kUser);
}

// The committed no-double-victim--default--inflight-off schedule, on its core cluster.
const std::vector<std::string> kDoubleVictim = {"schedule p-high", "observe", "flush",
                                                "schedule p-high"};

TEST(Timeline, MarksTheStepWhereThePropertyBreaks) {
  std::string error;
  const auto t = make_timeline(source_of(two_victims("off"), kDoubleVictim), fake_state, error);
  ASSERT_TRUE(t.has_value()) << error;
  ASSERT_EQ(t->steps.size(), 4u);
  for (const TimelineStep& s : t->steps)
    EXPECT_EQ(s.breaks, s.number == 4) << s.number;
  ASSERT_EQ(t->steps[3].violations.size(), 1u);
  EXPECT_EQ(t->steps[3].violations[0].rfind("no-double-victim: ", 0), 0u);
  EXPECT_EQ(t->steps[0].lane, Lane::kSchedulingThread);
  EXPECT_EQ(t->steps[1].lane, Lane::kInformer);
  EXPECT_EQ(t->steps[2].lane, Lane::kQueueFlush);
}

TEST(Timeline, WritesTheClusterInKubernetesQuantities) {
  Scenario s = two_victims("off");
  s.nodes[0].memory = std::int64_t{16} << 30;
  s.pods[0].memory = std::int64_t{512} << 20;
  std::string error;
  const auto t = make_timeline(source_of(s, kDoubleVictim), fake_state, error);
  ASSERT_TRUE(t.has_value()) << error;
  EXPECT_EQ(t->cluster[0], "node node-a: cpu 4, memory 16Gi");
  EXPECT_NE(t->cluster[1].find("cpu 2, memory 512Mi"), std::string::npos) << t->cluster[1];
}

TEST(Timeline, MarksNothingWhenThePropertyHolds) {
  std::string error;
  const std::vector<std::string> prefix(kDoubleVictim.begin(), kDoubleVictim.end() - 1);
  const auto t = make_timeline(source_of(two_victims("off"), prefix), fake_state, error);
  ASSERT_TRUE(t.has_value()) << error;
  for (const TimelineStep& s : t->steps) {
    EXPECT_FALSE(s.breaks) << s.number;
    EXPECT_TRUE(s.violations.empty()) << s.number;
  }
}

TEST(Timeline, LinksObserveToTheWriteItDelivers) {
  std::string error;
  const auto t = make_timeline(source_of(two_victims("off"), kDoubleVictim), fake_state, error);
  ASSERT_TRUE(t.has_value()) << error;
  const TimelineStep& observe = t->steps[1];
  ASSERT_EQ(observe.causes.size(), 1u);
  const TimelineCause c = observe.causes[0];
  ASSERT_GE(c.step, 1);
  ASSERT_LT(c.step, observe.number);
  const TimelineStep& writer = t->steps[static_cast<std::size_t>(c.step - 1)];
  ASSERT_LT(static_cast<std::size_t>(c.write), writer.writes.size());
  EXPECT_EQ(writer.writes[static_cast<std::size_t>(c.write)].rfind("p-high modified", 0), 0u);
}

TEST(Timeline, LinksTerminateToTheEvictionThatSetTheDeletion) {
  const Scenario s = two_victims("on");
  const Cluster cluster(s);
  World w(cluster);
  w.apply(action(w, "schedule p-high"));
  // Evict whichever victim the job may evict first, then let the kubelet finish it.
  std::vector<Action> enabled;
  w.enabled_actions(enabled);
  std::optional<Action> evict;
  for (const Action& a : enabled) {
    if (a.kind == ActionKind::kEvict)
      evict = a;
  }
  ASSERT_TRUE(evict.has_value());
  const std::string victim = w.cluster().pod_name(evict->victim);
  const std::vector<std::string> lines = {"schedule p-high", format_action(*evict, w.cluster()),
                                          "terminate " + victim};
  std::string error;
  int calls = 0;
  auto counting = [&](const World& x) {
    ++calls;
    return fake_state(x);
  };
  const auto t = make_timeline(source_of(s, lines), counting, error);
  ASSERT_TRUE(t.has_value()) << error;
  EXPECT_EQ(calls, 4);  // the initial state and every step
  const TimelineStep& terminate = t->steps[2];
  EXPECT_EQ(terminate.lane, Lane::kKubelet);
  ASSERT_EQ(terminate.causes.size(), 1u);
  EXPECT_EQ(terminate.causes[0].step, 2);
  const TimelineStep& evicted = t->steps[1];
  EXPECT_EQ(evicted.lane, Lane::kExecutor);
  EXPECT_EQ(evicted.actor, "job p-high");
  const std::string& write = evicted.writes.at(static_cast<std::size_t>(terminate.causes[0].write));
  EXPECT_EQ(write.rfind(victim + " modified", 0), 0u) << write;
  EXPECT_NE(write.find("terminating"), std::string::npos) << write;
}

TEST(Timeline, RefusesAStepThatIsNotEnabled) {
  std::string error;
  const auto t = make_timeline(source_of(two_victims("off"), {"observe"}), fake_state, error);
  EXPECT_FALSE(t.has_value());
  EXPECT_EQ(error, "step 1 'observe' is not enabled");
}

}  // namespace
}  // namespace preemptcheck::report
