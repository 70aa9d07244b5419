// Informer: delivers the API server's watch events in order to the lister, the cache
// (confirming or forgetting assumed pods), the nominator and the scheduling queue. The
// races it opens are those of a lagging view: the in-flight set and the DeletionTimestamp
// skip hand over here (inflight=on), and stale-nomination=ignore keeps an update older
// than the scheduler's own latest write from undoing a newer in-memory nomination. A
// nominatedNodeName cleared or changed, or a nominated pending pod deleted, moves the
// unschedulable pods of lower or equal priority, as kube-scheduler does (PR #129058).
#include "impl/world.h"

#include <algorithm>

namespace preemptcheck {

void World::observe(StepReport& report) {
  // FIFO: the head. The causal watch order: the pod's oldest pending event, which has no
  // pending predecessor (impl/watch_order.cc).
  const std::size_t k = delivered_event(report.action.pod);
  WatchEvent e = events_[k];
  events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(k));
  if (cluster_->is_causal())
    drop_event(k);
  report.event = e;
  const PodId p = e.pod;
  const PodObj old = lister_[p];
  // stale-nomination=ignore: whether a later event of p is still pending. Reading it makes
  // this delivery depend on p's later writes (StepReport::read_later_event).
  const auto is_stale_update = [&] {
    if (!mechanisms().stale_nominations_ignored)
      return false;
    report.read_later_event = true;
    return has_later_event(p);
  };
  switch (e.type) {
    case EventType::kAdded:
      lister_[p] = e.obj;
      restamp(p);  // Add: newQueuedPodInfo's timestamp is now
      add_to_queue(p, report);
      return;
    case EventType::kModified: {
      lister_[p] = e.obj;
      // api-calls=dispatched: the update handlers sync the pod with the API dispatcher
      // (EH L313–317), which may drop p's queued patch (impl/dispatcher.cc). The binding
      // update's path (L168–178) was not shown to sync; the model does not.
      if (!(old.node == kNoNode && e.obj.node != kNoNode))
        sync_patch(p, e.obj.nominated);
      if (old.node == kNoNode && e.obj.node != kNoNode) {
        // The bind landed: the cache confirms the assumed pod, the nominator drops it.
        // kube-scheduler's updatePod treats the update as a binding: addAssignedPodToCache,
        // then deletePodFromSchedulingQueue(oldPod, true) (pkg/scheduler/eventhandlers.go@
        // 00cd67b7742e5af43e2eb841fde28de797344ed0 L168-178), whose SchedulingQueue.Delete
        // drops the nomination and takes the pod out of every queue (scheduling_queue.go@
        // 003b4460edb52bc9a9fe6cf54294e5b3e4681610 L1115-1129) and which then returns before
        // any move (L354-360, #134859). A pod kube-scheduler bound itself is in no queue; one
        // another component bound (external-bind) may be in activeQ or the pool, and the
        // pods its nomination held back are not moved: nothing but wake-on-release (this
        // project's) wakes them. Nor are those held back by the space it was assumed on, when
        // kube-scheduler's own stale cycle had assumed it on another node: the cache moves the
        // pod to the node it is bound to (AddPod of an assumed pod; internal/cache, not read
        // here, so not citable) and that space is free with no event.
        if (assumed_[p] != kNoNode && assumed_[p] != e.obj.node)
          wake_on_release(p, report);
        assumed_[p] = kNoNode;
        if (nominated_[p] == e.obj.node) {
          nominated_[p] = kNoNode;
        } else {
          set_nominated(p, kNoNode, report);
        }
        active_.erase(std::remove(active_.begin(), active_.end(), p), active_.end());
        pool_ &= ~pod_bit(p);
        gated_ &= ~pod_bit(p);
        backoff_ &= ~pod_bit(p);
        error_backoff_ &= ~pod_bit(p);
        waiting_ &= ~pod_bit(p);
      } else if (p == in_flight_) {
        // cycle=split: Update of a pod in flight records the event for it and returns before
        // UpdateNominatedPod (pkg/scheduler/backend/queue/scheduling_queue.go@
        // 003b4460edb52bc9a9fe6cf54294e5b3e4681610 L1035-1039, L1058-1059; UpdateNominatedPod
        // at L1045, L1052 is not reached; QueueingHints on, L1029): the nominator keeps what
        // it had.
      } else if (e.obj.node == kNoNode && assumed_[p] == kNoNode &&
                 !(old.nominated == kNoNode && e.obj.nominated == kNoNode) && !is_stale_update()) {
        // UpdateNominatedPod follows the API's nominatedNodeName, except that an update in
        // which neither the old nor the new object has one keeps an in-memory nomination made
        // before the patch landed (nominator.go@251a9c72 L125-133). Updates of an assumed pod
        // do not reach the queue or the nominator at all.
        // stale-nomination=ignore: an update older than the scheduler's own latest write of
        // this pod (a later event for it is still queued) does not overwrite the newer
        // in-memory nomination; otherwise a pod nominated twice in quick succession falls
        // back to its old node for a while and its new space looks free to the next cycle.
        // Off with --stale-nomination=apply (kube-scheduler).
        set_nominated(p, e.obj.nominated, report);
      }
      // PR #129058: an update of an unscheduled, non-assumed pod whose previous
      // nominatedNodeName was set and is now changed or cleared is treated as the deletion of
      // an assigned pod from its old nominated node, for the pods of lower or equal priority
      // (pkg/scheduler/eventhandlers.go@00cd67b7742e5af43e2eb841fde28de797344ed0 L319-330,
      // L334-338, L341-344). The move follows the informer, whatever the nominator kept.
      if (old.node == kNoNode && e.obj.node == kNoNode && assumed_[p] == kNoNode &&
          old.nominated != kNoNode && old.nominated != e.obj.nominated) {
        move_lower_or_equal(p, report);
      }
      // The scheduler now sees the deletion under way; the DeletionTimestamp skip takes over
      // from the in-flight set for this victim.
      if (e.obj.terminating)
        forget_inflight(pod_bit(p), report);
      return;
    }
    case EventType::kDeleted: {
      lister_[p] = e.obj;
      lister_[p].exists = false;
      // The cache forgets a deleted pod even while its binding is in flight (PR #134157, one
      // handler for every pod: eventhandlers.go@00cd67b7 L516-519). forget-deleted=off, before
      // it: the delete of an object without a nodeName reached only the queue's handler (two
      // FilteringResourceEventHandlers, the cache's for assigned pods: eventhandlers.go@533140f0,
      // lines not counted), and the cache kept the assumed pod until its binding failed.
      const bool cache_forgets = mechanisms().forget_deleted || e.obj.node != kNoNode;
      const bool was_assigned = old.node != kNoNode || (cache_forgets && assumed_[p] != kNoNode);
      if (cache_forgets)
        assumed_[p] = kNoNode;
      forget_inflight(pod_bit(p), report);
      pool_ &= ~pod_bit(p);
      gated_ &= ~pod_bit(p);
      backoff_ &= ~pod_bit(p);
      error_backoff_ &= ~pod_bit(p);
      waiting_ &= ~pod_bit(p);
      active_.erase(std::remove(active_.begin(), active_.end(), p), active_.end());
      if (was_assigned) {
        nominated_[p] = kNoNode;
        move_all_on_delete(report);
      } else {
        set_nominated(p, kNoNode, report);  // a nominated pending pod is gone
        // deletePodFromSchedulingQueue: a deleted pending pod that had a nominatedNodeName
        // moves the pods of lower or equal priority, as above (eventhandlers.go@00cd67b7 L361-375).
        if (e.obj.nominated != kNoNode)
          move_lower_or_equal(p, report);
      }
      return;
    }
  }
}

bool World::has_later_event(PodId p) const {
  for (const WatchEvent& e : events_) {
    if (e.pod == p)
      return true;
  }
  return false;
}

}  // namespace preemptcheck
