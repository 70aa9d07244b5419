// kubectl import: the realistic fixture (files/testdata/kubectl-cluster.yaml, a `v1 List` as
// `kubectl get nodes,pods,pdb,priorityclasses -A -o yaml` prints it) imports to a scenario the
// loader accepts, with requests summed as kube-scheduler sums them, priorities resolved,
// namespaces kept apart and what was left out listed; malformed input fails at its position.
//
// Suite names start with "cli" so that `ctest -R cli` selects them.
#include "files/kubectl_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "files/kube_names.h"
#include "files/scenario_yaml.h"
#include "files/strict_yaml.h"

namespace preemptcheck {
namespace {

std::string testdata(const std::string& name) {
  const char* root = std::getenv("PREEMPTCHECK_SOURCE_DIR");
  const std::filesystem::path dir = root == nullptr ? "." : root;
  return (dir / "files" / "testdata" / name).string();
}

const PodSpec* find_pod(const Scenario& s, const std::string& name) {
  for (const PodSpec& p : s.pods) {
    if (p.name == name)
      return &p;
  }
  return nullptr;
}

const PdbSpec* find_pdb(const Scenario& s, const std::string& name) {
  for (const PdbSpec& p : s.pdbs) {
    if (p.name == name)
      return &p;
  }
  return nullptr;
}

bool dropped_mentions(const KubectlImport& r, const std::string& why, const std::string& what) {
  return std::any_of(r.dropped.begin(), r.dropped.end(), [&](const std::string& line) {
    return line.starts_with(why) && line.find(what) != std::string::npos;
  });
}

// 1-based line and column of the first occurrence of `needle` in the file at `path`.
std::pair<int, int> position_of(const std::string& path, const std::string& needle) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const auto at = line.find(needle); at != std::string::npos) {
      return {n, static_cast<int>(at) + 1};
    }
  }
  return {0, 0};
}

KubectlImport import_one(const std::string& text, KubectlImportOptions options = {}) {
  return import_kubectl({{"in.yaml", text}}, options);
}

TEST(cli_kubectl_import, RealisticFixtureImports) {
  const KubectlImport r = import_kubectl_files({testdata("kubectl-cluster.yaml")}, {});
  const Scenario& s = r.scenario;
  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[0].name, "node-a");
  EXPECT_EQ(s.nodes[0].cpu, 4000);
  EXPECT_EQ(s.nodes[0].memory, std::int64_t{8131080} * 1024);  // 8131080Ki
  EXPECT_EQ(s.nodes[2].cpu, 2000);
  // Fourteen pods, one of them Succeeded.
  EXPECT_EQ(s.pods.size(), 13u);
  EXPECT_EQ(r.pending, 2);
  // api-0: one container of cpu 1, an init container of cpu 2: the larger counts.
  const PodSpec* api0 = find_pod(s, "api-0");
  ASSERT_NE(api0, nullptr);
  EXPECT_EQ(api0->cpu, 2000);
  EXPECT_EQ(api0->memory, std::int64_t{1} << 30);
  EXPECT_EQ(api0->priority, 100000);
  // Pending pods are preemptors; etl-worker-3's PriorityClass says Never.
  const PodSpec* api1 = find_pod(s, "api-1");
  ASSERT_NE(api1, nullptr);
  EXPECT_TRUE(api1->node.empty());
  EXPECT_EQ(api1->cpu, 2500);
  const PodSpec* etl3 = find_pod(s, "etl-worker-3");
  ASSERT_NE(etl3, nullptr);
  EXPECT_TRUE(etl3->preempt_never);
  // Two namespaces name a pod cache-0: both are qualified.
  EXPECT_EQ(find_pod(s, "cache-0"), nullptr);
  ASSERT_NE(find_pod(s, "prod.cache-0"), nullptr);
  ASSERT_NE(find_pod(s, "default.cache-0"), nullptr);
  // Running pods come in status.startTime order, pending ones after them.
  EXPECT_EQ(s.pods.front().name, "kube-proxy-x7k2p");
  EXPECT_EQ(s.pods.back().name, "etl-worker-3");
  // minAvailable 50% of the two web pods, rounded up: 1.
  const PdbSpec* web = find_pdb(s, "web-pdb");
  ASSERT_NE(web, nullptr);
  EXPECT_EQ(web->min_available, 1);
  // prod's cache-pdb selects app=cache, which default/cache-0 also carries: the namespace
  // label keeps it to prod's pod.
  const PdbSpec* cache = find_pdb(s, "cache-pdb");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->selector.size(), 2u);
  EXPECT_EQ(find_pod(s, "prod.cache-0")->labels.at("preemptcheck/namespace"), "prod");
  EXPECT_FALSE(find_pod(s, "default.cache-0")->labels.contains("preemptcheck/namespace"));
  // maxUnavailable 1 over the three etl pods: at least 2 available.
  ASSERT_NE(find_pdb(s, "etl-pdb"), nullptr);
  EXPECT_EQ(find_pdb(s, "etl-pdb")->min_available, 2);
  // What was left out is listed.
  EXPECT_TRUE(dropped_mentions(r, "finished pods", "batch/report-28571040-tx9qd"));
  EXPECT_TRUE(dropped_mentions(r, "node spec.taints", "node-c"));
  EXPECT_TRUE(dropped_mentions(r, "spec.tolerations", "batch/etl-worker-2"));
  EXPECT_FALSE(dropped_mentions(r, "spec.tolerations", "prod/api-0"));  // only the defaults
  EXPECT_TRUE(dropped_mentions(r, "spec.affinity", "batch/etl-worker-1"));
  EXPECT_TRUE(dropped_mentions(r, "spec.nodeSelector", "batch/etl-worker-3"));
  EXPECT_TRUE(dropped_mentions(r, "allocatable resources other", "node-a (ephemeral-storage"));
  // The written scenario loads back to the same scenario.
  EXPECT_EQ(scenario_to_yaml(load_scenario_text(scenario_to_yaml(s), "x")), scenario_to_yaml(s));
}

