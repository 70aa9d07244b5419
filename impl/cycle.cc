// Scheduling cycle: Filter (with nominated pods), PostFilter (DefaultPreemption, through the
// evaluator), then assume and bind, or nominate and hand the victims to the executor. The
// cycle closes the races of a decision the cluster has not recorded yet: assume counts a
// pod on its node before the bind lands (assume), the nomination holds the preemptor's
// space before the cycle ends (nomination), the in-flight set is written before the cycle
// ends so PreEnqueue gates the preemptor (inflight), and deletion=sync is the
// pre-KEP-4832 cycle that deletes the victims itself. With cycle=split the cycle is two
// steps — `schedule` pops the pod and decides on the view it starts with, `cycle-end`
// applies the decision — and the informer may deliver events in between, which the queue
// records for the in-flight pod (impl/queue.cc). The binding cycle's failure handler is here
// too.
#include "impl/world.h"

#include <algorithm>
#include <vector>

#include "impl/evaluator.h"

namespace preemptcheck {

CycleDecision World::decide(PodId p) const {
  const Cluster& c = *cluster_;
  CycleDecision d;
  // Filter, the nominated node first (evaluateNominatedNode), then every node in scenario
  // order; scoring among several fitting nodes is abstracted to the first.
  NodeId nominated = lister_[p].nominated;
  if (nominated != kNoNode && fits(p, nominated, 0)) {
    d.kind = CycleDecision::Kind::kBind;
    d.node = nominated;
    return d;
  }
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if (fits(p, n, 0)) {
      d.kind = CycleDecision::Kind::kBind;
      d.node = n;
      return d;
    }
  }
  // PostFilter: DefaultPreemption.
  if (!is_eligible_to_preempt(*this, p)) {
    d.kind = CycleDecision::Kind::kIneligible;
    return d;
  }
  std::vector<Candidate> candidates = dry_run_preemption(*this, p);
  if (candidates.empty()) {
    d.kind = CycleDecision::Kind::kNoCandidate;
    return d;
  }
  const Candidate& best = candidates[pick_one_node(*this, candidates)];
  d.kind = CycleDecision::Kind::kPreempt;
  d.node = best.node;
  d.pdb_violations = static_cast<std::uint8_t>(best.pdb_violations);
  for (PodId v : best.victims) {
    d.victims |= pod_bit(v);
    // prepareCandidate(Async) skips victims whose graceful deletion has already started.
    if (!lister_[v].terminating)
      d.to_evict |= pod_bit(v);
  }
  return d;
}

void World::pop(PodId p) {
  // The head of activeQ, or (backoff=pop-when-idle, activeQ empty) a pod of backoffQ.
  if (!active_.empty() && active_.front() == p) {
    active_.erase(active_.begin());
  } else {
    backoff_ &= ~pod_bit(p);
    error_backoff_ &= ~pod_bit(p);
  }
  waiting_ &= ~pod_bit(p);
}

void World::run_cycle(PodId p, StepReport& report) {
  pop(p);
  end_cycle(p, decide(p), report);
}

void World::start_cycle(PodId p, StepReport& report) {
  // Pop (pkg/scheduler/backend/queue/active_queue.go@00fdf757a8e89fb0c7ccad10419ef33a1fa1b1ab
  // pop L317-322, unlockedMoveEntityToInFlight L272-312) registers the pod in inFlightPods
  // (L284); from then on every queue move is also appended to inFlightEvents while any pod
  // is in flight (L485-499). The cycle decides on the view it starts with (the snapshot),
  // whatever the informer delivers before it ends. There is one scheduling thread: one pod
  // is in flight at a time.
  pop(p);
  in_flight_ = p;
  // patch-diff=view: the failure handler diffs its status patch against the object popped
  // here (handleSchedulingFailure's `pod := podInfo.Pod`), never refreshed while in flight.
  if (mechanisms().patch_diff_view)
    in_flight_nominated_ = lister_[p].nominated;
  in_flight_decision_ = decide(p);
  in_flight_event_ = false;
  report.pod = p;
  report.decision = in_flight_decision_;
}

