// Input Kubernetes would accept, and nothing else: every rule of docs/scenario.md refused at
// its file:line:col with the value and what was expected; bounds honoured at their edge.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

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

// A quantity is a string in the Kubernetes API: quoted as `kubectl get -o yaml` prints it,
// tagged !!str, plain, or a number tagged as one, it is the same quantity.
TEST(filesInputRules, QuantitiesAsKubernetesWritesThem) {
  const Scenario s = load_scenario_text(
      "name: s\nnodes: [{name: a, cpu: \"2\", memory: \"2Gi\"}, {name: b, cpu: !!str 4, "
      "memory: !!str 1Gi}]\n"
      "pods: [{name: p, cpu: '500m', memory: !!int 1024}, {name: q, cpu: !!float 1.5},"
      " {name: r, cpu: \"1000000n\", memory: 1000000u}, {name: t, cpu: !!int 2}]\n",
      kFile);
  EXPECT_EQ(s.nodes[0].cpu, 2000);
  EXPECT_EQ(s.nodes[0].memory, 2LL << 30);
  EXPECT_EQ(s.nodes[1].cpu, 4000);
  EXPECT_EQ(s.nodes[1].memory, 1LL << 30);
  EXPECT_EQ(s.pods[0].cpu, 500);
  EXPECT_EQ(s.pods[0].memory, 1024);
  EXPECT_EQ(s.pods[1].cpu, 1500);
  EXPECT_EQ(s.pods[2].cpu, 1);
  EXPECT_EQ(s.pods[2].memory, 1);
  EXPECT_EQ(s.pods[3].cpu, 2000);
  // The quoted text follows the grammar as the plain one does.
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: \"2 \"}]\n", 3, 23,
                       "expected a non-negative quantity for 'cpu' (a Kubernetes quantity"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: \"1500n\"}]\n", 3, 23,
                       "'cpu' is 1500n, not a whole number of millicores (the suffix 'n' counts "
                       "10^-9 cores)"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, memory: 5u}]\n", 3, 26,
                       "'memory' is 5u, not a whole number of bytes (the suffix 'u'"));
  // A tag is a type: !!int must hold an integer, and other types are no quantity.
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: !!int 500m}]\n", 3, 23,
                       "expected a non-negative quantity for 'cpu', got '500m' tagged !!int"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: !!bool 1}]\n", 3, 23,
                       "expected a non-negative quantity for 'cpu', got '1' tagged !!bool"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, cpu: !!null}]\n", 3, 23, "tagged !!null"));
}

// Integer fields stay integers: a quoted or !!str value is a string and refused at the value,
// saying what was expected; !!int is an integer.
TEST(filesInputRules, IntegerFieldsTakeIntegersOnly) {
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: \"5\"}]\n", 3, 28,
                       "expected an integer for 'priority', got the quoted string '5'"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: !!str 4}]\n", 3, 28,
                       "expected an integer for 'priority', got '4' tagged !!str"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: !!float 4}]\n", 3, 28,
                       "expected an integer for 'priority', got '4' tagged !!float"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nexecutor: {workers: '2'}\n", 4, 21,
                       "expected a non-negative integer for 'workers', got the quoted string"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nfaults: {restarts: \"1\"}\n", 4, 20,
                       "expected a non-negative integer for 'restarts', got the quoted string"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {a: b}}]\n"
                               "pdbs: [{name: d, selector: {a: b}, min-available: \"1\"}]\n",
                       4, 51,
                       "expected a non-negative integer for 'min-available', got the quoted"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, priority: !!int 5x}]\n", 3, 28,
                       "expected an integer for 'priority', got '5x'"));
  const Scenario s =
      load_scenario_text(kHead +
                             "pods: [{name: p, priority: !!int 5}]\nexecutor: {workers: !!int 1}\n"
                             "faults: {restarts: !!int 2}\n",
                         kFile);
  EXPECT_EQ(s.pods[0].priority, 5);
  EXPECT_EQ(s.workers, 1);
  EXPECT_EQ(s.faults.restarts, 2);
}

