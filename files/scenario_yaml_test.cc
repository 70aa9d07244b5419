// Scenario files: a full document loads every field, each error names its exact position,
// the canonical writer round-trips, and mangled input only ever yields ScenarioError.
//
// Suite names start with "cli" so that `ctest -R cli` selects them: CTest matches the
// GoogleTest names, not the executable's.
#include "files/scenario_yaml.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace preemptcheck {
namespace {

constexpr std::string_view kFile = "test.yaml";

// A valid document that uses every key.
constexpr std::string_view kFull = R"(name: takeover
description: a higher-priority pod arrives while a lower one's victims are being deleted
nodes:
  - {name: node-a, cpu: 4, memory: 6}
  - {name: node-b, cpu: 2}
pods:
  - {name: v1, priority: 1, cpu: 1, memory: 2, node: node-a, labels: {app: web, tier: db}}
  - {name: p-high, priority: 100, cpu: 4}
  - {name: p-super, priority: -5, cpu: 4, arrives: later, preemption-policy: Never}
  - {name: p-low, preemption-policy: PreemptLowerPriority}
pdbs:
  - {name: web, selector: {app: web}, min-available: 1}
faults: {eviction-failures: 1, binding-failures: 2, restarts: 0}
executor: {workers: 3}
profile: kubernetes
mechanisms: {inflight: off, gate: hold-until-done}
)";

// What scenario_to_yaml() writes for kFull.
constexpr std::string_view kFullCanonical = R"(name: takeover
description: a higher-priority pod arrives while a lower one's victims are being deleted
nodes:
  - {name: node-a, cpu: 4, memory: 6}
  - {name: node-b, cpu: 2, memory: 2}
pods:
  - {name: v1, priority: 1, cpu: 1, memory: 2, node: node-a, labels: {app: web, tier: db}}
  - {name: p-high, priority: 100, cpu: 4}
  - {name: p-super, priority: -5, cpu: 4, arrives: later, preemption-policy: Never}
  - {name: p-low, priority: 0, cpu: 0}
pdbs:
  - {name: web, selector: {app: web}, min-available: 1}
faults: {eviction-failures: 1, binding-failures: 2, restarts: 0}
executor: {workers: 3}
profile: kubernetes
mechanisms: {inflight: off, gate: hold-until-done}
)";

// Lines 1-2 of the small documents below.
const std::string kHead = "name: s\ndescription: d\n";
// Lines 1-4: the smallest valid document; additions start on line 5.
const std::string kBody = kHead + "nodes: [{name: a, cpu: 1}]\npods: []\n";