void World::end_cycle(PodId p, const CycleDecision& d, StepReport& report) {
  const Mechanisms& m = mechanisms();
  // cycle=split: whether an event recorded while p was in flight may make it schedulable.
  // The pod leaves the in-flight list as the cycle ends (Done).
  const bool event_in_flight = in_flight_ == p && in_flight_event_;
  // The copy of the pod the failure handler diffs its status patch against.
  const NodeId view = view_nominated(p);
  in_flight_nominated_ = kNoNode;
  in_flight_ = kNoPod;
  in_flight_decision_ = CycleDecision{};
  in_flight_event_ = false;
  report.cycle = true;
  report.pod = p;
  report.decision = d;

  switch (d.kind) {
    case CycleDecision::Kind::kBind:
      // binding-nomination (NominatedNodeNameForExpectation): the binding cycle, before it
      // waits at Permit or in PreBind, patches the chosen node as p's nominatedNodeName for
      // components outside the scheduler
      // (pkg/scheduler/schedule_one.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610 L281-296;
      // kubernetes/enhancements@64765b4b02389318f2113119dd9e491479f978a0
      // keps/sig-scheduling/5278-nominated-node-name-for-expectation/README.md L244). Folded
      // into this step, so under api-calls=dispatched the binding queued next overwrites the
      // patch (SPEC §2.7). The informer's delivery of it leaves the nominator alone while p is
      // assumed (impl/informer.cc).
      if (m.binding_nomination)
        patch_nominated(p, d.node, view, report);
      // api-calls=dispatched: the binding takes p's slot in the API dispatcher, overwriting
      // a status patch still queued there (impl/dispatcher.cc).
      if (m.dispatched_calls)
        enqueue_binding(p, d.node);
      else
        binding_[p] = d.node;
      // assume: the cache counts the pod on its node before the bind call lands, so the
      // next cycle cannot give the same space away. Off with --assume=off.
      if (m.assume)
        assumed_[p] = d.node;
      // The nominator forgets an assumed pod; its space on its nominated node is now the
      // pod's own, so only a nomination to another node is released.
      if (nominated_[p] == d.node) {
        nominated_[p] = kNoNode;
      } else {
        set_nominated(p, kNoNode, report);
      }
      return;
    case CycleDecision::Kind::kIneligible:
      requeue_after_failure(p, event_in_flight, report);
      if (m.inflight == Inflight::kOn && inflight_by_[p] != 0 && has_pod(pool_, p)) {
        waiting_ |= pod_bit(p);
      }
      return;
    case CycleDecision::Kind::kNoCandidate:
      // PostFilter returns an empty nominated node: the failure handler clears the
      // nomination in memory and in the API.
      requeue_after_failure(p, event_in_flight, report);
      if (lister_[p].exists)
        set_nominated(p, kNoNode, report);
      patch_nominated(p, kNoNode, view, report);
      return;
    case CycleDecision::Kind::kPreempt:
      break;
  }

  const std::vector<PodId> victims = [&] {
    // Most important first; the executor deletes the last (least important) alone.
    std::vector<PodId> v;
    for (PodId q : pods_in(d.to_evict))
      v.push_back(q);
    std::sort(v.begin(), v.end(), [&](PodId a, PodId b) { return is_more_important(*this, a, b); });
    return v;
  }();

  if (m.deletion == Timing::kSync) {
    // deletion=sync (before KEP-4832): prepareCandidate deletes every victim inside the
    // cycle, then clears the lower-priority nominations.
    for (PodId v : victims)
      evict(v, report);
    clear_lower_nominations(p, d.node, m.clear_lower == Timing::kSync, report);
  } else {
    // clear-lower=sync: lower-priority nominees lose their claim on the node inside the
    // cycle, before any later cycle can count them. Off with --clear-lower=async, where
    // only the executor's patches, once observed, clear them.
    if (m.clear_lower == Timing::kSync)
      clear_lower_nominations(p, d.node, true, report);
    if (!victims.empty()) {
      // The in-flight set is written before the cycle ends, so the failure handler's
      // PreEnqueue below already gates the preemptor. Off with --inflight=off.
      if (m.inflight != Inflight::kOff)
        preempting_ |= pod_bit(p);
      if (m.inflight == Inflight::kOn)
        inflight_by_[p] |= d.to_evict;
      Job job;
      job.preemptor = p;
      job.node = d.node;
      job.last = victims.back();
      for (size_t i = 0; i + 1 < victims.size(); ++i)
        job.pending |= pod_bit(victims[i]);
      if (m.clear_lower == Timing::kAsync) {
        job.phase = JobPhase::kClear;
      } else if (job.pending != 0) {
        job.phase = JobPhase::kEvicting;
      } else {
        job.phase = JobPhase::kLast;
      }
      jobs_.push_back(job);
      if (job.phase == JobPhase::kLast)
        enter_last(jobs_.back());
    }
  }

  // handleSchedulingFailure: requeue (PreEnqueue gates the preemptor), then the nomination.
  requeue_after_failure(p, event_in_flight, report);
  // nomination=sync: AddNominatedPod writes the claim in memory before the cycle ends, so
  // the very next cycle counts it. Off with --nomination=async: the nominator learns it only
  // when the status patch is observed.
  // A pod the informer no longer has (deleted while its split cycle was in flight) is refused
  // by the nominator
  // (pkg/scheduler/backend/queue/nominator.go@251a9c727573ae9c91f8ee6a6674259e7e41db53 L92-95);
  // under cycle=atomic the popped pod always exists in the informer.
  // Nor does it nominate a pod the informer shows bound by another component (external-bind;
  // nominator.go@251a9c72 L97-100).
  if (m.nomination == Timing::kSync && lister_[p].exists && lister_[p].node == kNoNode)
    set_nominated(p, d.node, report);
  // A pod deleted while the scheduler still saw it (its binding was in flight when it was
  // evicted) is nominated nowhere: the status patch finds no pod.
  patch_nominated(p, d.node, view, report);
}

