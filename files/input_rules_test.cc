// Input Kubernetes would accept, and nothing else: every rule of docs/scenario.md refused at
// its file:line:col with the value and what was expected; bounds honoured at their edge.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "files/limits.h"
#include "files/scenario_yaml.h"
#include "impl/cluster.h"

namespace preemptcheck {
namespace {

constexpr std::string_view kFile = "rules.yaml";
// Lines 1-3; additions start on line 4.
const std::string kHead = "name: s\nnodes: [{name: a, cpu: 4}]\n";

testing::AssertionResult fails_at(const std::string& text, int line, int column,
                                  std::string_view fragment) {
  try {
    load_scenario_text(text, kFile);
  } catch (const FileError& e) {
    if (e.line != line || e.column != column || e.message.find(fragment) == std::string::npos ||
        e.file != kFile) {
      return testing::AssertionFailure()
             << "expected " << line << ":" << column << " \"" << fragment << "\", got " << e.what();
    }
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "loaded without error";
}

TEST(filesInputRules, DescriptionIsOptional) {
  const Scenario s = load_scenario_text(kHead + "pods: []\n", kFile);
  EXPECT_EQ(s.description, "");
}

TEST(filesInputRules, TheErrorTheFileIsAboutIsReported) {
  // No name and a bad pod: the pod is what is wrong.
  EXPECT_TRUE(fails_at("nodes: [{name: a, cpu: 4}]\npods: [{name: P, cpu: 1}]\n", 2, 15,
                       "invalid pod name 'P'"));
  EXPECT_TRUE(fails_at("nodes: [{name: a, cpu: 4}]\npods: []\n", 1, 1,
                       "missing required key 'name' in the scenario"));
}

TEST(filesInputRules, QuantitiesForCpuAndMemory) {
  const Scenario s = load_scenario_text(
      "name: s\nnodes: [{name: a, cpu: 2, memory: 8Gi}, {name: b, cpu: 1500m, memory: 1Gi}]\n"
      "pods: [{name: p, cpu: 500m, memory: 512Mi}, {name: q, cpu: 1e0, memory: 1k}]\n",
      kFile);
  EXPECT_EQ(s.nodes[0].cpu, 2000);
  EXPECT_EQ(s.nodes[0].memory, 8LL << 30);
  EXPECT_EQ(s.nodes[1].cpu, 1500);
  EXPECT_EQ(s.pods[0].cpu, 500);
  EXPECT_EQ(s.pods[0].memory, 512LL << 20);
  EXPECT_EQ(s.pods[1].cpu, 1000);
  EXPECT_EQ(s.pods[1].memory, 1000);
  // The writer keeps whole cores plain and the rest in Kubernetes' form; it reads back.
  const std::string yaml = scenario_to_yaml(s);
  EXPECT_NE(yaml.find("{name: a, cpu: 2, memory: 8Gi}"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("{name: p, priority: 0, cpu: 500m, memory: 512Mi}"), std::string::npos)
      << yaml;
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(yaml, kFile)), yaml);
}

TEST(filesInputRules, PlainIntegersKeepTheirMeaning) {
  const Scenario s = load_scenario_text(kHead + "pods: [{name: p, cpu: 3, memory: 2}]\n", kFile);
  EXPECT_EQ(s.nodes[0].cpu, cores(4));
  EXPECT_EQ(s.nodes[0].memory, 4);  // memory defaults to the number given for cpu
  EXPECT_EQ(s.pods[0].cpu, cores(3));
  EXPECT_EQ(format_cpu(s.pods[0].cpu), "3");
}

TEST(filesInputRules, BadQuantities) {
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: 0.1m}]\n", 3, 23,
                       "'cpu' is 0.1m, not a whole number of millicores"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, memory: 0.5}]\n", 3, 26,
                       "'memory' is 0.5, not a whole number of bytes"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: 2x}]\n", 3, 23,
                       "expected a non-negative quantity for 'cpu' (a Kubernetes quantity"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: -1}]\n", 3, 23,
                       "expected a non-negative quantity for 'cpu', got -1"));
  EXPECT_TRUE(fails_at("name: s\nnodes: [{name: a, cpu: 0}]\npods: []\n", 2, 24,
                       "expected a positive quantity for 'cpu', got 0"));
  EXPECT_TRUE(fails_at("name: s\nnodes: [{name: a, cpu: 500m}]\npods: []\n", 2, 24,
                       "node 'a' needs 'memory' when its cpu (500m) is not a whole number"));
}

