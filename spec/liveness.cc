// Liveness: the predicates of no-starvation on a World and the fairness of each action kind.
#include "spec/liveness.h"

#include <fmt/format.h>

namespace preemptcheck::spec {

const std::vector<LivenessDef>& liveness_table() {
  static const std::vector<LivenessDef> table = {
      {kNoStarvation,
       "under weak fairness of the scheduler's, the informer's and the kubelet's steps, a pod "
       "that again and again is pending with a cycle that would bind it or let it preempt is "
       "eventually bound or gone"},
  };
  return table;
}

bool is_liveness_property(std::string_view name) {
  for (const LivenessDef& d : liveness_table()) {
    if (d.name == name)
      return true;
  }
  return false;
}

bool is_pending(const World& w, PodId p) {
  // A second scheduler's pod is not this scheduler's to place (#130429).
  if (w.cluster().scenario().pods[p].scheduler != PodScheduler::kThis)
    return false;
  const PodObj& o = w.api(p);
  return o.exists && o.node == kNoNode && !o.terminating;
}

bool is_placed_or_gone(const World& w, PodId p) {
  const PodObj& o = w.api(p);
  if (o.exists)
    return o.node != kNoNode;
  // Not in the API server: gone, unless its `create` is still to come.
  return w.has_arrived(Arrival{Arrival::Kind::kPod, static_cast<std::uint8_t>(p)});
}

bool could_progress(const World& w, PodId p) {
  if (!is_pending(w, p) || w.binding(p) != kNoNode || w.assumed(p) != kNoNode ||
      w.in_flight() == p) {
    return false;
  }
  const CycleDecision d = w.decide(p);
  return d.kind == CycleDecision::Kind::kBind ||
         (d.kind == CycleDecision::Kind::kPreempt && d.to_evict != 0);
}

bool is_fair(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSchedule:
    case ActionKind::kBind:
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kFinish:
    case ActionKind::kObserve:
    case ActionKind::kTerminate:
    case ActionKind::kFlush:
    case ActionKind::kCycleEnd:
    case ActionKind::kBackoffExpires:
    case ActionKind::kStatusPatch:       // the API dispatcher's own goroutine sends it
    case ActionKind::kPdbSync:           // the disruption controller keeps running, as the kubelet
    case ActionKind::kBindingPreempted:  // the victim's binding goroutine wakes
      return true;
    case ActionKind::kBindFails:
    case ActionKind::kEvictFails:
    case ActionKind::kCreate:
    case ActionKind::kDelete:
    case ActionKind::kRestart:
    case ActionKind::kCreateNode:
    case ActionKind::kExternalBind:
    case ActionKind::kLateBind:
    case ActionKind::kLateEvict:
    case ActionKind::kRecreate:  // a controller's step, not the scheduler's
      return false;
  }
  return false;
}

std::optional<std::string> fair_class(const Action& a, const Cluster& cluster) {
  if (!is_fair(a.kind))
    return std::nullopt;
  return format_action(a, cluster);
}

std::string starvation_message(const Cluster& cluster, PodId p) {
  return fmt::format(
      "{} stays pending forever, although on every round of the loop a cycle could bind it or "
      "let it preempt",
      cluster.pod_name(p));
}

}  // namespace preemptcheck::spec