void World::fail_binding(PodId p, StepReport& report) {
  --binding_failures_left_;
  binding_[p] = kNoNode;
  // handleBindingCycleError: forget the assumed pod, tell the queue its space is free
  // (pkg/scheduler/schedule_one.go@4a37f009ca615534484b1116d0f147f1f23cf067 L354-369), and
  // send the pod back through handleSchedulingFailure (L373, L1075): to activeQ, or with
  // backoff≠none to backoffQ — its error part, no plugin having rejected it
  // (scheduling_queue.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610 L784-788, L1201).
  if (assumed_[p] != kNoNode) {
    assumed_[p] = kNoNode;
    move_all_on_delete(report);
  }
  restamp(p);  // AddUnschedulableIfNotPresent's refresh (L893)
  requeue_moved(p, report, true);
}

void World::preempt_in_memory(PodId v) {
  // binding-victims=in-memory: the executor's PreemptPod rejects v waiting at Permit or in
  // PreBind and goes on (executor.go@e642ef00 L114-123); v's binding goroutine wakes on its own
  // (`binding-preempted v`), so the executor's later steps and v's failure are explored in
  // both orders. Until then the cache still holds v assumed on its node, and its binding will
  // not be sent. A second job that chooses v meanwhile preempts it in memory again.
  preempted_in_memory_ |= pod_bit(v);
}

void World::fail_preempted_binding(PodId v, StepReport& report) {
  // v's binding cycle returns a non-rejected error status (S1n: WaitOnPermit L302-316,
  // PreBind L327-329) and handleBindingCycleError runs Unreserve and ForgetPod (L369) and, the
  // status not being rejected, moves the queue at once on AssignedPodDelete (L382-383) — a
  // move that may reach a preemptor still in `preempting` and be used up at its gate (#140082).
  // The failure handler, told to clear the nomination (L387), re-queues v (L1088), drops its
  // in-memory nomination (L1100) and patches nominatedNodeName="" (L1110). S1n is
  // pkg/scheduler/schedule_one.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610.
  preempted_in_memory_ &= ~pod_bit(v);
  binding_[v] = kNoNode;
  report.in_memory |= pod_bit(v);
  if (assumed_[v] != kNoNode) {
    assumed_[v] = kNoNode;
    move_all_on_delete(report);
  }
  // A victim a user deleted meanwhile, once the informer shows it gone, is not re-queued:
  // the failure handler looks it up in the informer's lister (S1n L1072-1087), as
  // requeue_after_failure does; the informer's delete event drops its nomination.
  if (!lister_[v].exists)
    return;
  restamp(v);  // AddUnschedulableIfNotPresent's refresh (scheduling_queue.go@003b4460 L893)
  requeue_moved(v, report, true);
  set_nominated(v, kNoNode, report);
  patch_nominated(v, kNoNode, view_nominated(v), report);
  // inflight=on: no informer event will show v on its way out; its space is free now.
  forget_inflight(pod_bit(v), report);
}

}  // namespace preemptcheck
