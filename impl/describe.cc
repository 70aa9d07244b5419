// Describe: the comment beside each step of a trace.
#include "impl/describe.h"

#include <fmt/format.h>

namespace preemptcheck {

std::string pod_names(const Cluster& cluster, PodSet pods) {
  std::string out;
  for (PodId p = 0; pods != 0; ++p, pods >>= 1) {
    if ((pods & 1) == 0) continue;
    if (!out.empty()) out += ", ";
    out += cluster.pod_name(p);
  }
  return out;
}

namespace {

std::string moves(const Cluster& c, const StepReport& step) {
  std::string out;
  if (step.moved != 0) out += fmt::format("; moves {} to activeQ", pod_names(c, step.moved));
  if (step.consumed != 0) {
    out += fmt::format("; {} stays gated and the event is used up", pod_names(c, step.consumed));
  }
  return out;
}

std::string describe_cycle(const World& before, const StepReport& step, const World& after) {
  const Cluster& c = before.cluster();
  const std::string& p = c.pod_name(step.pod);
  const CycleDecision& d = step.decision;
  std::string out;
  switch (d.kind) {
    case CycleDecision::Kind::kBind:
      return fmt::format("{} fits on {}; {}, binding in flight", p, c.node_name(d.node),
                         after.assumed(step.pod) != kNoNode ? "assumed" : "not assumed");
    case CycleDecision::Kind::kIneligible:
      if (c.is_preempt_never(step.pod)) {
        return fmt::format("{} does not fit; preemptionPolicy Never; unschedulable", p);
      }
      if (has_pod(after.waiting_for_own_victims(), step.pod)) {
        return fmt::format(
            "{} does not fit; not eligible to preempt while its own victims ({}) are still "
            "being deleted; waits for them",
            p, pod_names(c, before.inflight_victims_of(step.pod)));
      }
      return fmt::format(
          "{} does not fit; not eligible to preempt while a victim on its nominated node is "
          "terminating; unschedulable",
          p);
    case CycleDecision::Kind::kNoCandidate:
      out = fmt::format("{} does not fit and no preemption makes room; unschedulable", p);
      if (before.nominated(step.pod) != kNoNode || before.lister(step.pod).nominated != kNoNode) {
        out += "; nomination cleared";
      }
      return out;
    case CycleDecision::Kind::kPreempt:
      break;
  }
  out = fmt::format("{} does not fit; ", p);
  if (d.to_evict != 0) {
    out += fmt::format("preempts {} on {}", pod_names(c, d.to_evict), c.node_name(d.node));
  } else {
    out += fmt::format("its victims on {} are already terminating", c.node_name(d.node));
  }
  if ((d.victims & ~d.to_evict) != 0) {
    out += fmt::format(" (skips {}, already terminating)", pod_names(c, d.victims & ~d.to_evict));
  }
  if (step.cleared != 0) out += fmt::format("; clears the nomination of {}", pod_names(c, step.cleared));
  out += fmt::format("; nominated to {}", c.node_name(d.node));
  if (step.gated) out += "; gated";
  return out;
}

std::string describe_event(const Cluster& c, const StepReport& step) {
  const WatchEvent& e = step.event;
  const std::string& p = c.pod_name(e.pod);
  std::string what;
  switch (e.type) {
    case EventType::kAdded:
      what = fmt::format("{} added", p);
      break;
    case EventType::kDeleted:
      what = fmt::format("{} deleted", p);
      break;
    case EventType::kModified: {
      std::string state;
      if (e.obj.terminating) {
        state = "terminating";
      } else if (e.obj.node != kNoNode) {
        state = fmt::format("bound to {}", c.node_name(e.obj.node));
      } else if (e.obj.nominated != kNoNode) {
        state = fmt::format("nominated to {}", c.node_name(e.obj.nominated));
      } else {
        state = "no nomination";
      }
      what = fmt::format("{} updated: {}", p, state);
      break;
    }
  }
  return fmt::format("the informer delivers: {}{}", what, moves(c, step));
}

}  // namespace

std::string describe_step(const World& before, const StepReport& step, const World& after) {
  const Cluster& c = before.cluster();
  const Action& a = step.action;
  switch (a.kind) {
    case ActionKind::kSchedule:
      return describe_cycle(before, step, after);
    case ActionKind::kBind:
      if (step.binding_lost) {
        return fmt::format("{} was deleted meanwhile; the binding fails and the cache forgets "
                           "it{}",
                           c.pod_name(a.pod), moves(c, step));
      }
      return fmt::format("{} is bound to {}", c.pod_name(a.pod),
                         c.node_name(before.binding(a.pod)));
    case ActionKind::kBindFails:
      return fmt::format("binding {} fails; the cache forgets it{}", c.pod_name(a.pod),
                         moves(c, step));
    case ActionKind::kClearNominations:
      if (step.cleared == 0) {
        return fmt::format("{}'s job finds no lower-priority nomination to clear",
                           c.pod_name(a.pod));
      }
      return fmt::format("{}'s job clears the nomination of {}", c.pod_name(a.pod),
                         pod_names(c, step.cleared));
    case ActionKind::kEvict: {
      const std::string& v = c.pod_name(a.victim);
      if (step.no_op) {
        return fmt::format("{}'s job evicts {}: already {}, counted as success",
                           c.pod_name(a.pod), v,
                           before.api(a.victim).exists ? "terminating" : "gone (NotFound)");
      }
      if (!after.api(a.victim).exists) {
        return fmt::format("{}'s job deletes {}, not yet bound, so it is gone at once",
                           c.pod_name(a.pod), v);
      }
      return fmt::format("{}'s job evicts {} (DisruptionTarget set, deletion started)",
                         c.pod_name(a.pod), v);
    }
    case ActionKind::kEvictFails:
      return fmt::format("evicting {} fails; {}'s job stops and skips its remaining victims",
                         c.pod_name(a.victim), c.pod_name(a.pod));
    case ActionKind::kFinish:
      return fmt::format("{}'s job ends{}{}", c.pod_name(a.pod),
                         has_pod(after.preempting(), a.pod) ? "" : "; it leaves the in-flight set",
                         step.moved != 0 ? "; activated" : "");
    case ActionKind::kObserve:
      return describe_event(c, step);
    case ActionKind::kTerminate:
      return fmt::format("the kubelet finishes {}; it is gone from the API server",
                         c.pod_name(a.pod));
    case ActionKind::kFlush:
      return step.moved != 0
                 ? fmt::format("the periodic flush moves {} to activeQ", pod_names(c, step.moved))
                 : "the periodic flush finds every pod still gated";
    case ActionKind::kCreate:
      return fmt::format("{} is created", c.pod_name(a.pod));
  }
  return {};
}

}  // namespace preemptcheck