// Tags are honoured or refused, never ignored: a string field takes a string (plain, quoted,
// !!str), not a value tagged as another type; unknown tags and tags that do not fit their node
// are refused where they stand.
TEST(filesInputRules, TagsAreHonouredOrRefused) {
  EXPECT_TRUE(fails_at(kHead + "pods: []\nprofile: !!bool kubernetes\n", 4, 10,
                       "expected a string for 'profile', got 'kubernetes' tagged !!bool"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: !!int 5\n", 4, 14,
                       "expected a string for 'description', got '5' tagged !!int"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: !!null p}]\n", 3, 15,
                       "expected a string for 'name', got 'p' tagged !!null"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, arrives: !!bool later}]\n", 3, 27,
                       "expected 'later' for 'arrives'"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p, labels: {!!int 5: x}}]\n", 3, 27,
                       "expected a string key, got '5' tagged !!int"));
  EXPECT_TRUE(fails_at(kHead + "pods: [{name: p}]\nexpect: {bound: [!!int p]}\n", 4, 18,
                       "expected the name of a declared pod in 'expect.bound', got 'p' tagged "
                       "!!int"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\nmechanisms: {inflight: !!bool off}\n", 4, 24,
                       "expected a string for 'inflight', got 'off' tagged !!bool"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: !foo x\n", 4, 14,
                       "unsupported tag !foo; the tags read are !!str, !!int"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: !!binary aGk=\n", 4, 14,
                       "unsupported tag !!binary"));
  EXPECT_TRUE(fails_at(kHead + "pods: !!map []\n", 3, 7, "tag !!map does not fit a sequence"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: !!seq x\n", 4, 14,
                       "tag !!seq does not fit a scalar"));
  const Scenario s = load_scenario_text(
      "name: !!str s\ndescription: !!str d\nnodes: !!seq [!!map {name: a, cpu: 4}]\n"
      "pods: [{name: p, labels: {!!str app: !!str web}, preemption-policy: !!str Never}]\n"
      "profile: !!str kubernetes\nmechanisms: {inflight: !!str \"off\"}\n"
      "expect: {bound: [!!str p]}\n",
      kFile);
  EXPECT_EQ(s.name, "s");
  EXPECT_EQ(s.description, "d");
  EXPECT_EQ(s.profile, "kubernetes");
  EXPECT_EQ(s.pods[0].labels.at("app"), "web");
  EXPECT_TRUE(s.pods[0].preempt_never);
  EXPECT_EQ(s.expect_bound, std::vector<std::string>{"p"});
}

// The scenario's own name is an object name, as docs/scenario.md says: blank, spaced or
// upper-case names are refused at the name.
TEST(filesInputRules, TheScenarioNameIsADns1123Name) {
  EXPECT_TRUE(fails_at("name: \" \"\nnodes: [{name: a, cpu: 4}]\npods: []\n", 1, 7,
                       "invalid scenario name ' ': not a DNS-1123 subdomain"));
  EXPECT_TRUE(fails_at("name: \"\\t\"\nnodes: [{name: a, cpu: 4}]\npods: []\n", 1, 7,
                       "invalid scenario name"));
  EXPECT_TRUE(fails_at("name: My Scenario\nnodes: [{name: a, cpu: 4}]\npods: []\n", 1, 7,
                       "invalid scenario name 'My Scenario'"));
  EXPECT_TRUE(fails_at("name: \"\"\nnodes: [{name: a, cpu: 4}]\npods: []\n", 1, 7,
                       "expected a non-empty string for 'name'"));
  EXPECT_EQ(
      load_scenario_text("name: web.g1-basic\nnodes: [{name: a, cpu: 4}]\npods: []\n", kFile).name,
      "web.g1-basic");
}

