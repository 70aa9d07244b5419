// Scheduler restart: the process dies and a new one starts from the API server. Everything
// kube-scheduler holds only in memory is lost — the scheduling queue with its in-flight
// pods and backoffQ, the cache's assumed pods, the nominator, the executor's in-flight set
// and lastVictimsPendingPreemption, running preemption jobs — and the new informer's LIST
// replaces every watch event still pending. What the API server holds survives: nodeName,
// nominatedNodeName, deletionTimestamp, the DisruptionTarget condition, and the victims a
// job had already deleted. A request the old process had already sent is not lost with it:
// a binding call in flight, or an eviction its executor had under way, may still land after
// the relist (`late-bind`, `late-evict`) — or may never have left the process, so neither
// has to happen.
#include "impl/world.h"

namespace preemptcheck {

void World::restart(StepReport& report) {
  --restarts_left_;
  const size_t n = api_.size();
  // Lost with the process. The queue, the nominator and the executor are plain fields built
  // empty by their constructors: NewPriorityQueue (pkg/scheduler/backend/queue/
  // scheduling_queue.go at 003b4460edb52bc9a9fe6cf54294e5b3e4681610, L339–382), the nominator
  // (pkg/scheduler/backend/queue/nominator.go at 251a9c727573ae9c91f8ee6a6674259e7e41db53,
  // L55–61), NewExecutor (pkg/scheduler/framework/preemption/manager/executor.go at
  // e642ef00b3031e9fc29c17a2c55a8c6051e980b8, L98–105).
  events_.clear();
  // A binding in flight becomes a late binding: the new process knows nothing of it. Two
  // restarts while it is in flight keep one (a later binding of the same pod is refused). A
  // binding cycle preempted in memory was told to fail before its Bind: it sends none.
  for (PodId p = 0; p < n; ++p) {
    if (binding_[p] != kNoNode && late_binding_[p] == kNoNode && !has_pod(preempted_in_memory_, p))
      late_binding_[p] = binding_[p];
  }
  preempted_in_memory_ = 0;
  binding_.assign(n, kNoNode);
  assumed_.assign(n, kNoNode);
  nominated_.assign(n, kNoNode);
  // The API dispatcher's queued calls are memory too (CQ L86–93, SPEC §2.5); a call runs as
  // one step, so none is in flight to land later.
  patches_ = 0;
  patch_node_.assign(n, kNoNode);
  active_.clear();
  backoff_ = 0;
  error_backoff_ = 0;
  pool_ = 0;
  gated_ = 0;
  preempting_ = 0;
  last_victim_.assign(n, kNoPod);
  inflight_by_.assign(n, 0);
  waiting_ = 0;
  // A cycle in flight dies with the process (cycle=split); its pod is relisted below.
  in_flight_ = kNoPod;
  in_flight_decision_ = CycleDecision{};
  in_flight_event_ = false;
  in_flight_nominated_ = kNoNode;
  // The lost jobs' victims whose deletion had not started are given up by the scheduler.
  // The evictions a job had under way — every victim but the last in parallel, then the
  // last alone (executor.go@e642ef00 L284-298) — may have been sent:
  // each may still land.
  for (const Job& job : jobs_) {
    for (PodId v : pods_in(job.pending | (job.last == kNoPod ? 0 : pod_bit(job.last)))) {
      if (api_[v].exists && !api_[v].terminating)
        report.abandoned |= pod_bit(v);
    }
    if (job.phase == JobPhase::kEvicting)
      late_evictions_ |= job.pending;
    else if (job.phase == JobPhase::kLast && job.last != kNoPod)
      late_evictions_ |= pod_bit(job.last);
  }
  jobs_.clear();
  // The relist: the informer's initial LIST delivers every pod as an Add. An assigned pod
  // goes to the cache; an unassigned one to the queue (addPodToSchedulingQueue,
  // pkg/scheduler/eventhandlers.go at 00cd67b7742e5af43e2eb841fde28de797344ed0, L228–238),
  // where Add runs PreEnqueue — nothing is gated, the in-flight set is empty — and, for the
  // Add event, reads status.nominatedNodeName back into the nominator
  // (scheduling_queue.go L674–675; nominator.go L81–82).
  // Every queued pod is new to the new process: its timestamp is that of this Add, given in
  // pod order (the relist's own order is not modelled).
  lister_ = api_;
  stamp_.assign(n, kNoStamp);
  for (PodId p = 0; p < n; ++p) {
    if (!api_[p].exists || api_[p].node != kNoNode)
      continue;
    restamp(p);
    add_to_queue(p, report);
    nominated_[p] = api_[p].nominated;
  }
}

void World::late_bind(PodId p, StepReport& report) {
  // The binding lands as kube-scheduler's own would: on a pod another binding has placed
  // first it is refused, on a deleted pod NotFound. The new process learns of it only from
  // the informer, as of another component's binding: the binding event takes the pod out
  // of its queue and moves nothing (eventhandlers.go@00cd67b7 L168-178, L354-360: #134859's
  // path).
  const NodeId node = late_binding_[p];
  late_binding_[p] = kNoNode;
  if (!api_[p].exists || api_[p].node != kNoNode) {
    report.binding_lost = true;
    return;
  }
  write_binding(p, node, report);  // api_server.cc
}

void World::late_evict(PodId v, StepReport& report) {
  late_evictions_ &= ~pod_bit(v);
  evict(v, report);  // api_server.cc
}

}  // namespace preemptcheck