TEST(filesInputRules, NumbersHaveBounds) {
  EXPECT_TRUE(
      fails_at(kHead + "pods: [{name: p, cpu: 1000000001}]\n", 3, 23,
               "quantity out of range for 'cpu': 1000000001 is above the bound 1000000000"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, memory: 2Pi}]\n", 3, 26,
                       "quantity out of range for 'memory': 2Pi is above the bound 1Pi"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: [{name: p, cpu: 2147483647}]\n", 3, 23, "is above the bound"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: 2147483648}]\n", 3, 28,
                       "integer out of range for 'priority': 2147483648 is above the bound "
                       "2147483647"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: -2147483649}]\n", 3, 28,
                       "integer out of range for 'priority': -2147483649 is below the bound "
                       "-2147483648"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nfaults: {eviction-failures: 256}\n", 4, 29,
                       "integer out of range for 'eviction-failures': 256 is above the bound 16"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nfaults: {binding-failures: 17}\n", 4, 28,
                       "is above the bound 16"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nexecutor: {workers: 33}\n", 4, 21,
                       "integer out of range for 'workers': 33 is above the bound 32"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nexecutor: {workers: 99999999999999999999}\n", 4, 21,
                       "integer out of range for 'workers'"));
  // At the bounds, everything loads.
  const Scenario s = load_scenario_text(
      "name: s\nnodes: [{name: a, cpu: 1G, memory: 1Pi}]\n"
      "pods: [{name: p, priority: 2147483647, cpu: 1G, memory: 1Pi, node: a},"
      " {name: q, priority: -2147483648}]\n"
      "faults: {eviction-failures: 16, binding-failures: 16}\nexecutor: {workers: 32}\n",
      kFile);
  EXPECT_EQ(s.faults.eviction_failures, limits::kMaxFaultBudget);
  EXPECT_EQ(s.pods[0].cpu, limits::kMaxCpuMillicores);
  EXPECT_EQ(s.pods[0].memory, limits::kMaxMemoryBytes);
}

TEST(filesInputRules, TaggedOrQuotedNumbersAreStrings) {
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: !!str 4}]\n", 3, 23,
                       "got a value tagged tag:yaml.org,2002:str"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: !!str 4}]\n", 3, 28,
                       "expected an integer for 'priority', got a value tagged"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: [{name: p, cpu: \"4\"}]\n", 3, 23, "got the quoted string '4'"));
}

TEST(filesInputRules, NamesFollowKubernetes) {
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: Web}]\n", 3, 15,
                       "invalid pod name 'Web': not a DNS-1123 subdomain"));
  EXPECT_TRUE(fails_at("name: s\nnodes: [{name: node_a, cpu: 1}]\npods: []\n", 2, 16,
                       "invalid node name 'node_a'"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: -p}]\n", 3, 15, "invalid pod name"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: \"p\\nq\"}]\n", 3, 15, "invalid pod name"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: " + std::string(254, 'a') + "}]\n", 3, 15,
                       "longer than 253 characters"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {\"a b\": x}}]\n", 3, 27,
                       "invalid label key 'a b'"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: [{name: p, labels: {Example.com/x: y}}]\n", 3, 27,
               "invalid label key 'Example.com/x' in 'labels': a prefix not a DNS-1123 subdomain"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {app: -x}}]\n", 3, 32,
                       "invalid label value '-x' for 'app'"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {app: " + std::string(64, 'x') + "}}]\n",
                       3, 32, "longer than 63 characters"));
  const Scenario s = load_scenario_text(
      kHead + "pods: [{name: web-0.x, labels: {example.com/App_1: V.1, tier: \"\"}}]\n", kFile);
  EXPECT_EQ(s.pods[0].labels.at("example.com/App_1"), "V.1");
}

