// Scheduling queue: activeQ (priority, then arrival), the unschedulable pool, the
// PreEnqueue gate of DefaultPreemption, event-driven moves and the periodic flush. The gate
// closes the double-victim race — a preemptor running preemption cannot schedule again
// before its victims are on their way out (inflight, gate) — and the moves close lost
// wake-ups: a gated pod's used-up event (activate-on-finish), kube-scheduler's move on a
// nomination change (PR #129058, always on) and space released in memory (wake-on-release).
#include "impl/world.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace preemptcheck {

bool World::is_running_preemption(PodId p) const {
  const Mechanisms& m = mechanisms();
  if (m.inflight == Inflight::kOff)
    return false;  // --inflight=off: nothing is gated
  if (!has_pod(preempting_, p))
    return false;
  // gate=hold-until-done: the gate opens only when the job has ended. The last victim's
  // delete event then arrives while the preemptor is still gated and is used up: a lost
  // wake-up unless the job activates the preemptor when it finishes.
  // gate=release-before-last (#128170): the job left the set before the last delete, so
  // membership alone is the answer — and the preemptor may preempt the last victim again
  // while that delete is still in flight (#134249).
  if (m.gate != Gate::kLastVictim)
    return true;
  // gate=last-victim (#134730): the job stays in the set, but the gate opens as soon as the
  // informer shows the last victim terminating or gone; its delete event then always
  // arrives after the gate opened.
  PodId last = last_victim_[p];
  if (last == kNoPod)
    return true;
  const PodObj& v = lister_[last];
  return v.exists && !v.terminating;
}

void World::add_to_queue(PodId p, StepReport& report) {
  // A pod of a second scheduler never enters kube-scheduler's queue: the informer's filter
  // hands the queue only pods whose schedulerName it handles (responsibleForPod,
  // pkg/scheduler/eventhandlers.go@00cd67b7742e5af43e2eb841fde28de797344ed0 L474–477).
  if (is_second_schedulers(p))
    return;
  backoff_ &= ~pod_bit(p);
  error_backoff_ &= ~pod_bit(p);
  // PreEnqueue: DefaultPreemption keeps a pod that is running preemption out of activeQ.
  if (is_running_preemption(p)) {
    pool_ |= pod_bit(p);
    gated_ |= pod_bit(p);
    return;
  }
  pool_ &= ~pod_bit(p);
  gated_ &= ~pod_bit(p);
  report.backed_off &= ~pod_bit(p);
  // activeQ is a heap ordered by the queue-sort plugin's Less, PrioritySort's by default:
  // priority, then the earlier queue timestamp
  // (pkg/scheduler/framework/plugins/queuesort/priority_sort.go@
  // 008b3652959ca58af8be3fb5b6ecfe9ae7638282 L44-47). Timestamps are distinct, so the order
  // does not depend on the order in which the pods arrive here.
  const Cluster& c = *cluster_;
  assert(stamp_[p] != kNoStamp && "a pod enters activeQ with a queue timestamp");
  auto at = std::find_if(active_.begin(), active_.end(), [&](PodId q) {
    return c.priority(q) < c.priority(p) ||
           (c.priority(q) == c.priority(p) && stamp_[q] > stamp_[p]);
  });
  active_.insert(at, p);
  report.moved |= pod_bit(p);
}

void World::restamp(PodId p) {
  // The timestamp is the clock's now: newer than every other pod's. newQueuedPodInfo sets it
  // at an Add (scheduling_queue.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610 L1417–1428,
  // `Timestamp: now` L1424), AddUnschedulableIfNotPresent refreshes it at every failure
  // (L893); moves between activeQ, backoffQ and the pool keep it (moveToActiveQ, read at
  // that commit, line span not counted; moveToBackoffQ L684-703). Between steps a priority's
  // stamps are ranks 0..k-1; within a step a fresh one is one past the largest, and
  // normalize_stamps() renumbers.
  int newest = -1;
  for (std::size_t q = 0; q < stamp_.size(); ++q) {
    if (q != p && stamp_[q] != kNoStamp)
      newest = std::max<int>(newest, stamp_[q]);
  }
  assert(newest + 1 < kNoStamp && "a step restamps at most every pod once");
  stamp_[p] = static_cast<std::uint8_t>(newest + 1);
}