// A PDB may say max-unavailable, which stands for min-available = the pods its selector
// selects minus it, at least 0 — the importer's conversion of maxUnavailable.
TEST(filesInputRules, PdbMaxUnavailable) {
  const std::string pods =
      "pods: [{name: w1, labels: {app: w}}, {name: w2, labels: {app: w}},"
      " {name: w3, labels: {app: w}}, {name: x, labels: {app: x}}]\n";
  const Scenario s =
      load_scenario_text(kHead + pods +
                             "pdbs: [{name: one, selector: {app: w}, max-unavailable: 1},"
                             " {name: all, selector: {app: w}, max-unavailable: 5},"
                             " {name: min, selector: {app: x}, min-available: 1}]\n",
                         kFile);
  EXPECT_EQ(s.pdbs[0].min_available, 2);
  EXPECT_EQ(s.pdbs[0].min_available, min_available_for_max_unavailable(1, 3));
  EXPECT_EQ(s.pdbs[1].min_available, 0);
  EXPECT_EQ(s.pdbs[2].min_available, 1);
  // Written back as min-available, it loads to the same scenario.
  EXPECT_EQ(load_scenario_text(scenario_to_yaml(s), kFile).pdbs[0].min_available, 2);
  EXPECT_TRUE(fails_at(kHead + pods +
                           "pdbs: [{name: d, selector: {app: w}, min-available: 1, "
                           "max-unavailable: 1}]\n",
                       4, 56, "a PDB sets 'min-available' or 'max-unavailable', not both"));
  EXPECT_TRUE(fails_at(kHead + pods + "pdbs: [{name: d, selector: {app: w}}]\n", 4, 8,
                       "missing required key 'min-available' or 'max-unavailable' in a PDB"));
  EXPECT_TRUE(
      fails_at(kHead + pods + "pdbs: [{name: d, selector: {app: w}, max-unavailable: 33}]\n", 4, 55,
               "integer out of range for 'max-unavailable': 33 is above the bound 32"));
  EXPECT_TRUE(
      fails_at(kHead + pods + "pdbs: [{name: d, selector: {app: w}, max-unavailable: 50%}]\n", 4,
               55, "expected a non-negative integer for 'max-unavailable', got '50%'"));
}

// kubectl output given to `check` is not a scenario: the error says which command reads it.
TEST(filesInputRules, KubectlOutputPointsToImport) {
  EXPECT_TRUE(fails_at("apiVersion: v1\nitems: []\nkind: List\nmetadata: {resourceVersion: \"\"}\n",
                       1, 1,
                       "unknown key 'apiVersion' in the scenario: this is a Kubernetes object (it "
                       "has apiVersion and kind), not a scenario; `preemptcheck import rules.yaml "
                       "-o SCENARIO.yaml` turns kubectl output into one"));
  EXPECT_TRUE(fails_at("kind: Pod\napiVersion: v1\nmetadata: {name: p}\n", 2, 1,
                       "unknown key 'apiVersion' in the scenario: this is a Kubernetes object"));
  // In several documents, the second is where a scenario reader stops.
  EXPECT_TRUE(
      fails_at("apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\n"
               "kind: Pod\nmetadata: {name: p}\n",
               4, 1,
               "expected a single YAML document: this is a Kubernetes object (it has "
               "apiVersion and kind), not a scenario; `preemptcheck import rules.yaml"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: []\n---\nname: t\n", 4, 1, "expected a single YAML document"));
  // One of the two alone is an unknown key like any other.
  EXPECT_TRUE(fails_at(kHead + "pods: []\nkind: x\n", 4, 1,
                       "unknown key 'kind' in the scenario; expected one of"));
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
  // C1 controls (U+0080-U+009F) are refused as C0 ones are, raw or as escapes; U+009B alone
  // starts a terminal escape sequence.
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: a\xc2\x9b" + "31m\n", 4, 15,
                       "control character U+009B is not allowed"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\n# \xc2\x80\n", 4, 3, "control character U+0080"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\ndescription: \"a\\x9b\"\n", 4, 14,
                       "control character U+009B is not allowed, written as an escape or not"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: []\ndescription: \"\\u0085\"\n", 4, 14, "control character U+0085"));
  EXPECT_TRUE(
      fails_at(kHead + "pods: []\ndescription: \"\\e[31m\"\n", 4, 14, "control character U+001B"));
  EXPECT_TRUE(fails_at(kHead + "pods: []\n\"\\x07\": x\n", 4, 1, "control character U+0007"));
  // The characters around the C1 block pass: U+007E, U+00A0, U+00E9.
  EXPECT_EQ(
      load_scenario_text(kHead + "pods: []\ndescription: \"~\\xa0\xc2\xa0\xc3\xa9\\t\"\n", kFile)
          .description,
      "~\xc2\xa0\xc2\xa0\xc3\xa9\t");
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