// Loading `text` fails at `line`:`column` with a message containing `fragment`.
testing::AssertionResult fails_at(const std::string& text, int line, int column,
                                  std::string_view fragment) {
  try {
    load_scenario_text(text, kFile);
  } catch (const ScenarioError& e) {
    if (e.line != line || e.column != column || e.message.find(fragment) == std::string::npos ||
        e.file != kFile) {
      return testing::AssertionFailure()
             << "expected " << line << ":" << column << " \"" << fragment << "\", got " << e.what();
    }
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "loaded without error:\n" << text;
}

// --- loading ------------------------------------------------------------------------------

TEST(cliScenarioYaml, LoadsEveryField) {
  const Scenario s = load_scenario_text(kFull, kFile);
  EXPECT_EQ(s.name, "takeover");
  EXPECT_EQ(s.description,
            "a higher-priority pod arrives while a lower one's victims are being deleted");

  ASSERT_EQ(s.nodes.size(), 2u);
  EXPECT_EQ(s.nodes[0].name, "node-a");
  EXPECT_EQ(s.nodes[0].cpu, cores(4));
  EXPECT_EQ(s.nodes[0].memory, 6);
  EXPECT_EQ(s.nodes[1].name, "node-b");
  EXPECT_EQ(s.nodes[1].cpu, cores(2));
  EXPECT_EQ(s.nodes[1].memory, 2) << "node memory defaults to its cpu";

  ASSERT_EQ(s.pods.size(), 4u);
  const PodSpec& v1 = s.pods[0];
  EXPECT_EQ(v1.name, "v1");
  EXPECT_EQ(v1.priority, 1);
  EXPECT_EQ(v1.cpu, cores(1));
  EXPECT_EQ(v1.memory, 2);
  EXPECT_EQ(v1.node, "node-a");
  EXPECT_FALSE(v1.arrives_later);
  EXPECT_FALSE(v1.preempt_never);
  EXPECT_EQ(v1.labels, (std::map<std::string, std::string>{{"app", "web"}, {"tier", "db"}}));
  EXPECT_EQ(s.pods[1].name, "p-high");
  EXPECT_EQ(s.pods[1].priority, 100);
  EXPECT_EQ(s.pods[1].memory, 0) << "pod memory defaults to 0";
  EXPECT_TRUE(s.pods[1].node.empty());
  const PodSpec& super = s.pods[2];
  EXPECT_EQ(super.priority, -5);
  EXPECT_TRUE(super.arrives_later);
  EXPECT_TRUE(super.preempt_never);
  const PodSpec& low = s.pods[3];
  EXPECT_EQ(low.priority, 0);
  EXPECT_EQ(low.cpu, 0);
  EXPECT_FALSE(low.preempt_never);
  EXPECT_TRUE(low.labels.empty());

  ASSERT_EQ(s.pdbs.size(), 1u);
  EXPECT_EQ(s.pdbs[0].name, "web");
  EXPECT_EQ(s.pdbs[0].selector, (std::map<std::string, std::string>{{"app", "web"}}));
  EXPECT_EQ(s.pdbs[0].min_available, 1);

  EXPECT_EQ(s.faults.eviction_failures, 1);
  EXPECT_EQ(s.faults.binding_failures, 2);
  EXPECT_EQ(s.faults.restarts, 0);
  EXPECT_EQ(s.workers, 3);
  EXPECT_EQ(s.profile, "kubernetes");

  Mechanisms expected = *profile("kubernetes");
  expected.inflight = Inflight::kOff;
  expected.gate = Gate::kHoldUntilDone;
  EXPECT_EQ(s.mechanisms, expected);
}

TEST(cliScenarioYaml, OptionalKeysTakeTheirDefaults) {
  const Scenario s = load_scenario_text(kBody, kFile);
  EXPECT_EQ(s.description, "d");
  ASSERT_EQ(s.nodes.size(), 1u);
  EXPECT_EQ(s.nodes[0].memory, 1);
  EXPECT_TRUE(s.pods.empty());
  EXPECT_TRUE(s.pdbs.empty());
  EXPECT_EQ(s.faults.eviction_failures, 0);
  EXPECT_EQ(s.faults.binding_failures, 0);
  EXPECT_EQ(s.faults.restarts, 0);
  EXPECT_EQ(s.workers, 0);
  EXPECT_EQ(s.profile, "reference");
  EXPECT_EQ(s.mechanisms, *profile("reference"));
}

TEST(cliScenarioYaml, MechanismsApplyOnTopOfTheProfileWhateverTheKeyOrder) {
  const Scenario s =
      load_scenario_text(kBody + "mechanisms: {assume: off}\nprofile: kubernetes-1.32\n", kFile);
  Mechanisms expected = *profile("kubernetes-1.32");
  expected.assume = false;
  EXPECT_EQ(s.mechanisms, expected);
}

TEST(cliScenarioYaml, AcceptsIntegerEdgesAndBlockStyle) {
  const Scenario s = load_scenario_text(kHead +
                                            "nodes:\n"
                                            "  - name: a\n"
                                            "    cpu: +1000000000\n"
                                            "pods:\n"
                                            "  - name: p\n"
                                            "    priority: -2147483648\n",
                                        kFile);
  EXPECT_EQ(s.nodes[0].cpu, cores(1000000000));
  EXPECT_EQ(s.pods[0].priority, -2147483648);
}

TEST(cliScenarioYaml, LoadsFromAFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "preemptcheck_scenario_yaml_test.yaml";
  {
    std::ofstream out(path, std::ios::binary);
    out << kFull;
  }
  const Scenario s = load_scenario_file(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(s.name, "takeover");
  EXPECT_EQ(s.pods.size(), 4u);
}

// --- errors -------------------------------------------------------------------------------

TEST(cliScenarioYamlErrors, WhatNamesFileLineAndColumn) {
  try {
    load_scenario_text(kHead + "nodez: []\n", "dir/x.yaml");
    FAIL() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.file, "dir/x.yaml");
    EXPECT_EQ(std::string(e.what()).rfind("dir/x.yaml:3:1: unknown key 'nodez'", 0), 0u)
        << e.what();
  }
}

TEST(cliScenarioYamlErrors, UnreadableFile) {
  const std::string missing =
      (std::filesystem::temp_directory_path() / "preemptcheck_no_such_scenario.yaml").string();
  try {
    load_scenario_file(missing);
    FAIL() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.line, 0);
    EXPECT_EQ(e.column, 0);
    EXPECT_EQ(e.message, "cannot read file");
    EXPECT_EQ(std::string(e.what()), missing + ": cannot read file");
  }
}

TEST(cliScenarioYamlErrors, DirectoryIsUnreadable) {
  try {
    load_scenario_file(std::filesystem::temp_directory_path().string());
    FAIL() << "loaded";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.line, 0);
    EXPECT_EQ(e.message, "cannot read file");
  }
}