void World::normalize_stamps() {
  // Only the pods in a queue keep a timestamp: a pod leaves every queue when it is popped,
  // bound or deleted, and gets a fresh timestamp on every way back (restamp). So the
  // timestamp of a pod in no queue is never read, and forgetting it merges states that
  // differ only there. Less compares timestamps only of pods of one priority, and nothing
  // else in the model reads them (it has no clock for backoff or the flush's age), so the
  // renumbering ranks each priority's queued pods apart, 0 the oldest: a state differs from
  // another by a timestamp only where the order of two pods of one priority does.
  PodSet queued = pool_ | backoff_;
  for (PodId q : active_)
    queued |= pod_bit(q);
  std::array<PodId, kMaxPods> by_stamp{};
  std::size_t k = 0;
  for (std::size_t q = 0; q < stamp_.size(); ++q) {
    assert((stamp_[q] != kNoStamp || !has_pod(queued, static_cast<PodId>(q))) &&
           "every queued pod has a queue timestamp");
    if (stamp_[q] == kNoStamp)
      continue;
    if (!has_pod(queued, static_cast<PodId>(q))) {
      stamp_[q] = kNoStamp;
      continue;
    }
    by_stamp[k++] = static_cast<PodId>(q);
  }
  const Cluster& c = *cluster_;
  std::sort(by_stamp.begin(), by_stamp.begin() + static_cast<std::ptrdiff_t>(k),
            [&](PodId a, PodId b) {
              return c.priority(a) != c.priority(b) ? c.priority(a) > c.priority(b)
                                                    : stamp_[a] < stamp_[b];
            });
  std::uint8_t rank = 0;
  for (std::size_t i = 0; i < k; ++i) {
    rank = i > 0 && c.priority(by_stamp[i]) == c.priority(by_stamp[i - 1]) ? rank + 1 : 0;
    stamp_[by_stamp[i]] = rank;
  }
}

void World::requeue_after_failure(PodId p, bool event_in_flight, StepReport& report) {
  // handleSchedulingFailure does not requeue a pod the informer no longer has ("Pod doesn't
  // exist in informer cache";
  // pkg/scheduler/schedule_one.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610, line not counted). Only
  // a split cycle can end for such a pod.
  if (!lister_[p].exists)
    return;
  // Nor one the informer already shows assigned, by another component (external-bind):
  // "Pod has been assigned to node. Abort adding it back to queue."
  // (pkg/scheduler/schedule_one.go@4a37f009ca615534484b1116d0f147f1f23cf067 L1067-1069).
  if (lister_[p].node != kNoNode)
    return;
  // "Refresh the timestamp since the pod is re-added" (scheduling_queue.go@003b4460 L893),
  // whichever queue the pod goes to.
  restamp(p);
  if (event_in_flight) {
    // cycle=split: AddUnschedulableIfNotPresent asks determineSchedulingHintForInFlightPod
    // (pkg/scheduler/backend/queue/scheduling_queue.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610
    // L911, L783-820) whether an event received while the pod was in flight may make it
    // schedulable; it did, so requeuePodWithQueueingStrategy (L914, L1193-1214) sends the pod
    // to activeQ through moveToActiveQ, which runs PreEnqueue (L643-645). A pod whose
    // preemption this very cycle started is gated there and lands in unschedulablePods
    // (L661, L1212): the event is used up (#141694). A pod that has just failed is backing
    // off: with backoff≠none the hint sends it to backoffQ instead (requeue_moved), where
    // backoff=pop-when-idle runs the same PreEnqueue and backoff=expiry-only does not.
    if (mechanisms().backoff == Backoff::kExpiryOnly) {
      requeue_moved(p, report);
    } else if (is_running_preemption(p)) {
      pool_ |= pod_bit(p);
      gated_ |= pod_bit(p);
      report.gated = true;
      report.consumed |= pod_bit(p);
    } else {
      requeue_moved(p, report);
    }
    report.requeued_in_flight = true;
    return;
  }
  // AddUnschedulableIfNotPresent: no event arrived while the cycle ran, so the pod goes to
  // the unschedulable pool — gated if PreEnqueue says its preemption is running.
  pool_ |= pod_bit(p);
  if (is_running_preemption(p)) {
    gated_ |= pod_bit(p);
    report.gated = true;
  } else {
    gated_ &= ~pod_bit(p);
  }
}