TEST(cli_kubectl_import, NodesKeepsASubset) {
  KubectlImportOptions keep;
  keep.keep_nodes = {"node-a"};
  const KubectlImport r = import_kubectl_files({testdata("kubectl-cluster.yaml")}, keep);
  ASSERT_EQ(r.scenario.nodes.size(), 1u);
  for (const PodSpec& p : r.scenario.pods)
    EXPECT_TRUE(p.node.empty() || p.node == "node-a");
  EXPECT_TRUE(dropped_mentions(r, "pods on nodes not kept by --nodes", "prod/api-0"));
  keep.keep_nodes = {"node-z"};
  EXPECT_THROW(import_kubectl_files({testdata("kubectl-cluster.yaml")}, keep),
               std::invalid_argument);
}

constexpr const char* kNode = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 4Gi}}
)";

TEST(cli_kubectl_import, RequestsSumAsTheSchedulerDoes) {
  // Containers 100m + 200m; a sidecar (restartPolicy Always) of 50m runs beside them and
  // beside the later init container of 300m; overhead 10m.
  // max(100 + 200 + 50, 50 + 300) + 10 = 360.
  const std::string pod = R"(---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - {name: a, resources: {requests: {cpu: 100m, memory: 1Mi}}}
  - {name: b, resources: {requests: {cpu: 200m}}}
  initContainers:
  - {name: side, restartPolicy: Always, resources: {requests: {cpu: 50m}}}
  - {name: init, resources: {requests: {cpu: 300m, memory: 3Mi, nvidia.com/gpu: "1"}}}
  overhead: {cpu: 10m}
status: {phase: Pending}
)";
  const KubectlImport r = import_one(std::string(kNode) + pod);
  ASSERT_EQ(r.scenario.pods.size(), 1u);
  EXPECT_EQ(r.scenario.pods[0].cpu, 360);
  EXPECT_EQ(r.scenario.pods[0].memory, 3 << 20);
  EXPECT_TRUE(dropped_mentions(r, "requests other than cpu and memory", "ns/p (nvidia.com/gpu)"));
}

