// Explore JSON tests: on every committed counterexample's path, the explorer's documents agree
// with the model — the enabled steps are World::enabled_actions with describe_step's effects,
// every enabled step is among the askable ones and every other askable step carries a reason,
// a path's text parses back to its steps, the file's property is broken first at its last
// step, and "shortest violation from here", from the initial state and from every step before
// the violation (on the files found within 300,000 states), finds a continuation whose replay
// breaks the property at its last step, no longer than the rest of the file's (whose breadth-first
// search found the shortest). Expected: all pass.
#include "report/explore_json.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "files/counterexample_yaml.h"
#include "impl/show.h"
#include "properties/explore_path.h"
#include "spec/property.h"

namespace preemptcheck::report {
namespace {

// The files whose path is searched from every step: those found within this many states.
constexpr std::uint64_t kSearchedFiles = 300'000;

std::vector<std::string> safety_files() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator("counterexamples")) {
    if (entry.path().extension() != ".yaml")
      continue;
    const Counterexample cx = load_counterexample_file(entry.path().string());
    if (!cx.loop)
      out.push_back(entry.path().string());
  }
  return out;
}

TEST(reportExploreJson, DocumentsAgreeWithTheModelOnEveryCommittedPath) {
  const std::vector<std::string> files = safety_files();
  ASSERT_FALSE(files.empty());
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Counterexample cx = load_counterexample_file(file);
    std::vector<Action> actions;
    for (const CounterexampleStep& s : cx.steps)
      actions.push_back(s.action);
    const Schedule whole = replay_schedule(cx.scenario, actions);
    ASSERT_FALSE(whole.blocked);
    const Cluster& cluster = *whole.cluster;
    std::string error;
    const auto parsed = parse_path(format_path(actions, cluster), cluster, error);
    ASSERT_TRUE(parsed) << error;
    EXPECT_EQ(*parsed, actions);
    const std::vector<Action> askable = askable_actions(cluster);
    for (std::size_t k = 0; k <= actions.size(); ++k) {
      const std::vector<Action> prefix(actions.begin(), actions.begin() + k);
      const Schedule s = replay_schedule(cx.scenario, prefix);
      const Json doc = explore_state_json(cx.scenario, s);
      const World& here = s.world_at(k);
      std::vector<Action> enabled;
      here.enabled_actions(enabled);
      ASSERT_EQ(doc["enabled"].size(), enabled.size());
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        World after = here;
        const StepReport report = after.apply(enabled[i]);
        EXPECT_EQ(doc["enabled"][i]["text"], format_action(enabled[i], cluster));
        EXPECT_EQ(doc["enabled"][i]["effect"], describe_step(here, report, after));
        EXPECT_NE(std::find(askable.begin(), askable.end(), enabled[i]), askable.end())
            << format_action(enabled[i], cluster) << " is enabled but not askable";
      }
      EXPECT_EQ(doc["disabled"].size() + enabled.size(), askable.size());
      for (const Json& d : doc["disabled"])
        EXPECT_FALSE(d["why"].get<std::string>().empty()) << d["text"];
      for (const Json& p : doc["properties"]) {
        if (p["name"] != cx.property)
          continue;
        EXPECT_EQ(p["status"], k == actions.size() ? "broken" : "holds") << "after step " << k;
        if (k == actions.size()) {
          EXPECT_EQ(p["step"], k);
        }
      }
      // The search from here is run where the file's own search stored few states (a file
      // found among millions would make this test take minutes).
      if (k == actions.size() || cx.found_by.states > kSearchedFiles)
        continue;
      const auto property = spec::find_property(cx.property);
      ASSERT_TRUE(property);
      const ViolationSearch found = shortest_violation_from(s, *property, 2'000'000, nullptr);
      ASSERT_TRUE(found.found) << "from step " << k;
      EXPECT_LE(found.steps.size(), actions.size() - k) << "from step " << k;
      std::vector<Action> path = prefix;
      path.insert(path.end(), found.steps.begin(), found.steps.end());
      const Schedule replayed = replay_schedule(cx.scenario, path);
      ASSERT_FALSE(replayed.blocked);
      bool broken = false;
      for (const auto& m : replayed.violated_at(path.size()))
        broken = broken || m.name == cx.property;
      EXPECT_TRUE(broken) << "the search's path from step " << k << " does not break "
                          << cx.property;
    }
  }
}

TEST(reportExploreJson, BadPathsAreRefusedWithTheStepNamed) {
  const Counterexample cx =
      load_counterexample_file("counterexamples/no-double-victim--default--inflight-off.yaml");
  const Cluster cluster(cx.scenario);
  std::string error;
  EXPECT_FALSE(parse_path("schedule p-high,frobnicate", cluster, error));
  EXPECT_NE(error.find("step 2 'frobnicate'"), std::string::npos) << error;
  EXPECT_FALSE(parse_path("schedule nobody", cluster, error));
  EXPECT_NE(error.find("unknown pod 'nobody'"), std::string::npos) << error;
  EXPECT_FALSE(parse_path("observe,,flush", cluster, error));
  EXPECT_NE(error.find("step 2"), std::string::npos) << error;
  const auto empty = parse_path("  ", cluster, error);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  // The first askable step the initial state does not enable is refused as replay says it.
  const World initial(cluster);
  std::vector<Action> refused;
  for (const Action& a : askable_actions(cluster)) {
    if (!initial.is_enabled(a))
      refused.push_back(a);
  }
  ASSERT_FALSE(refused.empty());
  const Schedule blocked = replay_schedule(cx.scenario, {refused.front()});
  ASSERT_TRUE(blocked.blocked);
  const Json doc = explore_blocked_json(blocked);
  EXPECT_EQ(doc["error"],
            "step 1 '" + format_action(refused.front(), cluster) + "' is not enabled");
  EXPECT_EQ(doc["why"], initial.why_not_enabled(refused.front()));
  EXPECT_EQ(doc["valid_path"], "");
}

}  // namespace
}  // namespace preemptcheck::report