void World::move_all_on_delete(StepReport& report) {
  // An assigned pod was deleted: NodeResourcesFit's hint queues every pod it rejected.
  move_unschedulable(pool_, report);
  record_in_flight_event(true, report);
}

void World::move_unschedulable(PodSet pods, StepReport& report) {
  // Gated pods see the event too (DefaultPreemption registers Pod/Delete) and run PreEnqueue
  // again; a pod still running preemption stays gated and the event is used up.
  // backoff=expiry-only: nothing runs PreEnqueue on the way into backoffQ, so a gated pod
  // moves there too and meets the gate again only when its backoff expires.
  for (PodId p : pods_in(pods)) {
    if (has_pod(gated_, p) && is_running_preemption(p) &&
        mechanisms().backoff != Backoff::kExpiryOnly) {
      report.consumed |= pod_bit(p);
      continue;
    }
    requeue_moved(p, report);
  }
}

void World::requeue_moved(PodId p, StepReport& report, bool error) {
  const Backoff backoff = mechanisms().backoff;
  if (backoff == Backoff::kNone) {
    add_to_queue(p, report);
    return;
  }
  // A pod in the unschedulable pool has failed a cycle, and its backoff (by default 1 s,
  // doubling up to 10 s; not cited) starts at that failure; an event moves it milliseconds
  // later, or minutes later.
  // The model has no clock: the pod goes to backoffQ (requeuePodWithQueueingStrategy,
  // pkg/scheduler/backend/queue/scheduling_queue.go@003b4460edb52bc9a9fe6cf54294e5b3e4681610
  // L1201-1205, moveToBackoffQ L684-703), and `backoff-expires` may take it on to activeQ at
  // any moment. backoff=pop-when-idle: moveToBackoffQ runs PreEnqueue first (L689-697), and
  // a pod still running preemption is gated into the pool.
  if (backoff == Backoff::kPopWhenIdle && is_running_preemption(p)) {
    pool_ |= pod_bit(p);
    gated_ |= pod_bit(p);
    return;
  }
  pool_ &= ~pod_bit(p);
  gated_ &= ~pod_bit(p);
  backoff_ |= pod_bit(p);
  // A pod no plugin rejected — its binding failed — waits in podErrorBackoffQ, which Pop
  // never takes from early (backoff_queue.go: popBackoff pops podBackoffQ only; not read at
  // a named commit, so not citable here).
  if (error)
    error_backoff_ |= pod_bit(p);
  report.moved |= pod_bit(p);
  report.backed_off |= pod_bit(p);
}

void World::expire_backoff(PodId p, StepReport& report) {
  // flushBackoffQCompleted moves the pod to activeQ through moveToActiveQ
  // (scheduling_queue.go@003b4460 L925-938). backoff=expiry-only: its PreEnqueue gates a
  // pod still running preemption (L643-661). backoff=pop-when-idle skips PreEnqueue there
  // (L643), the pod having passed it on the way in; nothing can start its preemption while
  // it waits in backoffQ, and the gate only ever opens, so the check below passes for it.
  add_to_queue(p, report);
}

void World::move_lower_or_equal(PodId p, StepReport& report) {
  // MoveAllToActiveOrBackoffQueue(EventAssignedPodDelete, oldPod, nil,
  // getLEPriorityPreCheck(priority)): only the unschedulable pods of priority <= p's are
  // candidates (pkg/scheduler/eventhandlers.go@00cd67b7742e5af43e2eb841fde28de797344ed0
  // L337, L374, L378-383); p itself included. NodeResourcesFit's isSchedulableAfterPodEvent
  // answers Queue for a deleted pod that had a nominatedNodeName, so every candidate moves,
  // through PreEnqueue.
  const Cluster& c = *cluster_;
  PodSet pods = 0;
  for (PodId q : pods_in(pool_)) {
    if (c.priority(q) <= c.priority(p))
      pods |= pod_bit(q);
  }
  move_unschedulable(pods, report);
  // The pre-check filters only the unschedulable pods; the event is recorded for an
  // in-flight pod whatever its priority (scheduling_queue.go@003b4460 L1171-1174, L1251).
  record_in_flight_event(true, report);
}

