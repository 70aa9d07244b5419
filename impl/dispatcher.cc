// API dispatcher (api-calls=dispatched): kube-scheduler's SchedulerAsyncAPICalls. The
// failure handler's and the executor's nominatedNodeName patches and the bindings are not
// sent by their callers but queued, one slot per pod, and sent later by the dispatcher's
// goroutines (`status-patch P` for a patch; `bind P` still lands a binding). The window it
// opens: a pod is back in the queue, and may be scheduled again, before the patch that
// records its nomination is even sent; a newer call for the pod merges with, overwrites or
// cancels the one still queued. Victim deletions do not go through it (SPEC §2.5).
//
// Sources (kubernetes/kubernetes; SPEC §2.5's legend): CQ is
// pkg/scheduler/backend/api_dispatcher/call_queue.go@324d94f5ade996ab4eb9466d5d6203232d01ac01,
// PSP
// pkg/scheduler/framework/api_calls/pod_status_patch.go@134e0f5d0f07679ee8c31e58dcfaf8fff1fbc55a,
// AC pkg/scheduler/framework/api_calls/api_calls.go@e4d77d9256504b95df4fd35f9b2e4308707951d7.
// A call runs as one step: the model has no call in flight, so the rules that hold only
// while a call of the same pod is in flight (CQ L124–128, L289–299) are not modelled.
#include "impl/world.h"

namespace preemptcheck {
namespace {

constexpr PodSet drop(PodSet s, PodId p) { return s & ~pod_bit(p); }

}  // namespace

void World::enqueue_patch(PodId p, NodeId node, NodeId base, StepReport& report) {
  // A less relevant call is skipped (CQ merge L117–123): a binding (relevance 2, AC L35)
  // outranks a status patch (1, AC L34). The binding's slot is p's binding in flight.
  if (binding_[p] != kNoNode) {
    report.no_op = true;
    return;
  }
  // A no-op call — its nominatedNodeName already that of the copy it was made from, the
  // snapshot (PSP IsNoOp L193–204, the snapshot taken at creation L53–61) — is dropped, and
  // a patch still queued for p is removed with it (CQ enqueue L162–170, removePending
  // L208–219): the older patch is cancelled. The PodScheduled condition the failure handler
  // also sends is not modelled: a patch counts as a no-op when its nominatedNodeName does.
  if (node == base) {
    patches_ = drop(patches_, p);
    patch_node_[p] = kNoNode;
    return;
  }
  // A patch of the same type merges with a queued one, and the newer nominatedNodeName wins
  // (CQ merge L138, L144; PSP Merge L152–159); the merged call's snapshot is the newer one's.
  patches_ |= pod_bit(p);
  patch_node_[p] = node;
}

void World::enqueue_binding(PodId p, NodeId node) {
  // A call of another type and equal or higher relevance overwrites a queued one (CQ merge
  // L131–134): the binding takes the slot, and p's queued patch is never sent.
  binding_[p] = node;
  patches_ = drop(patches_, p);
  patch_node_[p] = kNoNode;
}

void World::run_patch(PodId p, StepReport& report) {
  const NodeId node = patch_node_[p];
  patches_ = drop(patches_, p);
  patch_node_[p] = kNoNode;
  // Execute re-derives the diff against its snapshot (syncStatus PSP L72–88) and sends
  // nothing when it is empty (L107–111) — never for a queued call, a no-op having been
  // dropped — then patches with the pod's UID as a precondition (L113–116): a deleted pod's
  // patch fails, and no call is retried (KEP-5229 L423–430). Nobody waits for the result:
  // both callers drop the channel (S1n L1134, EX L428).
  if (!api_[p].exists || api_[p].nominated == node) {
    report.no_op = true;
    return;
  }
  PodObj obj = api_[p];
  obj.nominated = node;
  write(p, obj, EventType::kModified, report);
}

void World::sync_patch(PodId p, NodeId nominated) {
  // SyncObject (CQ syncObject L305–324, L316–321): an informer update of p refreshes its queued
  // patch's snapshot unless it has started (PSP Sync L132–135); a patch that is now a no-op is
  // removed.
  if (has_pod(patches_, p) && patch_node_[p] == nominated) {
    patches_ = drop(patches_, p);
    patch_node_[p] = kNoNode;
  }
}

}  // namespace preemptcheck