TEST(cliScenarioYamlErrors, SyntaxError) {
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: 1\npods: []\n", 5, 5,
                       "invalid YAML: end of map flow not found"));
  EXPECT_TRUE(fails_at("name: s\n description: d\n", 2, 13, "invalid YAML: illegal map value"));
  EXPECT_TRUE(fails_at(kHead + "\tnodes: []\n", 3, 1, "invalid YAML: illegal tab"));
}

TEST(cliScenarioYamlErrors, NestingTooDeep) {
  EXPECT_TRUE(fails_at(std::string(3000, '[') + std::string(3000, ']'), 1, 17,
                       "invalid YAML: nesting too deep"));
}

TEST(cliScenarioYamlErrors, EmptyDocument) {
  EXPECT_TRUE(fails_at("", 1, 1, "expected a mapping at the top level"));
  EXPECT_TRUE(fails_at("# only a comment\n", 1, 1, "expected a mapping at the top level"));
  EXPECT_TRUE(fails_at("---\n", 1, 1, "expected a mapping at the top level"));
}

TEST(cliScenarioYamlErrors, TopLevelNotAMapping) {
  EXPECT_TRUE(
      fails_at("\n- a\n- b\n", 2, 1, "expected a mapping at the top level, got a sequence"));
  EXPECT_TRUE(fails_at("hello", 1, 1, "expected a mapping at the top level, got 'hello'"));
}

TEST(cliScenarioYamlErrors, StrayCommaFailsInsteadOfLooping) {
  EXPECT_TRUE(fails_at(",", 1, 1, "expected a mapping at the top level"));
  EXPECT_TRUE(fails_at(", name: s", 1, 1, "expected a mapping at the top level"));
  EXPECT_TRUE(fails_at("[a],", 1, 1, "expected a mapping at the top level, got a sequence"));
}

TEST(cliScenarioYamlErrors, MoreThanOneDocument) {
  EXPECT_TRUE(fails_at(kBody + "---\nname: t\n", 5, 1, "expected a single YAML document"));
}

TEST(cliScenarioYamlErrors, UnknownTopLevelKey) {
  EXPECT_TRUE(fails_at(kHead + "nodez: []\n", 3, 1,
                       "unknown key 'nodez' in the scenario; expected one of: name, "
                       "description, nodes, pods, pdbs, faults, executor, profile, mechanisms"));
}

TEST(cliScenarioYamlErrors, UnknownPodKey) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, cpus: 1}\n", 5, 15,
                       "unknown key 'cpus' in a pod; expected one of: name, priority, cpu"));
}

TEST(cliScenarioYamlErrors, UnknownKeysInEveryMapping) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1, gpu: 1}]\npods: []\n", 3, 27,
                       "unknown key 'gpu' in a node"));
  EXPECT_TRUE(fails_at(kBody + "pdbs: [{name: b, selector: {}, max-available: 1}]\n", 5, 32,
                       "unknown key 'max-available' in a PDB"));
  EXPECT_TRUE(
      fails_at(kBody + "faults: {evictions: 1}\n", 5, 10, "unknown key 'evictions' in 'faults'"));
  EXPECT_TRUE(fails_at(kBody + "executor: {threads: 1}\n", 5, 12,
                       "unknown key 'threads' in 'executor'; expected one of: workers"));
}

TEST(cliScenarioYamlErrors, ExpectedAnInteger) {
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: abc}\npods: []\n", 4, 20,
                       "expected a positive quantity for 'cpu' (a Kubernetes quantity such as 2, "
                       "500m or 1.5), got 'abc'"));
  EXPECT_TRUE(
      fails_at(kHead + "nodes:\n  - {name: a, cpu: 1.5}\npods: []\n", 4, 20,
               "node 'a' needs 'memory' when its cpu (1500m) is not a whole number of cores"));
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: [1]}\npods: []\n", 4, 20,
                       "expected a positive quantity for 'cpu', got a sequence"));
}

TEST(cliScenarioYamlErrors, QuotedIntegerIsAString) {
  EXPECT_TRUE(
      fails_at(kHead + "nodes:\n  - {name: a, cpu: 4}\npods: [{name: p, priority: \"4\"}]\n", 5, 28,
               "expected an integer for 'priority', got the quoted string '4'"));
  // A quantity is a string in the API: the quoted form is the quantity.
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: \"0\"}\npods: []\n", 4, 20,
                       "expected a positive quantity for 'cpu', got 0"));
}

TEST(cliScenarioYamlErrors, EmptyValueIsReportedAtItsKey) {
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - name: a\n    cpu:\npods: []\n", 5, 5,
                       "expected a positive quantity for 'cpu', got null"));
}