void World::wake_on_release(PodId except, StepReport& report) {
  // Beyond kube-scheduler (this project's addition): at the moment space is given back in
  // memory — the nominator drops or moves a nomination, or a failed eviction gives its
  // victims back — every unschedulable pod but `except` moves, whatever its priority.
  // kube-scheduler moves only at the informer's delivery of a nominatedNodeName change, and
  // only the pods of lower or equal priority (move_lower_or_equal); it has no move at all for
  // an in-memory drop whose API object never had the nomination, or for given-back victims.
  // Off with --wake-on-release=off.
  if (!mechanisms().wake_on_release)
    return;
  PodSet pods = pool_;
  if (except != kNoPod)
    pods &= ~pod_bit(except);
  move_unschedulable(pods, report);
  if (in_flight_ != except)
    record_in_flight_event(true, report);
}

void World::activate(PodId p, StepReport& report) {
  // Activate moves a pod from the pool or backoffQ straight to activeQ, through PreEnqueue
  // (scheduling_queue.go@003b4460 L750-773), which a pod from backoffQ passed already.
  if (has_pod(pool_ | backoff_, p))
    add_to_queue(p, report);
  // Activate of an in-flight pod registers EventForceActivate for it
  // (scheduling_queue.go@003b4460 L733-738), a wildcard event that requeues it.
  if (p == in_flight_)
    record_in_flight_event(true, report);
}

void World::flush(StepReport& report) {
  // flushUnschedulablePodsLeftover: every pod leaves the pool through PreEnqueue; a pod
  // still running preemption stays gated (#139162).
  // movePodsToActiveOrBackoffQueue records its wildcard UnschedulableTimeout event for an
  // in-flight pod too (scheduling_queue.go@003b4460 L1251); the flush runs only with a
  // non-empty pool.
  const bool any = pool_ != 0;
  for (PodId p : pods_in(pool_)) {
    if (is_running_preemption(p))
      continue;
    add_to_queue(p, report);
  }
  record_in_flight_event(any, report);
}

void World::move_on_node_add(NodeId n, StepReport& report) {
  // addNodeToCache (pkg/scheduler/eventhandlers.go at 00cd67b7742e5af43e2eb841fde28de797344ed0,
  // L53–67) calls MoveAllToActiveOrBackoffQueue with the Node/Add event and, with
  // QueueingHints on, no pre-check. A gated pod is skipped unless its gating plugin registered
  // the event (pkg/scheduler/backend/queue/scheduling_queue.go at
  // 003b4460edb52bc9a9fe6cf54294e5b3e4681610, L1225); DefaultPreemption registers only pod
  // deletion, so a preemptor held at the gate is not moved. NodeResourcesFit's hint queues a
  // pod whose request fits the new node's allocatable.
  const Cluster& c = *cluster_;
  for (PodId p : pods_in(pool_ & ~gated_)) {
    if (c.request(p).fits_in(c.capacity(n)))
      requeue_moved(p, report);
  }
  // The same hint decides for an in-flight pod (L1251), which is not gated.
  record_in_flight_event(in_flight_ != kNoPod && c.request(in_flight_).fits_in(c.capacity(n)),
                         report);
}

void World::record_in_flight_event(bool queue, StepReport& report) {
  // cycle=split: addEventIfAnyInFlight (pkg/scheduler/backend/queue/active_queue.go@
  // 00fdf757a8e89fb0c7ccad10419ef33a1fa1b1ab L485-499) appends the event while any pod is in
  // flight; the model keeps only its verdict for that pod — whether the rejecting plugin's
  // queueing hint (NodeResourcesFit) would requeue it — since that is all
  // determineSchedulingHintForInFlightPod asks of the list. Under cycle=atomic nothing is ever
  // in flight here.
  if (in_flight_ == kNoPod || !queue)
    return;
  in_flight_event_ = true;
  report.recorded_for = in_flight_;
}

}  // namespace preemptcheck
