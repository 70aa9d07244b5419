// kubectl import: turns `kubectl get nodes,pods,pdb,priorityclasses -o yaml` output into a
// Scenario — node allocatable, pod requests summed as kube-scheduler sums them, priorities,
// preemption policies, placements, start order and PDBs — and says what it left out.
#pragma once

#include <string>
#include <vector>

#include "impl/scenario.h"

namespace preemptcheck {

/// One input: its name (for error positions) and its bytes.
struct KubectlInput {
  std::string file;
  std::string text;
};

/// What import_kubectl() keeps.
struct KubectlImportOptions {
  std::vector<std::string> keep_nodes;  ///< node names to keep; empty keeps every node
  std::string scenario_name = "imported";
};

/// The imported scenario and what was left out of it.
struct KubectlImport {
  Scenario scenario;
  /// One line per kind of thing left out, sorted, each naming the objects concerned:
  /// "spec.tolerations (not modelled): prod/web-1, prod/web-2".
  std::vector<std::string> dropped;
  int pending = 0;  ///< pods without a node, which become the scenario's preemptors
  /// What the user should know of the result, one sentence each: that it has no `expect:`
  /// (expected-outcome holds vacuously), that no pod is pending when none is, and that a
  /// node's running pods exceed its allocatable, so the scenario says
  /// `allow-overcommitted-start`.
  std::vector<std::string> notes;
};

/// Reads every input (a `v1 List`, one object, or several YAML documents of either; each at
/// most limits::kMaxKubectlFileBytes) and builds one scenario from all of them. Objects of
/// kinds other than Node, Pod, PodDisruptionBudget and PriorityClass, and pending pods of
/// another scheduler, are left out (and listed). Throws FileError at the offending text for
/// malformed input (YAML syntax, an object without `kind`, a field read here of the wrong type,
/// a quantity outside the API's grammar or the bounds of files/limits.h, a node, pod or pod UID
/// read twice); std::invalid_argument for a --nodes name the input lacks, more nodes or
/// pods than a scenario holds, or a scenario that load_scenario_text() refuses. A node whose
/// running pods request more than its allocatable (it shrank after they were admitted) sets
/// `allow-overcommitted-start`, with a note naming the node.
KubectlImport import_kubectl(const std::vector<KubectlInput>& inputs,
                             const KubectlImportOptions& options);

/// import_kubectl() of the files at `paths`, each read with read_file().
KubectlImport import_kubectl_files(const std::vector<std::string>& paths,
                                   const KubectlImportOptions& options);

}  // namespace preemptcheck
