// Nominator: the scheduler's in-memory nominations, which the filter counts for pods of
// priority >= the pod being scheduled (Kubernetes' two-pass rule), and the clearing of
// lower-priority nominations on a preempted node. nomination=sync closes the window in
// which the next cycle gives the preemptor's space away; clear-lower=sync stops a lower
// nominee from claiming the space the preemptor made; wake-on-release wakes the pods a
// dropped nomination held back.
#include "impl/world.h"

namespace preemptcheck {

void World::set_nominated(PodId p, NodeId node, StepReport& report) {
  const NodeId old = nominated_[p];
  nominated_[p] = node;
  if (old != kNoNode && old != node)
    wake_on_release(p, report);
}

void World::clear_lower_nominations(PodId preemptor, NodeId node, bool in_memory,
                                    StepReport& report) {
  const Cluster& c = *cluster_;
  for (PodId q = 0; q < nominated_.size(); ++q) {
    if (q == preemptor || nominated_[q] != node || c.priority(q) >= c.priority(preemptor)) {
      continue;
    }
    // patch-diff=view: the executor works on the nominator's copy of each lower nominee
    // (NominatedPodsForNode) and skips one whose copy shows no nominatedNodeName
    // (pkg/scheduler/framework/preemption/manager/executor.go@e642ef00b3031e9fc29c17a2c55a8c6051e980b8
    // L433-435): a nominee whose own patch the informer has not delivered yet, or the pod
    // in flight, whose copy there is a bare reference with an empty status. It stays
    // nominated, in memory and in the API.
    // api-calls=dispatched: the dispatcher's branch (L426–431) has no such skip; the patch,
    // made from that copy, is a no-op, and it cancels the nominee's own queued patch
    // (impl/dispatcher.cc).
    NodeId copy = kNoNode;
    if (mechanisms().patch_diff_view) {
      copy = q == in_flight_ ? kNoNode : lister_[q].nominated;
      if (copy == kNoNode && !mechanisms().dispatched_calls)
        continue;
    }
    report.cleared |= pod_bit(q);
    if (in_memory)
      set_nominated(q, kNoNode, report);
    patch_nominated(q, kNoNode, copy, report);
  }
}

}  // namespace preemptcheck