TEST(cliScenarioYamlErrors, ExpectedASequence) {
  EXPECT_TRUE(fails_at(kHead + "nodes: {a: 1}\npods: []\n", 3, 8,
                       "expected a sequence for 'nodes', got a mapping"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: 3\n", 4, 7,
                       "expected a sequence for 'pods', got '3'"));
  EXPECT_TRUE(
      fails_at(kBody + "pdbs: {}\n", 5, 7, "expected a sequence for 'pdbs', got a mapping"));
}

TEST(cliScenarioYamlErrors, ExpectedAMapping) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [abc]\npods: []\n", 3, 9,
                       "expected a mapping for each node in 'nodes', got 'abc'"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [[p]]\n", 4, 8,
                       "expected a mapping for each pod in 'pods', got a sequence"));
  EXPECT_TRUE(fails_at(kBody + "pdbs: [x]\n", 5, 8, "expected a mapping for each PDB"));
  EXPECT_TRUE(fails_at(kBody + "faults: 3\n", 5, 9, "expected a mapping for 'faults', got '3'"));
  EXPECT_TRUE(fails_at(kBody + "executor: [2]\n", 5, 11, "expected a mapping for 'executor'"));
  EXPECT_TRUE(fails_at(kBody + "mechanisms: off\n", 5, 13, "expected a mapping for 'mechanisms'"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [{name: p, labels: [a]}]\n", 4,
                       26, "expected a mapping of strings for 'labels', got a sequence"));
}

TEST(cliScenarioYamlErrors, ExpectedAString) {
  EXPECT_TRUE(fails_at("name: [x]\ndescription: d\n", 1, 7,
                       "expected a string for 'name', got a sequence"));
  EXPECT_TRUE(
      fails_at("name: \"\"\ndescription: d\n", 1, 7, "expected a non-empty string for 'name'"));
  EXPECT_TRUE(fails_at("name: s\ndescription:\nnodes: []\n", 2, 1,
                       "expected a string for 'description', got null"));
  EXPECT_TRUE(
      fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [{name: p, labels: {app: [x]}}]\n", 4, 32,
               "expected a string for 'app', got a sequence"));
  EXPECT_TRUE(fails_at(kBody + "profile: {a: b}\n", 5, 10, "expected a string for 'profile'"));
}

TEST(cliScenarioYamlErrors, NonScalarKey) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [{name: p, labels: {[a]: b}}]\n",
                       4, 27, "expected a string key, got a sequence"));
}

TEST(cliScenarioYamlErrors, MissingRequiredKey) {
  // `description` is optional; a missing name is reported once nothing else is wrong.
  EXPECT_TRUE(fails_at("nodes: [{name: a, cpu: 1}]\npods: []\n", 1, 1,
                       "missing required key 'name' in the scenario"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\n", 1, 1,
                       "missing required key 'pods' in the scenario"));
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a}\npods: []\n", 4, 5,
                       "missing required key 'cpu' in a node"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nnodes:\n  - cpu: 1\n", 5, 5,
                       "missing required key 'name' in a node"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [{cpu: 1}]\n", 4, 8,
                       "missing required key 'name' in a pod"));
  EXPECT_TRUE(fails_at(kBody + "pdbs:\n  - {name: b, min-available: 1}\n", 6, 5,
                       "missing required key 'selector' in a PDB"));
  EXPECT_TRUE(fails_at(kBody + "pdbs:\n  - {name: b, selector: {}}\n", 6, 5,
                       "missing required key 'min-available' or 'max-unavailable' in a PDB"));
}

TEST(cliScenarioYamlErrors, NoNodes) {
  EXPECT_TRUE(fails_at(kHead + "nodes: []\npods: []\n", 3, 8, "expected at least one node"));
}

TEST(cliScenarioYamlErrors, DuplicateNodeName) {
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: 1}\n  - {name: a, cpu: 2}\npods: []\n",
                       5, 12, "duplicate node name 'a' (first at line 4, column 12)"));
}

TEST(cliScenarioYamlErrors, DuplicatePodName) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p}\n  - {name: p}\n",
                       6, 12, "duplicate pod name 'p' (first at line 5, column 12)"));
}

TEST(cliScenarioYamlErrors, DuplicatePdbName) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods: [{name: p, labels: {app: w}}]\n"
                               "pdbs:\n"
                               "  - {name: b, selector: {app: w}, min-available: 0}\n"
                               "  - {name: b, selector: {app: w}, min-available: 0}\n",
                       7, 12, "duplicate PDB name 'b' (first at line 6, column 12)"));
}

TEST(cliScenarioYamlErrors, DuplicateMapKey) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1, cpu: 2}]\npods: []\n", 3, 27,
                       "duplicate key 'cpu' (first at line 3, column 19)"));
  EXPECT_TRUE(
      fails_at(kBody + "name: t\n", 5, 1, "duplicate key 'name' (first at line 1, column 1)"));
  EXPECT_TRUE(
      fails_at(kBody + "mechanisms: {assume: off, assume: on}\n", 5, 27, "duplicate key 'assume'"));
}

