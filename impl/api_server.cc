// API server: ground truth. Every write stores the object and appends the watch event the
// informer will deliver later; until then the scheduler's view lags behind. The status
// PATCH of nominatedNodeName, the binding call landing, eviction (DisruptionTarget, then
// graceful deletion), pod creation and the kubelet's final delete all go through write().
// No switch lives here: the races are those of the readers that have not yet seen a write.
#include "impl/world.h"

namespace preemptcheck {

void World::write(PodId p, const PodObj& obj, EventType type, StepReport& report) {
  api_[p] = obj;
  if (type == EventType::kDeleted) {
    api_[p].exists = false;
    report.deleted |= pod_bit(p);
  }
  // informer-fifo=per-key: client-go's DeltaFIFO (up to v0.32; tag v0.32.0,
  // 0d554618e21a4605cafd4264a685b916d2c024e9, builds it unconditionally,
  // tools/cache/shared_informer.go L471) appends a delta to its object's list and queues the key
  // only when it is not queued already (tools/cache/delta_fifo.go L476-484); Pop hands the key's
  // whole list to processDeltas, oldest to newest (L576-616; tools/cache/controller.go L541-549).
  // So an event of a pod with an event still pending is delivered right after that pod's last
  // pending one, ahead of other pods' events written before it. The causal watch order is not
  // combined with it (cli refuses --reduce=watch-order): its positions assume appends.
  if (mechanisms().informer_per_key) {
    for (std::size_t i = events_.size(); i-- > 0;) {
      if (events_[i].pod == p) {
        events_.insert(events_.begin() + static_cast<std::ptrdiff_t>(i + 1), {type, p, api_[p]});
        return;
      }
    }
  }
  events_.push_back({type, p, api_[p]});
}

void World::patch_nominated(PodId p, NodeId node, NodeId view, StepReport& report) {
  // The status PATCH is sent only when the value differs. patch-diff=view (kube-scheduler):
  // differs from the scheduler's own copy of the pod — updatePod's nnnNeedsUpdate
  // (pkg/scheduler/schedule_one.go@4a37f009ca615534484b1116d0f147f1f23cf067 L1123-1126) on
  // the popped object (L1044), the executor's clear on the queue's copy
  // (pkg/scheduler/framework/preemption/manager/executor.go@e642ef00b3031e9fc29c17a2c55a8c6051e980b8
  // L433-438) — so a stale copy that already shows `node` sends nothing however the API
  // server's value has changed. The PATCH, once sent, sets `node` whatever the API server
  // holds (a merge patch of the copy against the copy with the new value; the body of
  // util.PatchPodStatus was not read, so this is not citable here). patch-diff=truth: the
  // API server's own value is compared.
  const NodeId compared = mechanisms().patch_diff_view ? view : api_[p].nominated;
  // api-calls=dispatched: the caller queues the patch, made from its copy, in the API
  // dispatcher and goes on (impl/dispatcher.cc); updatePod does not diff first (S1n
  // L1132–1136), the dispatcher's no-op check does.
  if (mechanisms().dispatched_calls) {
    enqueue_patch(p, node, compared, report);
    return;
  }
  if (!api_[p].exists || compared == node || api_[p].nominated == node)
    return;
  PodObj obj = api_[p];
  obj.nominated = node;
  write(p, obj, EventType::kModified, report);
}

void World::evict(PodId v, StepReport& report) {
  PodObj obj = api_[v];
  if (!obj.exists) {
    report.no_op = true;  // NotFound counts as success
    return;
  }
  if (obj.node == kNoNode) {
    // A pod that is not bound (its binding is still in flight) is deleted at once: no kubelet
    // has to stop it.
    obj.disruption_target = true;
    write(v, obj, EventType::kDeleted, report);
    return;
  }
  if (obj.terminating && obj.disruption_target) {
    report.no_op = true;  // the condition is already set and the deletion already started
    return;
  }
  obj.disruption_target = true;
  obj.terminating = true;
  write(v, obj, EventType::kModified, report);
}

void World::land_binding(PodId p, StepReport& report) {
  const NodeId node = binding_[p];
  binding_[p] = kNoNode;
  if (!api_[p].exists) {
    // The pod was deleted while its binding was in flight: the bind fails and the cache
    // forgets it, freeing its space.
    report.binding_lost = true;
    if (assumed_[p] != kNoNode) {
      assumed_[p] = kNoNode;
      move_all_on_delete(report);
    }
    return;
  }
  if (api_[p].node != kNoNode) {
    // Another component bound the pod first (external-bind): the binding call is refused
    // with a conflict. handleBindingCycleError forgets the assumed pod and moves the pool
    // (lines not counted here); handleSchedulingFailure requeues the pod unless the informer
    // already shows it assigned
    // (pkg/scheduler/schedule_one.go@4a37f009ca615534484b1116d0f147f1f23cf067 L1067-1069).
    report.binding_lost = true;
    if (assumed_[p] != kNoNode) {
      assumed_[p] = kNoNode;
      move_all_on_delete(report);
    }
    // Back to activeQ, or with backoff≠none to backoffQ's error part, as after any failed
    // binding (fail_binding).
    if (lister_[p].node == kNoNode) {
      restamp(p);  // AddUnschedulableIfNotPresent's refresh (scheduling_queue.go@003b4460 L893)
      requeue_moved(p, report, true);
    }
    return;
  }
  write_binding(p, node, report);
}

void World::write_binding(PodId p, NodeId node, StepReport& report) {
  PodObj obj = api_[p];
  obj.node = node;
  obj.nominated = kNoNode;
  obj.start = next_start_++;
  write(p, obj, EventType::kModified, report);
}

void World::create(PodId p, StepReport& report) {
  PodObj obj;
  obj.exists = true;
  uncreated_ &= ~pod_bit(p);
  write(p, obj, EventType::kAdded, report);
}

void World::terminate(PodId p, StepReport& report) {
  // The kubelet has stopped the pod after its grace period: the API server deletes it.
  write(p, api_[p], EventType::kDeleted, report);
}

void World::delete_pod(PodId p, StepReport& report) {
  --deletions_left_;
  PodObj obj = api_[p];
  if (obj.node == kNoNode) {
    // A pod no kubelet runs (pending, or its binding still in flight) is deleted at once.
    write(p, obj, EventType::kDeleted, report);
    return;
  }
  // Graceful deletion: the deletionTimestamp is set, the kubelet finishes the pod later.
  // Unlike an eviction, no DisruptionTarget condition is written.
  obj.terminating = true;
  write(p, obj, EventType::kModified, report);
}

void World::external_bind(PodId p, NodeId n, StepReport& report) {
  if (!is_second_schedulers(p))
    --external_bindings_left_;
  // Another scheduler or controller binds p through the binding API. The API server sets
  // nodeName and clears nominatedNodeName (PR #132443, merged; its code not read, so not
  // citable here), as it does for kube-scheduler's own binding (land_binding). Nothing in
  // the scheduler is told but the informer's watch event.
  write_binding(p, n, report);
}

void World::create_node(NodeId n, StepReport& report) {
  uncreated_nodes_ &= static_cast<std::uint8_t>(~(1u << n));
  // The node and the running pods the scenario places on it appear together, in the API and
  // in the scheduler's view (no watch event: no cycle can see the node without its pods).
  const Cluster& c = *cluster_;
  for (PodId p = 0; p < api_.size(); ++p) {
    const PodSpec& spec = c.scenario().pods[p];
    if (spec.arrives_later || spec.node.empty() || *c.find_node(spec.node) != n)
      continue;
    api_[p].exists = true;
    api_[p].node = n;
    api_[p].start = next_start_++;
    lister_[p] = api_[p];
  }
  move_on_node_add(n, report);  // queue.cc
}

bool World::is_second_schedulers(PodId p) const {
  return cluster_->scenario().pods[p].scheduler != PodScheduler::kThis;
}

bool World::second_scheduler_fits(PodId p, NodeId n) const {
  // #130429: a second scheduler places its pending pod where it fits beside what the API
  // server has on the node. It does not see kube-scheduler's nominations as claims: its
  // nominator is fed only by the unscheduled pods its own informer filter lets through,
  // those whose schedulerName it handles (responsibleForPod,
  // pkg/scheduler/eventhandlers.go@00cd67b7742e5af43e2eb841fde28de797344ed0 L474–477). With
  // PodScheduler::kSecondAware it keeps clear of the nominatedNodeName the API server shows
  // for pods of priority >= its own, kube-scheduler's own two-pass rule (fits()), the
  // setting in which the loop of #130429 closes.
  const PodObj& o = api_[p];
  if (!o.exists || o.terminating || o.node != kNoNode || !node_exists(n))
    return false;
  PodSet claims = ground_pods(n);
  if (cluster_->scenario().pods[p].scheduler == PodScheduler::kSecondAware) {
    for (PodId q = 0; q < api_.size(); ++q) {
      if (q != p && api_[q].exists && api_[q].node == kNoNode && api_[q].nominated == n &&
          cluster_->priority(q) >= cluster_->priority(p)) {
        claims |= pod_bit(q);
      }
    }
  }
  Resources used = sum_requests(claims);
  used += cluster_->request(p);
  return used.fits_in(cluster_->capacity(n));
}

bool World::can_recreate(PodId p) const {
  // The controller (a ReplicaSet, say) sees its pod gone and creates a replacement from the
  // same template (not citable here: the ReplicaSet controller's code was not read). The
  // model reuses the pod's slot: same spec, a new object.
  return cluster_->scenario().pods[p].recreated && !api_[p].exists && !has_pod(uncreated_, p);
}

void World::recreate(PodId p, StepReport& report) {
  // Start orders only rank running pods. Renumbered here to 0, 1, … in their order, every
  // copy of them alike (API server, informer, pending events), so that a pod that has come
  // back and been bound again returns the world to a state it had before: the state graph
  // closes a cycle instead of counting bindings forever.
  std::array<bool, 256> used{};
  const auto mark = [&](const PodObj& o) { used[o.start] = true; };
  for (PodId q = 0; q < api_.size(); ++q) {
    mark(api_[q]);
    mark(lister_[q]);
  }
  for (const WatchEvent& e : events_)
    mark(e.obj);
  std::array<std::uint8_t, 256> rank{};
  std::uint8_t next = 0;
  for (size_t s = 0; s < 0xff; ++s) {
    if (used[s])
      rank[s] = next++;
  }
  rank[0xff] = 0xff;
  const auto renumber = [&](PodObj& o) { o.start = rank[o.start]; };
  for (PodId q = 0; q < api_.size(); ++q) {
    renumber(api_[q]);
    renumber(lister_[q]);
  }
  for (WatchEvent& e : events_)
    renumber(e.obj);
  next_start_ = next;
  PodObj obj;
  obj.exists = true;
  write(p, obj, EventType::kAdded, report);
}

}  // namespace preemptcheck
