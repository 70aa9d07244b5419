// The start keys: `arrival-order` read and refused at its file:line:col, and
// `allow-overcommitted-start` turning the overfilled-start error into an accepted start;
// both written back only when set.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "files/counterexample_yaml.h"
#include "files/scenario_yaml.h"

namespace preemptcheck {
namespace {

constexpr std::string_view kFile = "start.yaml";
// Lines 1-7; additions start on line 8.
const std::string kHead =
    "name: s\n"
    "nodes: [{name: node-1, cpu: 2}, {name: node-2, cpu: 2, arrives: later}]\n"
    "pods:\n"
    "  - {name: v1, cpu: 2, node: node-1}\n"
    "  - {name: p-mid, priority: 50, cpu: 2, arrives: later}\n"
    "  - {name: p-high, priority: 100, cpu: 1, arrives: later}\n"
    "  - {name: p-low, cpu: 1}\n";

testing::AssertionResult fails_at(const std::string& text, int line, int column,
                                  std::string_view fragment) {
  try {
    load_scenario_text(text, kFile);
  } catch (const FileError& e) {
    if (e.line != line || e.column != column || e.message.find(fragment) == std::string::npos) {
      return testing::AssertionFailure()
             << "expected " << line << ":" << column << " \"" << fragment << "\", got " << e.what();
    }
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "loaded without error";
}

TEST(filesStartKeys, ArrivalOrderIsReadAndWrittenBack) {
  const Scenario s = load_scenario_text(kHead + "arrival-order: [p-mid, node-2, p-high]\n", kFile);
  EXPECT_EQ(s.arrival_order, (std::vector<std::string>{"p-mid", "node-2", "p-high"}));
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("\narrival-order: [p-mid, node-2, p-high]\n"), std::string::npos) << yaml;
  EXPECT_EQ(load_scenario_text(yaml, kFile).arrival_order, s.arrival_order);
}

TEST(filesStartKeys, AbsentKeysAreNotWrittenSoOldDigestsStand) {
  const Scenario plain = load_scenario_text(kHead, kFile);
  const std::string yaml = scenario_to_yaml(plain);
  EXPECT_EQ(yaml.find("arrival-order"), std::string::npos);
  EXPECT_EQ(yaml.find("allow-overcommitted-start"), std::string::npos);
  // An empty list orders nothing and digests as if absent.
  const Scenario empty = load_scenario_text(kHead + "arrival-order: []\n", kFile);
  EXPECT_EQ(scenario_digest(empty), scenario_digest(plain));
  // Either key, once set, changes the digest: a counterexample cannot be replayed on the
  // scenario without it.
  const Scenario ordered = load_scenario_text(kHead + "arrival-order: [node-2, p-high]\n", kFile);
  EXPECT_NE(scenario_digest(ordered), scenario_digest(plain));
  const Scenario allowed = load_scenario_text(kHead + "allow-overcommitted-start: true\n", kFile);
  EXPECT_TRUE(allowed.allow_overcommitted_start);
  EXPECT_NE(scenario_digest(allowed), scenario_digest(plain));
}

TEST(filesStartKeys, ArrivalOrderErrorsArePositioned) {
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [node-2, p-hgh]\n", 8, 25,
                       "unknown name 'p-hgh' in 'arrival-order'; later arrivals: node-2, "
                       "p-high, p-mid"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [p-low]\n", 8, 17,
                       "pod 'p-low' in 'arrival-order' does not arrive later"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [node-1]\n", 8, 17,
                       "node 'node-1' in 'arrival-order' does not arrive later"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [p-mid, node-2, p-mid]\n", 8, 32,
                       "duplicate name 'p-mid' in 'arrival-order' (first at line 8, column 17)"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [{name: p-mid}]\n", 8, 17,
                       "expected the name of a node or pod in 'arrival-order', got a mapping"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: p-mid\n", 8, 16, "sequence"));
  // A tagged name is no name (docs/scenario.md: a tag other than !!str on a string is refused).
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [!!bool p-mid]\n", 8, 17,
                       "expected the name of a node or pod in 'arrival-order'"));
  EXPECT_TRUE(fails_at(kHead + "arrival-order: [!!int p-mid]\n", 8, 17,
                       "expected the name of a node or pod in 'arrival-order'"));
  // A node and a pod of one name cannot be told apart in the list.
  EXPECT_TRUE(
      fails_at("name: s\nnodes: [{name: x, cpu: 2, arrives: later}]\n"
               "pods: [{name: x, cpu: 1, arrives: later}]\narrival-order: [x]\n",
               4, 17, "'x' in 'arrival-order' names both a node and a pod"));
}

TEST(filesStartKeys, OvercommittedStartNeedsTheKey) {
  const std::string pods =
      "name: s\nnodes: [{name: a, cpu: 2}]\n"
      "pods:\n  - {name: v1, cpu: 2, node: a}\n  - {name: v2, cpu: 1, node: a}\n";
  EXPECT_TRUE(fails_at(pods, 5, 30,
                       "node 'a' is overfilled at the start: with pod 'v2' its pods request cpu "
                       "3, memory 0 against its capacity cpu 2, memory 2 (say "
                       "`allow-overcommitted-start: true` if it started so)"));
  const Scenario s = load_scenario_text(pods + "allow-overcommitted-start: true\n", kFile);
  EXPECT_TRUE(s.allow_overcommitted_start);
  EXPECT_EQ(s.pods.size(), 2u);
  EXPECT_TRUE(load_scenario_text(scenario_to_yaml(s), kFile).allow_overcommitted_start);
  // `false` is the default and keeps the refusal.
  EXPECT_TRUE(fails_at(pods + "allow-overcommitted-start: false\n", 5, 30, "overfilled"));
  EXPECT_TRUE(fails_at(pods + "allow-overcommitted-start: yes please\n", 6, 28, "true or false"));
}

}  // namespace
}  // namespace preemptcheck