TEST(cliScenarioYamlErrors, ExpectNamesDeclaredPods) {
  const std::string pods = kHead + "nodes: [{name: a, cpu: 1}]\npods: [{name: p, cpu: 1}]\n";
  EXPECT_TRUE(fails_at(pods + "expect: {bound: [q]}\n", 5, 18,
                       "expected the name of a declared pod in 'expect.bound', got 'q'"));
  EXPECT_TRUE(fails_at(pods + "expect: {pending: [p]}\n", 5, 10, "unknown key 'pending'"));
  EXPECT_TRUE(fails_at(pods + "expect: [p]\n", 5, 9, "expected a mapping for 'expect'"));
}

TEST(cliScenarioYamlWrite, ExpectRoundTrips) {
  const std::string text = kHead +
                           "nodes: [{name: a, cpu: 1}]\npods: [{name: p, cpu: 1}, {name: q}]\n"
                           "expect: {bound: [p], not-bound: [q]}\n";
  const Scenario s = load_scenario_text(text, kFile);
  EXPECT_EQ(s.expect_bound, std::vector<std::string>{"p"});
  EXPECT_EQ(s.expect_not_bound, std::vector<std::string>{"q"});
  const Scenario back = load_scenario_text(scenario_to_yaml(s), kFile);
  EXPECT_EQ(back.expect_bound, s.expect_bound);
  EXPECT_EQ(back.expect_not_bound, s.expect_not_bound);
}

TEST(cliScenarioYamlErrors, PodOnUnknownNode) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, node: b}\n", 5, 21,
                       "unknown node 'b' for pod 'p'; declared nodes: a"));
}

TEST(cliScenarioYamlErrors, CapacityMustBePositive) {
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: 0}\npods: []\n", 4, 20,
                       "expected a positive quantity for 'cpu', got 0"));
  EXPECT_TRUE(fails_at(kHead + "nodes:\n  - {name: a, cpu: 1, memory: -2}\npods: []\n", 4, 31,
                       "expected a positive quantity for 'memory', got -2"));
}

TEST(cliScenarioYamlErrors, RequestMustNotBeNegative) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, cpu: -1}\n", 5, 20,
                       "expected a non-negative quantity for 'cpu', got -1"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, memory: -1}\n", 5,
                       23, "expected a non-negative quantity for 'memory', got -1"));
}

TEST(cliScenarioYamlErrors, OtherCountsMustNotBeNegative) {
  EXPECT_TRUE(fails_at(kBody + "executor: {workers: -1}\n", 5, 21,
                       "expected a non-negative integer for 'workers', got -1"));
  EXPECT_TRUE(fails_at(kBody + "faults: {binding-failures: -1}\n", 5, 28,
                       "expected a non-negative integer for 'binding-failures'"));
  EXPECT_TRUE(fails_at(kBody + "pdbs: [{name: b, selector: {}, min-available: -1}]\n", 5, 47,
                       "expected a non-negative integer for 'min-available'"));
}

TEST(cliScenarioYamlErrors, IntegerOutOfRange) {
  EXPECT_TRUE(
      fails_at(kHead + "nodes:\n  - {name: a, cpu: 99999999999}\npods: []\n", 4, 20,
               "quantity out of range for 'cpu': 99999999999 is above the bound 1000000000"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, priority: "
                               "-2147483649}\n",
                       5, 25, "integer out of range for 'priority'"));
}

TEST(cliScenarioYamlErrors, ArrivesOnlyLater) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\npods:\n  - {name: p, arrives: now}\n",
                       5, 24, "expected 'later' for 'arrives', got 'now'"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\n"
                               "pods:\n"
                               "  - {name: p, node: a, arrives: later}\n",
                       5, 33, "pod 'p' runs on node 'a' and so cannot arrive later"));
}

TEST(cliScenarioYamlErrors, UnknownPreemptionPolicy) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\n"
                               "pods:\n"
                               "  - {name: p, preemption-policy: Always}\n",
                       5, 34, "expected PreemptLowerPriority or Never for 'preemption-policy'"));
}

