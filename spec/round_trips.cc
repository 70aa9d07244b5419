// Round trips: the formulas of kube-scheduler's executor, applied to one preemption decision.
// Source: kubernetes/kubernetes
// pkg/scheduler/framework/preemption/manager/executor.go@e642ef00b3031e9fc29c17a2c55a8c6051e980b8:
// ActuatePodPreemption L171-178 picks prepareCandidateAsync (L202-315: no API call on the
// scheduling thread) or prepareCandidate (L321-363: Parallelizer().Until over the victims,
// L336, each PreemptPod a PATCH then a DELETE, L136-155; then clearNominatedNodeName, one
// PATCH per lower-priority nominee with a nominatedNodeName in its status, L423-444).
// The preemptor's own status PATCH is handleSchedulingFailure's updatePod in
// pkg/scheduler/schedule_one.go@4a37f009ca615534484b1116d0f147f1f23cf067 (line not
// citable here: not counted), on the scheduling thread in both modes.
#include "spec/round_trips.h"

#include <bit>
#include <cmath>

namespace preemptcheck::spec {

std::uint32_t parallel_depth(std::uint32_t n, std::uint32_t parallelism) {
  if (n == 0)
    return 0;
  // chunkSizeFor (pkg/scheduler/framework/parallelize/parallelism.go; commit not cited).
  auto chunk = static_cast<std::uint32_t>(std::sqrt(static_cast<double>(n)));
  const std::uint32_t cap = n / parallelism + 1;
  if (chunk > cap)
    chunk = cap;
  if (chunk < 1)
    chunk = 1;
  const std::uint32_t chunks = (n + chunk - 1) / chunk;
  const std::uint32_t waves = (chunks + parallelism - 1) / parallelism;
  return waves * chunk;
}

BlockingRoundTrips blocking_round_trips(const World& before, const StepReport& step) {
  BlockingRoundTrips out;
  if (!step.cycle || step.decision.kind != CycleDecision::Kind::kPreempt)
    return out;
  const Cluster& c = before.cluster();
  const PodId p = step.pod;
  const NodeId n = step.decision.node;
  // The victims prepareCandidate deletes: those without a DeletionTimestamp (L338-342).
  const auto victims = static_cast<std::uint32_t>(std::popcount(step.decision.to_evict));
  // getLowerPriorityNominatedPods (strictly lower, L453-467), skipped when the status holds
  // no nominatedNodeName (L433-435).
  std::uint32_t nominees = 0;
  for (PodId q = 0; q < c.pod_count(); ++q) {
    if (q != p && before.nominated(q) == n && c.priority(q) < c.priority(p) &&
        before.lister(q).nominated != kNoNode) {
      ++nominees;
    }
  }
  // updatePod is skipped when the nominatedNodeName does not change (the PodScheduled
  // condition is not modelled).
  const std::uint32_t own = before.lister(p).nominated != n ? 1 : 0;
  out.sync = 2 * parallel_depth(victims) + nominees + own;
  out.async = own;
  return out;
}

}  // namespace preemptcheck::spec