TEST(cli_kubectl_import, PriorityFromClassAndGlobalDefault) {
  const std::string objects = R"(---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: everyday}
value: 7
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: urgent}
value: 900
preemptionPolicy: Never
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c}], priorityClassName: urgent}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec: {containers: [{name: c}], priority: 3, priorityClassName: urgent}
)";
  const Scenario s = import_one(std::string(kNode) + objects).scenario;
  EXPECT_EQ(find_pod(s, "a")->priority, 900);
  EXPECT_TRUE(find_pod(s, "a")->preempt_never);
  EXPECT_EQ(find_pod(s, "b")->priority, 7);
  EXPECT_FALSE(find_pod(s, "b")->preempt_never);
  EXPECT_EQ(find_pod(s, "c")->priority, 3);  // spec.priority wins
}

TEST(cli_kubectl_import, PdbPercentagesRoundUp) {
  // Three matching pods: minAvailable 34% → ceil(1.02) = 2; maxUnavailable 34% → 3 - 2 = 1.
  std::string objects = std::string(kNode);
  for (const char* name : {"w1", "w2", "w3"}) {
    objects += std::string("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ") + name +
               ", labels: {app: w}}\nspec: {nodeName: n1, containers: [{name: c}]}\n";
  }
  objects +=
      "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: min}\n"
      "spec: {minAvailable: 34%, selector: {matchLabels: {app: w}}}\n";
  objects +=
      "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: max}\n"
      "spec: {maxUnavailable: \"34%\", selector: {matchLabels: {app: w}}}\n";
  const Scenario s = import_one(objects).scenario;
  EXPECT_EQ(find_pdb(s, "min")->min_available, 2);
  EXPECT_EQ(find_pdb(s, "max")->min_available, 1);
}

// Each malformed fixture fails with the position of its marker text.
TEST(cli_kubectl_import, MalformedFixturesNameFileLineColumn) {
  struct Case {
    std::string file;
    std::string marker;  // the text the error points at
    int column_offset;   // from the marker's first character
  };
  for (const Case& c : {Case{"kubectl-malformed-quantity.yaml", "2.5 cores", 0},
                        Case{"kubectl-malformed-nokind.yaml", "apiVersion: v1\nmetadata", 0},
                        Case{"kubectl-malformed-syntax.yaml", "---", 0}}) {
    const std::string path = testdata(c.file);
    const std::string marker = c.marker.substr(0, c.marker.find('\n'));
    auto [line, column] = position_of(path, marker);
    if (c.file == "kubectl-malformed-nokind.yaml") {
      // The second document's first line: find the second "apiVersion: v1".
      std::ifstream in(path);
      std::string l;
      int seen = 0;
      for (int n = 1; std::getline(in, l); ++n) {
        if (l == "apiVersion: v1" && ++seen == 2)
          line = n;
      }
    }
    ASSERT_GT(line, 0) << c.file;
    try {
      import_kubectl_files({path}, {});
      ADD_FAILURE() << c.file << " was accepted";
    } catch (const FileError& e) {
      EXPECT_EQ(e.file, path) << e.what();
      EXPECT_EQ(e.line, line) << e.what();
      if (c.file != "kubectl-malformed-syntax.yaml") {
        EXPECT_EQ(e.column, column + c.column_offset) << e.what();
      }
    }
  }
}

TEST(cli_kubectl_import, PositionsCountFromTheFileStartInLaterDocuments) {
  const std::string text = std::string(kNode) +
                           "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                           "spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}\n";
  try {
    import_one(text);
    ADD_FAILURE() << "accepted";
  } catch (const FileError& e) {
    EXPECT_EQ(e.line, 9) << e.what();
    EXPECT_EQ(e.column, static_cast<int>(std::string("spec: {containers: [{name: c, resources: "
                                                     "{requests: {cpu: ")
                                             .size()) +
                            1)
        << e.what();
  }
}

// Names the API server refuses are refused at their position (a pod's name, a node's name, a
// namespace, a nodeName): they used to reach the scenario loader, or loop forever when the
// importer tried to make them unique.
TEST(cli_kubectl_import, NamesTheApiRefusesFailAtTheirPosition) {
  const std::string pod =
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: prod}\n"
      "spec: {containers: [{name: c}]}\n";
  struct Case {
    std::string from, to, message;
  };
  for (const Case& c :
       {Case{"name: web", "name: Web_1", "invalid Pod name"},
        Case{"namespace: prod", "namespace: a.b", "invalid namespace"},
        Case{"containers:", "nodeName: Node_A, containers:", "invalid node name"}}) {
    std::string text = std::string(kNode) + pod;
    text.replace(text.find(c.from), c.from.size(), c.to);
    try {
      import_one(text);
      ADD_FAILURE() << c.to << " was accepted";
    } catch (const FileError& e) {
      EXPECT_NE(e.message.find(c.message), std::string::npos) << e.what();
      EXPECT_GT(e.line, 1) << e.what();
    }
  }
}