TEST(cliScenarioYaml, LoadsASecondSchedulersRecreatedPod) {
  const std::string text = kHead +
                           "nodes: [{name: a, cpu: 1}]\n"
                           "pods:\n"
                           "  - {name: v, cpu: 1, node: a, scheduler: second, recreated: true}\n"
                           "  - {name: w, scheduler: second-nomination-aware}\n"
                           "  - {name: p, scheduler: this}\n";
  const Scenario s = load_scenario_text(text, kFile);
  EXPECT_EQ(s.pods[0].scheduler, PodScheduler::kSecond);
  EXPECT_TRUE(s.pods[0].recreated);
  EXPECT_EQ(s.pods[1].scheduler, PodScheduler::kSecondAware);
  EXPECT_FALSE(s.pods[1].recreated);
  EXPECT_EQ(s.pods[2].scheduler, PodScheduler::kThis);
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("node: a, scheduler: second, recreated: true}"), std::string::npos) << yaml;
  const Scenario back = load_scenario_text(yaml, kFile);
  EXPECT_EQ(back.pods[1].scheduler, PodScheduler::kSecondAware);
  EXPECT_TRUE(back.pods[0].recreated);
  // Written only when set: a scenario without them keeps its text (and its digest).
  EXPECT_EQ(yaml.find("scheduler: this"), std::string::npos) << yaml;
}

TEST(cliScenarioYamlErrors, UnknownSchedulerOrRecreated) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\n"
                               "pods:\n"
                               "  - {name: p, scheduler: third}\n",
                       5, 26, "expected this, second or second-nomination-aware for 'scheduler'"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1}]\n"
                               "pods:\n"
                               "  - {name: p, recreated: often}\n",
                       5, 26, "'recreated'"));
}

TEST(cliScenarioYaml, LoadsRestartsAndDeletions) {
  const Scenario s = load_scenario_text(kBody + "faults: {restarts: 1, deletions: 2}\n", kFile);
  EXPECT_EQ(s.faults.restarts, 1);
  EXPECT_EQ(s.faults.deletions, 2);
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("faults: {eviction-failures: 0, binding-failures: 0, restarts: 1, "
                      "deletions: 2}\n"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(load_scenario_text(yaml, kFile).faults.deletions, 2);
}

TEST(cliScenarioYamlErrors, DeletionsAreACount) {
  EXPECT_TRUE(fails_at(kBody + "faults: {deletions: -1}\n", 5, 21, "'deletions'"));
  EXPECT_TRUE(fails_at(kBody + "faults: {deletions: 17}\n", 5, 21, "'deletions'"));
  EXPECT_TRUE(fails_at(kBody + "faults: {deletions: many}\n", 5, 21, "'deletions'"));
}

TEST(cliScenarioYaml, LoadsExternalBindings) {
  const Scenario s = load_scenario_text(kBody + "faults: {external-bindings: 1}\n", kFile);
  EXPECT_EQ(s.faults.external_bindings, 1);
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("faults: {eviction-failures: 0, binding-failures: 0, restarts: 0, "
                      "external-bindings: 1}\n"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(load_scenario_text(yaml, kFile).faults.external_bindings, 1);
  // Written only when set: a scenario without it keeps its text (and its digest).
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(kBody, kFile)).find("external-bindings"),
            std::string::npos);
}

TEST(cliScenarioYamlErrors, ExternalBindingsAreACount) {
  EXPECT_TRUE(fails_at(kBody + "faults: {external-bindings: -1}\n", 5, 29, "'external-bindings'"));
  EXPECT_TRUE(fails_at(kBody + "faults: {external-bindings: 17}\n", 5, 29, "'external-bindings'"));
  EXPECT_TRUE(fails_at(kBody + "faults: {external-bindings: [1]}\n", 5, 29, "'external-bindings'"));
  EXPECT_TRUE(fails_at(kBody + "faults: {external-binds: 1}\n", 5, 10, "external-bindings"));
}

TEST(cliScenarioYaml, NodeArrivesLaterWithItsPods) {
  const Scenario s = load_scenario_text(kHead +
                                            "nodes: [{name: a, cpu: 1}, {name: b, cpu: 2, "
                                            "arrives: later}]\n"
                                            "pods: [{name: v, cpu: 2, node: b}]\n",
                                        kFile);
  ASSERT_EQ(s.nodes.size(), 2u);
  EXPECT_FALSE(s.nodes[0].arrives_later);
  EXPECT_TRUE(s.nodes[1].arrives_later);
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("  - {name: b, cpu: 2, memory: 2, arrives: later}\n"), std::string::npos)
      << yaml;
  EXPECT_TRUE(load_scenario_text(yaml, kFile).nodes[1].arrives_later);
}

TEST(cliScenarioYamlErrors, NodeArrivesOnlyLater) {
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1, arrives: soon}]\npods: []\n", 3, 36,
                       "expected 'later' for 'arrives', got 'soon'"));
  EXPECT_TRUE(fails_at(kHead + "nodes: [{name: a, cpu: 1, arrives: [later]}]\npods: []\n", 3, 36,
                       "expected 'later' for 'arrives'"));
}

TEST(cliScenarioYamlErrors, UnknownProfile) {
  EXPECT_TRUE(fails_at(kBody + "profile: fast\n", 5, 10,
                       "unknown profile 'fast'; expected one of: reference, kubernetes"));
}

