// Evaluator: DefaultPreemption's decisions — who may preempt, which pods on a node must go,
// and which node to take (kube-scheduler's preemption.go and default_preemption.go).
#pragma once

#include <optional>
#include <vector>

#include "impl/world.h"

namespace preemptcheck {

/// A node where preemption would make room, and what it costs.
struct Candidate {
  NodeId node = kNoNode;
  std::vector<PodId> victims;  ///< most important first
  int pdb_violations = 0;
};

/// util.MoreImportantPod: higher priority first; on equal priority the earlier start.
/// A pod that has not started counts as started now (least important); ties by pod order.
bool is_more_important(const World& w, PodId a, PodId b);

/// PodEligibleToPreemptOthers: false for PreemptionPolicy=Never, and while a lower-priority
/// pod on the preemptor's nominated node (as the informer shows it) is terminating with the
/// DisruptionTarget condition, unless that node can never fit the preemptor.
bool is_eligible_to_preempt(const World& w, PodId preemptor);

/// SelectVictimsOnNode: remove every lower-priority pod, then reprieve the most important
/// first, PDB-violating ones before the others. Nothing when removing them all is not enough
/// or when there is nothing to remove.
std::optional<Candidate> select_victims_on_node(const World& w, PodId preemptor, NodeId node);

/// DryRunPreemption over every node the filter rejected as Unschedulable (not Unresolvable),
/// in scenario order. With 10 % / 100 candidates every node of a small cluster is visited.
std::vector<Candidate> dry_run_preemption(const World& w, PodId preemptor);

/// pickOneNodeForPreemption's six criteria; the last tie goes to the first candidate in
/// scenario order (Kubernetes iterates a map there). Precondition: candidates not empty.
std::size_t pick_one_node(const World& w, const std::vector<Candidate>& candidates);

}  // namespace preemptcheck
