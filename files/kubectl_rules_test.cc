// kubectl import never guesses: a pending pod of another scheduler is left out and listed; a
// node, pod or pod UID read twice (overlapping inputs) is refused at its position; quantities
// with the n and u suffixes are read when they are whole millicores or bytes; a whole cluster's
// dump is read before --nodes selects from it; and the user is told that the result has no
// expect: and when no pod is pending.
//
// Suite names start with "cli" so that `ctest -R cli` selects them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "files/kubectl_import.h"
#include "files/limits.h"
#include "files/strict_yaml.h"

namespace preemptcheck {
namespace {

constexpr const char* kNode = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 4Gi}}
)";

std::string pod(const std::string& name, const std::string& extra_spec,
                const std::string& extra_metadata = "") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + extra_metadata +
         "}\nspec: {containers: [{name: c}]" + extra_spec + "}\n";
}

bool has_line(const std::vector<std::string>& lines, const std::string& start,
              const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.starts_with(start) && l.find(part) != std::string::npos;
  });
}

std::vector<std::string> pod_names(const Scenario& s) {
  std::vector<std::string> out;
  for (const PodSpec& p : s.pods)
    out.push_back(p.name);
  return out;
}

// The FileError import_kubectl() throws for `inputs`, or a failure naming what it did instead.
FileError import_error(const std::vector<KubectlInput>& inputs) {
  try {
    import_kubectl(inputs, {});
  } catch (const FileError& e) {
    return e;
  }
  ADD_FAILURE() << "imported without a FileError";
  return FileError("", 0, 0, "");
}

TEST(cli_kubectl_rules, PendingPodsOfAnotherSchedulerAreLeftOutAndListed) {
  const std::string text = std::string(kNode) + pod("mine", "") +
                           pod("named", ", schedulerName: default-scheduler") +
                           pod("theirs", ", schedulerName: volcano") +
                           pod("running", ", nodeName: n1, schedulerName: volcano");
  const KubectlImport r = import_kubectl({{"in.yaml", text}}, {});
  // The running pod stays: kube-scheduler caches every bound pod, whatever its scheduler.
  EXPECT_EQ(pod_names(r.scenario), (std::vector<std::string>{"running", "mine", "named"}));
  EXPECT_EQ(r.pending, 2);
  EXPECT_TRUE(has_line(r.dropped, "pending pods of another scheduler (spec.schedulerName",
                       ": default/theirs (volcano)"));
  // An empty schedulerName is no scheduler's: refused at it.
  const FileError e =
      import_error({{"in.yaml", std::string(kNode) + pod("p", ", schedulerName: \"\"")}});
  EXPECT_EQ(e.line, 9);
  EXPECT_NE(e.message.find("expected a non-empty string for 'schedulerName'"), std::string::npos)
      << e.what();
}

TEST(cli_kubectl_rules, APodReadTwiceIsRefusedAtItsPosition) {
  const std::string first = std::string(kNode) + pod("web-0", "", ", namespace: prod");
  // The same pod again, in an overlapping second file: refused at its name there.
  FileError e =
      import_error({{"a.yaml", first}, {"b.yaml", pod("web-0", "", ", namespace: prod")}});
  EXPECT_EQ(e.file, "b.yaml");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.column, 18);
  EXPECT_NE(e.message.find("pod prod/web-0 is read twice (first at a.yaml:8:18)"),
            std::string::npos)
      << e.what();
  // The same name in another namespace is another pod.
  EXPECT_EQ(
      import_kubectl({{"a.yaml", first}, {"b.yaml", pod("web-0", "", ", namespace: test")}}, {})
          .scenario.pods.size(),
      2u);
  // Another name with the same UID is the same pod, renamed between two dumps: refused at the
  // UID.
  e = import_error({{"a.yaml", std::string(kNode) + pod("a", "", ", uid: 1a2b")},
                    {"b.yaml", pod("b", "", ", uid: 1a2b")}});
  EXPECT_EQ(e.file, "b.yaml");
  EXPECT_EQ(e.line, 4);
  EXPECT_NE(e.message.find("pod default/b has the UID 1a2b of a pod read before (first at "
                           "a.yaml:8:"),
            std::string::npos)
      << e.what();
  // Within one file too; and a node read twice is refused the same way.
  e = import_error({{"in.yaml", std::string(kNode) + pod("p", "") + pod("p", "")}});
  EXPECT_EQ(e.line, 13);
  EXPECT_NE(e.message.find("pod default/p is read twice"), std::string::npos) << e.what();
  e = import_error({{"a.yaml", kNode}, {"b.yaml", kNode}});
  EXPECT_EQ(e.file, "b.yaml");
  EXPECT_EQ(e.line, 3);
  EXPECT_NE(e.message.find("node 'n1' is read twice (first at a.yaml:3:18)"), std::string::npos)
      << e.what();
}