TEST(cliScenarioYamlErrors, UnknownMechanismName) {
  EXPECT_TRUE(fails_at(kBody + "mechanisms: {speed: fast}\n", 5, 14,
                       "unknown mechanism 'speed'; expected one of: inflight, gate"));
  EXPECT_TRUE(
      fails_at(kBody + "mechanisms: {speed: [fast]}\n", 5, 14, "unknown mechanism 'speed'"));
}

TEST(cliScenarioYamlErrors, UnknownMechanismValue) {
  EXPECT_TRUE(fails_at(kBody + "mechanisms: {inflight: maybe}\n", 5, 24,
                       "unknown value 'maybe' for mechanism 'inflight'; expected one of: on, "
                       "preemptor-only, off"));
}

TEST(cliScenarioYamlErrors, TooManyNodes) {
  std::string text = kHead + "nodes:\n";
  for (int i = 0; i <= kMaxNodes; ++i)
    text += "  - {name: n" + std::to_string(i) + ", cpu: 1}\n";
  text += "pods: []\n";
  // Nodes start on line 4; the first one too many is number kMaxNodes + 1.
  EXPECT_TRUE(fails_at(text, 4 + kMaxNodes, 5, "too many nodes in 'nodes': at most 8"));
}

TEST(cliScenarioYamlErrors, TooManyPods) {
  std::string text = kHead + "nodes: [{name: a, cpu: 1}]\npods:\n";
  for (int i = 0; i <= kMaxPods; ++i)
    text += "  - {name: p" + std::to_string(i) + "}\n";
  EXPECT_TRUE(fails_at(text, 5 + kMaxPods, 5, "too many pods in 'pods': at most 32"));
}

// --- writing ------------------------------------------------------------------------------

bool same(const NodeSpec& a, const NodeSpec& b) {
  return std::tie(a.name, a.cpu, a.memory, a.arrives_later) ==
         std::tie(b.name, b.cpu, b.memory, b.arrives_later);
}

bool same(const PodSpec& a, const PodSpec& b) {
  return std::tie(a.name, a.priority, a.cpu, a.memory, a.node, a.arrives_later, a.preempt_never,
                  a.labels) == std::tie(b.name, b.priority, b.cpu, b.memory, b.node,
                                        b.arrives_later, b.preempt_never, b.labels);
}

bool same(const PdbSpec& a, const PdbSpec& b) {
  return std::tie(a.name, a.selector, a.min_available) ==
         std::tie(b.name, b.selector, b.min_available);
}

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const T& x, const T& y) { return same(x, y); });
}

bool same(const Scenario& a, const Scenario& b) {
  return a.name == b.name && a.description == b.description && same(a.nodes, b.nodes) &&
         same(a.pods, b.pods) && same(a.pdbs, b.pdbs) &&
         a.faults.eviction_failures == b.faults.eviction_failures &&
         a.faults.binding_failures == b.faults.binding_failures &&
         a.faults.restarts == b.faults.restarts && a.faults.deletions == b.faults.deletions &&
         a.faults.external_bindings == b.faults.external_bindings && a.workers == b.workers &&
         a.profile == b.profile && a.mechanisms == b.mechanisms &&
         a.expect_bound == b.expect_bound && a.expect_not_bound == b.expect_not_bound;
}

TEST(cliScenarioYamlWrite, CanonicalLayout) {
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(kFull, kFile)), kFullCanonical);
}

TEST(cliScenarioYamlWrite, EmptyListsAndNoOverrides) {
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(kBody, kFile)),
            "name: s\n"
            "description: d\n"
            "nodes:\n"
            "  - {name: a, cpu: 1, memory: 1}\n"
            "pods: []\n"
            "pdbs: []\n"
            "faults: {eviction-failures: 0, binding-failures: 0, restarts: 0}\n"
            "executor: {workers: 0}\n"
            "profile: reference\n"
            "mechanisms: {}\n");
}

TEST(cliScenarioYamlWrite, RoundTrips) {
  const Scenario s = load_scenario_text(kFull, kFile);
  const std::string yaml = scenario_to_yaml(s);
  const Scenario back = load_scenario_text(yaml, kFile);
  EXPECT_TRUE(same(s, back)) << yaml;
  EXPECT_EQ(scenario_to_yaml(back), yaml);
}

