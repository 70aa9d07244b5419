// Show: the words for a World and a step. Every line here renders; none decides.
#include "impl/show.h"

#include <fmt/format.h>

namespace preemptcheck {
namespace {

std::string node_name(const Cluster& c, NodeId n) {
  return n == kNoNode ? std::string("none") : c.node_name(n);
}

std::string object_text(const Cluster& c, const PodObj& o) {
  if (!o.exists)
    return "absent";
  std::string s = o.node != kNoNode ? fmt::format("on {}", c.node_name(o.node)) : "pending";
  if (o.nominated != kNoNode)
    s += fmt::format(", nominated to {}", c.node_name(o.nominated));
  if (o.terminating)
    s += ", terminating";
  if (o.disruption_target)
    s += ", DisruptionTarget";
  return s;
}

std::string event_text(const Cluster& c, const WatchEvent& e) {
  switch (e.type) {
    case EventType::kAdded:
      return fmt::format("{} added ({})", c.pod_name(e.pod), object_text(c, e.obj));
    case EventType::kDeleted:
      return fmt::format("{} deleted", c.pod_name(e.pod));
    case EventType::kModified:
      break;
  }
  return fmt::format("{} modified ({})", c.pod_name(e.pod), object_text(c, e.obj));
}

std::string moves(const Cluster& c, const StepReport& step) {
  std::string out;
  if ((step.moved & ~step.backed_off) != 0)
    out += fmt::format("; moves {} to activeQ", pod_names(c, step.moved & ~step.backed_off));
  if (step.backed_off != 0)
    out += fmt::format("; moves {} to backoffQ", pod_names(c, step.backed_off));
  if (step.consumed != 0)
    out += fmt::format("; {} stays gated and the event is used up", pod_names(c, step.consumed));
  if (step.recorded_for != kNoPod)
    out += fmt::format("; recorded as an in-flight event for {}", c.pod_name(step.recorded_for));
  return out;
}

// cycle=split: what a cycle decided on the view it started with, e.g. "fits on node-a".
std::string decision_text(const Cluster& c, const CycleDecision& d) {
  switch (d.kind) {
    case CycleDecision::Kind::kBind:
      return fmt::format("fits on {}", c.node_name(d.node));
    case CycleDecision::Kind::kIneligible:
      return "does not fit and is not eligible to preempt";
    case CycleDecision::Kind::kNoCandidate:
      return "does not fit and no preemption makes room";
    case CycleDecision::Kind::kPreempt:
      break;
  }
  return d.to_evict != 0
             ? fmt::format("would preempt {} on {}", pod_names(c, d.to_evict), c.node_name(d.node))
             : fmt::format("would preempt on {}, its victims already terminating",
                           c.node_name(d.node));
}

// cycle=split: what the cycle that just started decided on the view it started with.
std::string describe_cycle_start(const Cluster& c, const StepReport& step) {
  const std::string& p = c.pod_name(step.pod);
  return fmt::format("{}'s cycle starts ({} is in flight); on the view it starts with, {} {}", p, p,
                     p, decision_text(c, step.decision));
}

// cycle=split: the cycle in flight as a state line — the pod, its decision with every victim
// of the chosen candidate, whether an event that may make it schedulable arrived since it
// started, and (patch-diff=view) the nomination of the copy it was popped with when the
// informer has changed it since, and the PDB violations it counted: each field
// World::fingerprint digests for it.
std::string in_flight_text(const World& w) {
  const Cluster& c = w.cluster();
  const PodId p = w.in_flight();
  const CycleDecision& d = w.in_flight_decision();
  std::string s = fmt::format("{}: {}", c.pod_name(p), decision_text(c, d));
  if (d.victims != d.to_evict)
    s += fmt::format(" (victims {})", or_none(pod_names(c, d.victims)));
  if (d.pdb_violations != 0)
    s += fmt::format(", counting {} PDB violation{}", d.pdb_violations,
                     d.pdb_violations == 1 ? "" : "s");
  if (w.in_flight_event())
    s += "; an event that may make it schedulable arrived while it was in flight";
  if (w.mechanisms().patch_diff_view && w.in_flight_nominated() != w.lister(p).nominated)
    s += fmt::format("; popped nominated to {}", node_name(c, w.in_flight_nominated()));
  return s;
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
  if (step.cleared != 0)
    out += fmt::format("; clears the nomination of {}", pod_names(c, step.cleared));
  out += fmt::format("; nominated to {}", c.node_name(d.node));
  if (step.gated)
    out += "; gated";
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

PhaseWords phase_words(JobPhase phase) {
  switch (phase) {
    case JobPhase::kClear:
      return {"clearing lower-priority nominations", "clear"};
    case JobPhase::kEvicting:
      return {"evicting", "evict"};
    case JobPhase::kLast:
      return {"evicting the last victim", "last"};
    case JobPhase::kFinish:
      return {"finishing", "finish"};
  }
  return {"?", "?"};
}

std::string job_text(const World& w, std::size_t i) {
  const Cluster& c = w.cluster();
  const Job& j = w.jobs()[i];
  std::string s = fmt::format("{} on {}: {}", c.pod_name(j.preemptor), node_name(c, j.node),
                              phase_words(j.phase).text);
  if (j.pending != 0)
    s += fmt::format(", to evict {}", pod_names(c, j.pending));
  if (j.last != kNoPod)
    s += fmt::format(", last {}", c.pod_name(j.last));
  if (j.failed)
    s += ", failed";
  if (j.last_in_memory)
    s += ", last preempted in memory";
  if (!w.is_running(i))
    s += " (waiting for a worker)";
  return s;
}

std::string describe_step(const World& before, const StepReport& step, const World& after) {
  const Cluster& c = before.cluster();
  const Action& a = step.action;
  switch (a.kind) {
    case ActionKind::kSchedule:
      if (!step.cycle)
        return describe_cycle_start(c, step);
      return describe_cycle(before, step, after);
    case ActionKind::kCycleEnd: {
      std::string out = fmt::format("{}'s cycle ends: {}", c.pod_name(a.pod),
                                    describe_cycle(before, step, after));
      if (step.requeued_in_flight) {
        out += step.consumed != 0
                   ? "; an event received while it was in flight requeues it, PreEnqueue gates "
                     "it and the event is used up"
               : has_pod(step.backed_off, a.pod)
                   ? "; an event received while it was in flight moves it to backoffQ"
                   : "; an event received while it was in flight moves it to activeQ";
      }
      return out;
    }
    case ActionKind::kBind:
      if (step.binding_lost && before.api(a.pod).node != kNoNode) {
        return fmt::format(
            "{} was bound to {} by another component meanwhile; the binding is refused{}{}",
            c.pod_name(a.pod), c.node_name(before.api(a.pod).node),
            before.assumed(a.pod) != kNoNode ? " and the cache forgets it" : "", moves(c, step));
      }
      if (step.binding_lost) {
        return fmt::format("{} was deleted meanwhile; the binding fails and the cache forgets it{}",
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
      if (before.is_preempted_in_memory(a.victim)) {
        return fmt::format(
            "{}'s job preempts {} in memory: no API call; its binding cycle, waiting at "
            "Permit or in PreBind, is told to fail",
            c.pod_name(a.pod), v);
      }
      if (step.no_op) {
        return fmt::format("{}'s job evicts {}: already {}, counted as success", c.pod_name(a.pod),
                           v, before.api(a.victim).exists ? "terminating" : "gone (NotFound)");
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
    case ActionKind::kDelete:
      if (!after.api(a.pod).exists) {
        return fmt::format("a user deletes {}; not running on a node, it is gone at once",
                           c.pod_name(a.pod));
      }
      return fmt::format("a user deletes {} (deletion started, no DisruptionTarget)",
                         c.pod_name(a.pod));
    case ActionKind::kRestart:
      return fmt::format(
          "the scheduler restarts: queue, cache, nominator, in-flight set, jobs and "
          "pending events are lost (requests already sent may still land); it relists{}",
          step.moved != 0 ? fmt::format(" and queues {}", pod_names(c, step.moved))
                          : std::string());
    case ActionKind::kCreateNode: {
      PodSet with = 0;
      for (PodId p = 0; p < c.pod_count(); ++p) {
        if (!before.api(p).exists && after.api(p).exists)
          with |= pod_bit(p);
      }
      return fmt::format(
          "{} is created{}{}", c.node_name(a.node),
          with != 0 ? fmt::format(" with {} running", pod_names(c, with)) : std::string(),
          moves(c, step));
    }
    case ActionKind::kExternalBind:
      if (c.scenario().pods[a.pod].scheduler != PodScheduler::kThis)
        return fmt::format("the second scheduler binds {} to {}", c.pod_name(a.pod),
                           c.node_name(a.node));
      return fmt::format(
          "another component binds {} to {} (nominated to {}); only the informer "
          "will tell kube-scheduler",
          c.pod_name(a.pod), c.node_name(a.node), node_name(c, before.api(a.pod).nominated));
    case ActionKind::kBackoffExpires:
      if (has_pod(after.gated(), a.pod)) {
        return fmt::format("{}'s backoff expires; PreEnqueue gates it (its preemption is running)",
                           c.pod_name(a.pod));
      }
      return fmt::format("{}'s backoff expires; it moves from backoffQ to activeQ",
                         c.pod_name(a.pod));
    case ActionKind::kLateBind:
      if (step.binding_lost) {
        return fmt::format("the binding of {} sent before the restart lands and is refused ({})",
                           c.pod_name(a.pod),
                           before.api(a.pod).exists ? "already bound" : "the pod is gone");
      }
      return fmt::format(
          "the binding of {} to {} sent before the restart lands; only the informer will tell "
          "the new scheduler",
          c.pod_name(a.pod), c.node_name(before.late_binding(a.pod)));
    case ActionKind::kLateEvict:
      if (step.no_op) {
        return fmt::format("the eviction of {} sent before the restart lands: already {}",
                           c.pod_name(a.pod),
                           before.api(a.pod).exists ? "terminating" : "gone (NotFound)");
      }
      return fmt::format("the eviction of {} sent before the restart lands ({})", c.pod_name(a.pod),
                         after.api(a.pod).exists ? "DisruptionTarget set, deletion started"
                                                 : "not yet bound, so it is gone at once");
    case ActionKind::kStatusPatch:
      if (step.no_op) {
        return fmt::format("the API dispatcher sends {}'s status patch: {}", c.pod_name(a.pod),
                           before.api(a.pod).exists ? "nominatedNodeName already that value"
                                                    : "the pod is gone (NotFound)");
      }
      return fmt::format("the API dispatcher sends {}'s status patch: nominatedNodeName {}",
                         c.pod_name(a.pod), node_name(c, after.api(a.pod).nominated));
    case ActionKind::kRecreate:
      return fmt::format("{}'s controller creates it again, a new object", c.pod_name(a.pod));
    case ActionKind::kPdbSync:
      return pdb_sync_text(before, after, a.node);
    case ActionKind::kBindingPreempted:
      if (!after.lister(a.pod).exists) {
        return fmt::format(
            "{}'s binding cycle, preempted in memory, fails; the cache forgets it, and the "
            "informer shows it deleted, so it is not re-queued{}",
            c.pod_name(a.pod), moves(c, step));
      }
      return fmt::format(
          "{}'s binding cycle, preempted in memory, fails: the cache forgets it and it is "
          "re-queued{}",
          c.pod_name(a.pod), moves(c, step));
  }
  return {};
}

StateLines state_lines(const World& w, const StateLines& memory) {
  const Cluster& c = w.cluster();
  StateLines lines;
  for (PodId p = 0; p < c.pod_count(); ++p) {
    const std::string& name = c.pod_name(p);
    lines.emplace_back(name + " api", object_text(c, w.api(p)));
    lines.emplace_back(name + " informer", object_text(c, w.lister(p)));
    lines.emplace_back(name + " nominator", node_name(c, w.nominated(p)));
    std::string binding;
    if (w.binding(p) != kNoNode)
      binding = fmt::format("bind call in flight to {}", c.node_name(w.binding(p)));
    if (w.late_binding(p) != kNoNode) {
      binding += fmt::format("{}bind call sent before the restart in flight to {}",
                             binding.empty() ? "" : ", ", c.node_name(w.late_binding(p)));
    }
    if (w.assumed(p) != kNoNode) {
      binding +=
          fmt::format("{}assumed on {}", binding.empty() ? "" : ", ", c.node_name(w.assumed(p)));
    }
    lines.emplace_back(name + " binding", or_none(binding));
  }
  std::string queue;
  for (PodId p : w.active_queue())
    queue += fmt::format("{}{}", queue.empty() ? "" : ", ", c.pod_name(p));
  lines.emplace_back("activeQ", or_none(queue, "empty"));
  if (w.mechanisms().backoff != Backoff::kNone)
    lines.emplace_back("backoffQ", or_none(pod_names(c, w.backoff_queue()), "empty"));
  lines.emplace_back("unschedulable pool", or_none(pod_names(c, w.unschedulable_pool()), "empty"));
  lines.emplace_back("gated (PreEnqueue)", or_none(pod_names(c, w.gated())));
  // Lines that only some states have come and go (print_state_changes matches lines by key),
  // so every state without them keeps the dump it had before they existed.
  if (w.in_flight() != kNoPod)
    lines.emplace_back("scheduling cycle", in_flight_text(w));
  lines.emplace_back("in-flight set", or_none(pod_names(c, w.preempting()), "empty"));
  lines.emplace_back("in-flight victims",
                     per_pod(c, [&](PodId p) { return pod_names(c, w.inflight_victims_of(p)); }));
  if (w.waiting_for_own_victims() != 0)
    lines.emplace_back("awaiting own victims", pod_names(c, w.waiting_for_own_victims()));
  if (w.mechanisms().pdb_status_lagged)
    lines.emplace_back("PDB status (published)", pdb_status_text(w));
  lines.emplace_back("last victims", per_pod(c, [&](PodId p) {
                       const PodId v = w.last_victim(p);
                       return v == kNoPod ? std::string() : c.pod_name(v);
                     }));
  std::string events;
  for (const WatchEvent& e : w.events()) {
    events += fmt::format("{}{}", events.empty() ? "" : "; ", event_text(c, e));
  }
  lines.emplace_back("pending events", or_none(events));
  std::string jobs;
  for (std::size_t i = 0; i < w.jobs().size(); ++i) {
    jobs += fmt::format("{}{}", jobs.empty() ? "" : "; ", job_text(w, i));
  }
  lines.emplace_back("jobs", or_none(jobs));
  if (w.late_evictions() != 0) {
    lines.emplace_back("evictions sent before the restart", pod_names(c, w.late_evictions()));
  }
  if (w.queued_patches() != 0) {
    lines.emplace_back("API dispatcher", per_pod(c, [&](PodId p) {
                         return has_pod(w.queued_patches(), p)
                                    ? "status patch, nominatedNodeName " +
                                          node_name(c, w.queued_patch(p))
                                    : std::string();
                       }));
  }
  lines.insert(lines.end(), memory.begin(), memory.end());
  const Faults& f = c.scenario().faults;
  if (f.eviction_failures > 0 || f.binding_failures > 0) {
    lines.emplace_back("failures left",
                       fmt::format("eviction {}, binding {}", w.eviction_failures_left(),
                                   w.binding_failures_left()));
  }
  if (f.deletions > 0 || f.restarts > 0) {
    lines.emplace_back("faults left", fmt::format("deletions {}, restarts {}", w.deletions_left(),
                                                  w.restarts_left()));
  }
  if (f.external_bindings > 0)
    lines.emplace_back("external bindings left", fmt::format("{}", w.external_bindings_left()));
  std::string later_nodes;
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if (!w.node_exists(n))
      later_nodes += fmt::format("{}{}", later_nodes.empty() ? "" : ", ", c.node_name(n));
  }
  if (!later_nodes.empty())
    lines.emplace_back("nodes not yet created", later_nodes);
  return lines;
}

std::string state_label(const World& w) {
  const Cluster& c = w.cluster();
  std::string queue;
  for (PodId p : w.active_queue())
    queue += fmt::format("{}{}", queue.empty() ? "" : " ", c.pod_name(p));
  std::string out = fmt::format("Q[{}] U[{}] G[{}]", queue.empty() ? "-" : queue,
                                or_none(pod_names(c, w.unschedulable_pool(), " "), "-"),
                                or_none(pod_names(c, w.gated(), " "), "-"));
  for (NodeId n = 0; n < c.node_count(); ++n) {
    std::string pods;
    for (PodId p = 0; p < c.pod_count(); ++p) {
      const PodObj& o = w.api(p);
      std::string word;
      if (o.exists && o.node == n) {
        word = c.pod_name(p) + (o.terminating ? "~" : "");
      } else if (w.binding(p) == n) {
        word = "+" + c.pod_name(p);
      }
      if (!word.empty())
        pods += fmt::format("{}{}", pods.empty() ? "" : " ", word);
    }
    out += fmt::format("\n{}: {}", c.node_name(n), pods.empty() ? "-" : pods);
  }
  std::string jobs;
  for (const Job& j : w.jobs()) {
    jobs += fmt::format("{}{}:{}", jobs.empty() ? "" : " ", c.pod_name(j.preemptor),
                        phase_words(j.phase).word);
  }
  out += fmt::format("\njobs[{}] events {}", jobs.empty() ? "-" : jobs, w.events().size());
  return out;
}

}  // namespace preemptcheck