// A pending pod whose one container requests `requests` (a flow mapping).
std::string pod_requesting(const std::string& requests) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, "
         "resources: {requests: " +
         requests + "}}]}\n";
}

TEST(cli_kubectl_rules, NanoAndMicroQuantities) {
  const KubectlImport r = import_kubectl(
      {{"in.yaml",
        std::string(kNode) + pod_requesting("{cpu: 250000000n, memory: \"2000000000u\"}")}},
      {});
  ASSERT_EQ(r.scenario.pods.size(), 1u);
  EXPECT_EQ(r.scenario.pods[0].cpu, 250);
  EXPECT_EQ(r.scenario.pods[0].memory, 2000);
  FileError e = import_error({{"in.yaml", std::string(kNode) + pod_requesting("{cpu: 1500n}")}});
  EXPECT_EQ(e.line, 9);
  EXPECT_NE(e.message.find("'cpu' is 1500n, not a whole number of millicores (the suffix 'n' "
                           "counts 10^-9 cores); preemptcheck does not round"),
            std::string::npos)
      << e.what();
  e = import_error({{"in.yaml", std::string(kNode) + pod_requesting("{memory: 10u}")}});
  EXPECT_NE(e.message.find("'memory' is 10u, not a whole number of bytes (the suffix 'u'"),
            std::string::npos)
      << e.what();
}

// The bound is sized for a whole cluster: a `v1 List` of more than twice the scenario bound
// (1 MiB) is read, and --nodes then selects from it; one byte past the import bound is refused
// before it is parsed.
TEST(cli_kubectl_rules, AWholeClusterIsReadBeforeNodesSelects) {
  const std::string note = "{note: " + std::string(1000, 'x') + "}";
  std::string list = "apiVersion: v1\nkind: List\nitems:\n";
  int pods = 0;
  for (int n = 0; list.size() <= 2 * limits::kMaxFileBytes; ++n) {
    list += "- apiVersion: v1\n  kind: Node\n  metadata: {name: n" + std::to_string(n) +
            ", annotations: " + note + "}\n  status: {allocatable: {cpu: 4, memory: 4Gi}}\n";
    for (int i = 0; i < 4; ++i, ++pods) {
      list += "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p" + std::to_string(pods) +
              ", annotations: " + note + "}\n  spec: {nodeName: n" + std::to_string(n) +
              ", containers: [{name: c}]}\n";
    }
  }
  ASSERT_GT(list.size(), 2 * limits::kMaxFileBytes);
  KubectlImportOptions keep;
  keep.keep_nodes = {"n1"};
  const KubectlImport r = import_kubectl({{"big.yaml", list}}, keep);
  EXPECT_EQ(r.scenario.nodes.size(), 1u);
  EXPECT_EQ(pod_names(r.scenario), (std::vector<std::string>{"p4", "p5", "p6", "p7"}));

  const FileError e =
      import_error({{"huge.yaml", std::string(limits::kMaxKubectlFileBytes + 1, '#')}});
  EXPECT_EQ(e.line, 0);
  EXPECT_NE(e.message.find("file too large"), std::string::npos) << e.what();
}

TEST(cli_kubectl_rules, NotesSayThereIsNoExpectAndNoPendingPod) {
  const std::string note_expect =
      "the scenario has no 'expect', so expected-outcome holds vacuously";
  const std::string note_pending = "no pod is pending, so nothing preempts";
  KubectlImport r = import_kubectl({{"in.yaml", std::string(kNode) + pod("p", "")}}, {});
  EXPECT_EQ(r.notes.size(), 1u);
  EXPECT_TRUE(has_line(r.notes, note_expect, ""));
  EXPECT_TRUE(r.scenario.expect_bound.empty() && r.scenario.expect_not_bound.empty());
  r = import_kubectl({{"in.yaml", std::string(kNode) + pod("p", ", nodeName: n1")}}, {});
  EXPECT_EQ(r.pending, 0);
  EXPECT_TRUE(has_line(r.notes, note_pending, ""));
  EXPECT_TRUE(has_line(r.notes, note_expect, ""));
}

}  // namespace
}  // namespace preemptcheck