TEST(cliScenarioYamlWrite, RoundTripsAwkwardStrings) {
  Scenario s;
  s.name = "null";
  s.description =
      "colon: hash # comma, [brackets] {braces} \"double\" 'single' back\\slash\n"
      "second line\ttab \x01 caf\xc3\xa9 ";
  // Object names and labels follow Kubernetes' grammar; the free text is the awkward part.
  s.description =
      "colon: hash # comma, [brackets] {braces} \"double\" 'single' back\\slash\n"
      "second line\ttab caf\xc3\xa9 ";
  s.nodes = {{"0", cores(3), 5}, {"a.b-c", 1500, 1024}, {"true", cores(2), 2}};
  PodSpec p;
  p.name = "123";
  p.node = "0";
  p.priority = -7;
  p.labels = {{"app.kubernetes.io/name", ""}, {"k", "true"}, {"a_b", "null"}};
  s.pods = {p};
  PodSpec q;
  q.name = "null";
  q.arrives_later = true;
  q.memory = 3;
  s.pods.push_back(q);
  s.pdbs = {{"yes", {{"app.kubernetes.io/name", ""}}, 2}, {"on", {{"k", "true"}}, 0}};
  s.faults = {3, 4, 0};
  s.workers = 1;
  s.profile = "sync";
  s.mechanisms = *profile("sync");
  s.mechanisms.deletion = Timing::kAsync;  // back to the reference value: differs from sync
  s.mechanisms.nomination = Timing::kAsync;

  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("mechanisms: {nomination: async, deletion: async}\n"), std::string::npos)
      << yaml;
  try {
    const Scenario back = load_scenario_text(yaml, kFile);
    EXPECT_TRUE(same(s, back)) << yaml << "---\n" << scenario_to_yaml(back);
  } catch (const ScenarioError& e) {
    FAIL() << e.what() << "\n" << yaml;
  }
}

// --- robustness ---------------------------------------------------------------------------

// xorshift64: a fixed, portable sequence.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

// Documents that must load or fail with a ScenarioError: every prefix of kFull, byte
// mutations biased towards YAML's own punctuation, deleted and repeated lines, deep nesting.
std::vector<std::string> mangled_documents() {
  const std::string full(kFull);
  std::vector<std::string> docs;
  for (std::size_t n = 0; n <= full.size(); ++n)
    docs.push_back(full.substr(0, n));

  Rng rng(0x5eed'cafe'f00d'1234u);
  constexpr std::string_view kPunctuation = "{}[]:,-#&*!|>'\"%@` \n\t?~0-9";
  for (int i = 0; i < 300; ++i) {
    std::string doc = full;
    const std::size_t flips = 1 + rng.below(3);
    for (std::size_t f = 0; f < flips; ++f) {
      const std::size_t at = rng.below(doc.size());
      doc[at] = rng.below(4) == 0 ? static_cast<char>(rng.below(256))
                                  : kPunctuation[rng.below(kPunctuation.size())];
    }
    docs.push_back(doc);
  }
  for (int i = 0; i < 50; ++i) {
    std::string doc = full;
    const std::size_t at = rng.below(doc.size());
    const std::size_t len = rng.below(40);
    if (i % 2 == 0) {
      doc.erase(at, len);
    } else {
      doc.insert(at, full.substr(rng.below(full.size()), len));
    }
    docs.push_back(doc);
  }
  docs.push_back(std::string(5000, '['));
  docs.push_back(std::string(5000, '{'));
  docs.push_back(std::string(3000, '-') + " a");
  std::string indented;
  for (int i = 0; i < 3000; ++i)
    indented += std::string(static_cast<std::size_t>(i), ' ') + "a:\n";
  docs.push_back(indented);
  docs.push_back(std::string("name: s\0\0description: d\n", 24));
  docs.push_back("&a [*a]");
  docs.push_back(",");
  docs.push_back("{a: b},");
  docs.push_back(kBody + ",\n");
  docs.push_back(kBody + "---\n,\n");
  docs.push_back("name: &n s\ndescription: *n\nnodes: &x [{name: a, cpu: 1}]\npods: *x\n");
  return docs;
}

TEST(cliScenarioYamlRobustness, MangledInputLoadsOrFailsCleanly) {
  int loaded = 0;
  int failed = 0;
  for (const std::string& doc : mangled_documents()) {
    try {
      load_scenario_text(doc, kFile);
      ++loaded;
    } catch (const ScenarioError& e) {
      ++failed;
      const auto lines = std::count(doc.begin(), doc.end(), '\n');
      EXPECT_GE(e.line, 0) << e.what();
      EXPECT_LE(e.line, lines + 2) << e.what() << "\n" << doc;
      EXPECT_EQ(e.line == 0, e.column == 0) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception " << e.what() << " on:\n" << doc;
    } catch (...) {
      ADD_FAILURE() << "unexpected non-standard exception on:\n" << doc;
    }
  }
  // Not vacuous: some mutants are still valid and most are not.
  EXPECT_GT(loaded, 10);
  EXPECT_GT(failed, 300);
}

}  // namespace
}  // namespace preemptcheck