// Two pods of one 253-character name in two namespaces get distinct valid names, even when the
// cut of "NAMESPACE.NAME" to 253 characters ends in a '.'.
TEST(cli_kubectl_import, LongNamesInTwoNamespacesStayValid) {
  const std::string name = std::string(53, 'a') + "." + std::string(63, 'b') + "." +
                           std::string(63, 'c') + "." + std::string(63, 'd') + "." +
                           std::string(7, 'e');
  std::string text = kNode;
  for (const char* ns : {"prod", "test"}) {
    text += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: " + ns +
            "}\nspec: {containers: [{name: c}]}\n";
  }
  const KubectlImport r = import_one(text);
  ASSERT_EQ(r.scenario.pods.size(), 2u);
  EXPECT_NE(r.scenario.pods[0].name, r.scenario.pods[1].name);
  for (const PodSpec& p : r.scenario.pods) {
    EXPECT_EQ(dns1123_subdomain_problem(p.name), "") << p.name;
    EXPECT_TRUE(p.name.starts_with(std::string("prod.") + name.substr(0, 40)) ||
                p.name.starts_with(std::string("test.") + name.substr(0, 40)))
        << p.name;
  }
}

// A node with allocatable cpu 0 (all of it reserved) is left out with its pods, listed; it used
// to become a scenario the loader refuses (a finding of fuzz_import).
TEST(cli_kubectl_import, NodeWithNoAllocatableCpuIsLeftOut) {
  const std::string empty =
      "---\napiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
      "status: {allocatable: {cpu: \"0\", memory: 4Gi}}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
      "spec: {nodeName: n0, containers: [{name: c}]}\n";
  const KubectlImport r = import_one(std::string(kNode) + empty);
  ASSERT_EQ(r.scenario.nodes.size(), 1u);
  EXPECT_EQ(r.scenario.nodes[0].name, "n1");
  EXPECT_TRUE(r.scenario.pods.empty());
  EXPECT_TRUE(dropped_mentions(r, "nodes with no allocatable cpu or memory", "n0"));
  EXPECT_TRUE(dropped_mentions(r, "pods on nodes with no allocatable cpu or memory", "default/p"));
}

// A node whose allocatable shrank below what its running pods request imports with
// `allow-overcommitted-start`, and a note says so; a cluster that fits gets neither.
TEST(cli_kubectl_import, OvercommittedNodeSetsTheKeyWithANote) {
  auto pod = [](const std::string& name, const std::string& cpu) {
    return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
           "}\nspec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: \"" + cpu +
           "\"}}}]}\nstatus: {phase: Running}\n";
  };
  // The notes about overcommitted nodes, among the others (no pending pod, no expect).
  auto overcommit_notes = [](const KubectlImport& r) {
    std::vector<std::string> out;
    for (const std::string& n : r.notes) {
      if (n.find("starts overcommitted") != std::string::npos)
        out.push_back(n);
    }
    return out;
  };
  const KubectlImport fits = import_one(std::string(kNode) + pod("a", "2") + pod("b", "2"));
  EXPECT_FALSE(fits.scenario.allow_overcommitted_start);
  EXPECT_TRUE(overcommit_notes(fits).empty());

  const KubectlImport over = import_one(std::string(kNode) + pod("a", "3") + pod("b", "2"));
  EXPECT_TRUE(over.scenario.allow_overcommitted_start);
  const auto notes = overcommit_notes(over);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("node n1 starts overcommitted: its running pods request cpu 5", 0), 0u)
      << notes[0];
  EXPECT_NE(scenario_to_yaml(over.scenario).find("allow-overcommitted-start: true"),
            std::string::npos);
}

}  // namespace
}  // namespace preemptcheck