TEST(filesInputRules, RawBytesAreCheckedBeforeParsing) {
  EXPECT_TRUE(fails_at(kHead + std::string("pods: [{name: p\0q}]\n", 20), 3, 16,
                       "a NUL byte is not allowed"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: [{name: p\x01q}]\n", 3, 16, "control character 0x01 is not allowed"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\n# \x7f\n", 4, 3, "control character 0x7f"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: caf\xc3\n", 4, 17, "invalid UTF-8"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: \xc0\xaf\n", 4, 14, "invalid UTF-8"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: \xed\xa0\x80\n", 4, 14, "invalid UTF-8"));
  // Valid UTF-8, tabs and CRLF line ends pass.
  const Scenario s =
      load_scenario_text(kHead + "pods: []\r\ndescription: caf\xc3\xa9 \xe2\x9c\x93\t\r\n", kFile);
  EXPECT_EQ(s.description, "caf\xc3\xa9 \xe2\x9c\x93");
}

TEST(filesInputRules, SizeNestingAliasesAreBounded) {
  const std::string big =
      kHead + "pods: []\ndescription: " + std::string(limits::kMaxFileBytes, 'x') + "\n";
  try {
    load_scenario_text(big, kFile);
    ADD_FAILURE() << "loaded";
  } catch (const FileError& e) {
    EXPECT_NE(e.message.find("file too large"), std::string::npos) << e.what();
  }
  // A file on disk over the bound is refused after reading one byte past it.
  const auto path = std::filesystem::temp_directory_path() / "preemptcheck-files-big.yaml";
  {
    std::ofstream out(path, std::ios::binary);
    out << big;
  }
  try {
    load_scenario_file(path.string());
    ADD_FAILURE() << "loaded";
  } catch (const FileError& e) {
    EXPECT_EQ(e.message, "file too large: more than 1048576 bytes");
    EXPECT_EQ(e.line, 0);
  }
  std::filesystem::remove(path);

  std::string deep = kHead + "pods: []\ndescription: ";
  for (int i = 0; i < limits::kMaxNesting; ++i)
    deep += "[";
  for (int i = 0; i < limits::kMaxNesting; ++i)
    deep += "]";
  // The top-level mapping is the first level: the last '[' is one too many.
  EXPECT_TRUE(fails_at(deep + "\n", 4, 13 + limits::kMaxNesting, "nesting too deep"));

  std::string aliases = kHead + "pods: []\nexpect: &e {bound: []}\nx: [";
  for (int i = 0; i <= limits::kMaxAliases; ++i)
    aliases += "*e, ";
  aliases += "]\n";
  EXPECT_TRUE(fails_at(aliases, 5, 5 + 4 * limits::kMaxAliases, "too many aliases: at most 64"));
}

TEST(filesInputRules, StartingStateIsValidated) {
  EXPECT_TRUE(fails_at(
      kHead + "pods:\n  - {name: v1, cpu: 3, node: a}\n  - {name: v2, cpu: 2, node: a}\n", 5, 30,
      "node 'a' is overfilled at the start: with pod 'v2' its pods request cpu "
      "5, memory 0 against its capacity cpu 4, memory 4"));
  // The sum that wrapped in 32 bits is now simply too large.
  EXPECT_TRUE(fails_at(kHead + "pods:\n  - {name: v1, cpu: 2147483647, node: a}\n", 4, 21,
                       "above the bound"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p}]\nexpect: {bound: [q]}\n", 4, 18,
                       "expected the name of a declared pod in 'expect.bound', got 'q'"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {app: web}}]\n"
                               "pdbs: [{name: b, selector: {app: db}, min-available: 1}]\n",
                       4, 28, "PDB 'b' selects no pod"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {app: web}}]\n"
                               "pdbs: [{name: b, selector: {}, min-available: 1}]\n",
                       4, 28, "PDB 'b' has an empty selector"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {app: web}}]\n"
                               "pdbs: [{name: b, selector: {app: web}, min-available: 33}]\n",
                       4, 55, "above the bound 32"));
  // Running pods that exactly fill a node are fine; pending pods do not count.
  load_scenario_text(kHead + "pods:\n  - {name: v1, cpu: 4, node: a}\n  - {name: p, cpu: 4}\n",
                     kFile);
}

}  // namespace
}  // namespace preemptcheck
