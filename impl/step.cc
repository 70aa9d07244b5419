// Step: the World's initial state, its enabled actions in exploration order, why an action
// is not enabled, and apply — one short arm per action, each calling the component that
// takes the step: the scheduling cycle (cycle.cc), the API server and the kubelet
// (api_server.cc), the informer (informer.cc), the scheduling queue (queue.cc), the
// nominator (nominator.cc), the executor (executor.cc) and a scheduler restart (restart.cc). The
// enabling rules and their explanation sit side by side here, so they cannot drift apart.
#include "impl/world.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <string>

#include "impl/show.h"

namespace preemptcheck {
namespace {

// The name of the pod or node an arrival is.
std::string arrival_name(const Cluster& c, const Arrival& a) {
  return a.kind == Arrival::Kind::kNode ? c.node_name(a.id) : c.pod_name(a.id);
}

}  // namespace

World::World(const Cluster& cluster) : cluster_(&cluster) {
  const Cluster& c = *cluster_;
  const size_t n = static_cast<size_t>(c.pod_count());
  api_.assign(n, PodObj{});
  binding_.assign(n, kNoNode);
  late_binding_.assign(n, kNoNode);
  assumed_.assign(n, kNoNode);
  nominated_.assign(n, kNoNode);
  patch_node_.assign(n, kNoNode);
  last_victim_.assign(n, kNoPod);
  inflight_by_.assign(n, 0);
  pod_clock_.assign(n, 0);
  eviction_failures_left_ = static_cast<std::uint8_t>(c.scenario().faults.eviction_failures);
  binding_failures_left_ = static_cast<std::uint8_t>(c.scenario().faults.binding_failures);
  deletions_left_ = static_cast<std::uint8_t>(c.scenario().faults.deletions);
  restarts_left_ = static_cast<std::uint8_t>(c.scenario().faults.restarts);
  external_bindings_left_ = static_cast<std::uint8_t>(c.scenario().faults.external_bindings);
  for (NodeId m = 0; m < c.node_count(); ++m) {
    if (c.scenario().nodes[m].arrives_later)
      uncreated_nodes_ |= static_cast<std::uint8_t>(1u << m);
  }
  for (PodId p = 0; p < n; ++p) {
    const PodSpec& spec = c.scenario().pods[p];
    if (spec.arrives_later) {
      uncreated_ |= pod_bit(p);
      continue;
    }
    // A running pod on a node that arrives later appears with its node (create_node).
    if (!spec.node.empty() && !node_exists(*c.find_node(spec.node)))
      continue;
    api_[p].exists = true;
    if (!spec.node.empty()) {
      api_[p].node = *c.find_node(spec.node);
      api_[p].start = next_start_++;
    }
  }
  lister_ = api_;  // the informer has synced before the first cycle
  // pdb-status=lagged: the disruption controller has published every PDB's status.
  if (mechanisms().pdb_status_lagged) {
    for (std::size_t b = 0; b < c.scenario().pdbs.size(); ++b)
      pdb_counted_ |= healthy_members(b);
  }
  StepReport ignored;
  stamp_.assign(n, kNoStamp);
  for (PodId p = 0; p < n; ++p) {
    if (api_[p].exists && api_[p].node == kNoNode) {
      restamp(p);  // added in list order
      add_to_queue(p, ignored);
    }
  }
  normalize_stamps();
}

void World::enabled_actions(std::vector<Action>& out) const {
  const size_t n = api_.size();
  // One scheduling thread: with cycle=split a new cycle starts only after the previous one
  // ended.
  if (!active_.empty() && in_flight_ == kNoPod) {
    out.push_back({ActionKind::kSchedule, active_.front(), kNoPod});
  }
  // backoff=pop-when-idle: with activeQ empty, Pop takes a pod from backoffQ before its
  // backoff has expired. Which one comes first depends on times the model abstracts away,
  // so any of them may.
  // Pop (active_queue.go@00fdf757a8e89fb0c7ccad10419ef33a1fa1b1ab L326-347) takes the head
  // of podBackoffQ (earliest backoff window, then priority), never podErrorBackoffQ.
  if (active_.empty() && in_flight_ == kNoPod && mechanisms().backoff == Backoff::kPopWhenIdle) {
    for (PodId p : pods_in(backoff_ & ~error_backoff_))
      out.push_back({ActionKind::kSchedule, p, kNoPod});
  }
  for (PodId p = 0; p < n; ++p) {
    if (binding_[p] == kNoNode)
      continue;
    // binding-victims=in-memory: a binding cycle an executor job preempted in memory only
    // wakes and fails; it sends no Bind.
    if (has_pod(preempted_in_memory_, p)) {
      out.push_back({ActionKind::kBindingPreempted, p, kNoPod});
      continue;
    }
    out.push_back({ActionKind::kBind, p, kNoPod});
    if (binding_failures_left_ > 0 && api_[p].exists) {
      out.push_back({ActionKind::kBindFails, p, kNoPod});
    }
  }
  // api-calls=dispatched: the dispatcher runs the calls of different pods in parallel
  // goroutines, so any queued patch may be sent next.
  for (PodId p : pods_in(patches_))
    out.push_back({ActionKind::kStatusPatch, p, kNoPod});
  for (size_t i = 0; i < jobs_.size() && is_running(i); ++i) {
    const Job& job = jobs_[i];
    // A preemptor with two jobs (possible with --inflight=off) steps the older one first
    // when both could take the same step; skip the duplicate.
    bool shadowed = false;
    for (size_t j = 0; j < i; ++j) {
      if (jobs_[j].preemptor == job.preemptor && jobs_[j].phase == job.phase)
        shadowed = true;
    }
    if (shadowed)
      continue;
    switch (job.phase) {
      case JobPhase::kClear:
        out.push_back({ActionKind::kClearNominations, job.preemptor, kNoPod});
        break;
      case JobPhase::kEvicting:
        for (PodId v : pods_in(job.pending)) {
          out.push_back({ActionKind::kEvict, job.preemptor, v});
          // binding-victims=in-memory: a victim rejected in memory makes no call to fail.
          if (eviction_failures_left_ > 0 && !is_preempted_in_memory(v)) {
            out.push_back({ActionKind::kEvictFails, job.preemptor, v});
          }
        }
        break;
      case JobPhase::kLast:
        out.push_back({ActionKind::kEvict, job.preemptor, job.last});
        if (eviction_failures_left_ > 0 && !is_preempted_in_memory(job.last)) {
          out.push_back({ActionKind::kEvictFails, job.preemptor, job.last});
        }
        break;
      case JobPhase::kFinish:
        out.push_back({ActionKind::kFinish, job.preemptor, kNoPod});
        break;
    }
  }
  enabled_observes(out);  // watch_order.cc
  for (PodId p = 0; p < n; ++p) {
    if (api_[p].exists && api_[p].terminating)
      out.push_back({ActionKind::kTerminate, p, kNoPod});
  }
  // pdb-status=lagged: the disruption controller recounts a PDB whose published count of
  // healthy pods differs from the API server's (pdb_status.cc); with nothing to change it
  // writes nothing, so the step is not enabled.
  for (std::size_t b = 0; b < cluster_->scenario().pdbs.size() && b < kNoNode; ++b) {
    if (is_pdb_stale(b))
      out.push_back({ActionKind::kPdbSync, kNoPod, kNoPod, static_cast<NodeId>(b)});
  }
  // arrival-order: a later arrival waits for the one listed before it.
  for (PodId p : pods_in(uncreated_)) {
    if (has_arrived(cluster_->pod_arrives_after(p)))
      out.push_back({ActionKind::kCreate, p, kNoPod});
  }
  for (NodeId m = 0; m < cluster_->node_count(); ++m) {
    if (!node_exists(m) && has_arrived(cluster_->node_arrives_after(m)))
      out.push_back({ActionKind::kCreateNode, kNoPod, kNoPod, m});
  }
  if (deletions_left_ > 0) {
    for (PodId p = 0; p < n; ++p) {
      if (api_[p].exists && !api_[p].terminating)
        out.push_back({ActionKind::kDelete, p, kNoPod});
    }
  }
  if (restarts_left_ > 0)
    out.push_back({ActionKind::kRestart, kNoPod, kNoPod});
  // Only a scenario with restarts has requests sent before one.
  if (cluster_->scenario().faults.restarts > 0) {
    for (PodId p = 0; p < n; ++p) {
      if (late_binding_[p] != kNoNode)
        out.push_back({ActionKind::kLateBind, p, kNoPod});
    }
    for (PodId v : pods_in(late_evictions_))
      out.push_back({ActionKind::kLateEvict, v, kNoPod});
  }
  // A backoff may expire at any moment: the model has no clock.
  for (PodId p : pods_in(backoff_))
    out.push_back({ActionKind::kBackoffExpires, p, kNoPod});
  // Pods of a second scheduler and pods a controller re-creates (#130429): their steps are
  // not bounded, so a victim that comes back closes a cycle in the state graph.
  for (PodId p = 0; p < n; ++p) {
    if (can_recreate(p))
      out.push_back({ActionKind::kRecreate, p, kNoPod});
    for (NodeId m = 0; m < cluster_->node_count() && is_second_schedulers(p); ++m) {
      if (can_bind_externally(p, m))
        out.push_back({ActionKind::kExternalBind, p, kNoPod, m});
    }
  }
  if (external_bindings_left_ > 0) {
    for (PodId p = 0; p < n; ++p) {
      for (NodeId m = 0; m < cluster_->node_count() && !is_second_schedulers(p); ++m) {
        if (can_bind_externally(p, m))
          out.push_back({ActionKind::kExternalBind, p, kNoPod, m});
      }
    }
  }
  // cycle=split: the end of the cycle in flight comes after every step that could happen
  // while it runs, so that among schedules of equal length the breadth-first search reports
  // first the one in which the other components act while a pod is in flight.
  if (in_flight_ != kNoPod)
    out.push_back({ActionKind::kCycleEnd, in_flight_, kNoPod});
  // The flush moves pods that waited five minutes. The model has no clock; it assumes only
  // that the informer delivers faster than that, so the flush waits for an empty event
  // queue. Executor jobs and bindings may still be in flight (API calls can be throttled
  // for minutes, #134249).
  if (pool_ != 0 && events_.empty())
    out.push_back({ActionKind::kFlush, kNoPod, kNoPod});
}

bool World::has_arrived(const Arrival& a) const {
  switch (a.kind) {
    case Arrival::Kind::kNone:
      return true;
    case Arrival::Kind::kPod:
      return !has_pod(uncreated_, a.id);
    case Arrival::Kind::kNode:
      return node_exists(a.id);
  }
  return true;
}

bool World::can_bind_externally(PodId p, NodeId n) const {
  // #134859: another scheduler or controller binds a pod that kube-scheduler has nominated
  // (its nominatedNodeName is set in the API) to a different node. Only where cheap: not
  // while kube-scheduler's own binding of the pod is in flight (two binding calls racing)
  // nor while its split cycle is in flight, and only onto an existing node where the pod
  // fits beside what the API server has there, so that the other component is not itself
  // the one that overcommits.
  const PodObj& o = api_[p];
  if (is_second_schedulers(p))
    return second_scheduler_fits(p, n);
  if (!o.exists || o.terminating || o.node != kNoNode || o.nominated == kNoNode ||
      o.nominated == n || binding_[p] != kNoNode || in_flight_ == p || !node_exists(n)) {
    return false;
  }
  Resources used = sum_requests(ground_pods(n));
  used += cluster_->request(p);
  return used.fits_in(cluster_->capacity(n));
}

bool World::is_enabled(const Action& a) const {
  std::vector<Action> all;
  enabled_actions(all);
  return std::find(all.begin(), all.end(), a) != all.end();
}

std::string World::why_not_enabled(const Action& a) const {
  const Cluster& c = *cluster_;
  const std::string p = a.pod == kNoPod ? std::string() : c.pod_name(a.pod);
  auto job_state = [&]() -> std::string {
    std::string jobs;
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      if (jobs_[i].preemptor == a.pod) {
        jobs += fmt::format("{}{}", jobs.empty() ? "" : "; ", job_text(*this, i));
      }
    }
    return jobs.empty() ? fmt::format("{} has no executor job", p)
                        : fmt::format("its job: {}", jobs);
  };
  switch (a.kind) {
    case ActionKind::kSchedule: {
      if (in_flight_ != kNoPod) {
        return fmt::format("the cycle of {} has not ended (cycle-end {} first)",
                           c.pod_name(in_flight_), c.pod_name(in_flight_));
      }
      std::string s = active_.empty()
                          ? std::string("activeQ is empty")
                          : fmt::format("the head of activeQ is {}", c.pod_name(active_.front()));
      if (a.pod != kNoPod && has_pod(backoff_, a.pod)) {
        s += mechanisms().backoff == Backoff::kPopWhenIdle
                 ? fmt::format("; {} is in backoffQ, popped only when activeQ is empty", p)
                 : fmt::format("; {} is in backoffQ until its backoff expires", p);
      } else if (has_pod(gated_, a.pod)) {
        s += fmt::format("; {} is held at the PreEnqueue gate (its preemption is running)", p);
      } else if (has_pod(pool_, a.pod)) {
        s += fmt::format("; {} waits in the unschedulable pool", p);
      }
      return s;
    }
    case ActionKind::kBind:
      if (a.pod != kNoPod && has_pod(preempted_in_memory_, a.pod))
        return fmt::format("{} was preempted in memory: its binding cycle can only fail", p);
      return fmt::format("no binding of {} is in flight", p);
    case ActionKind::kBindFails:
      if (binding_[a.pod] == kNoNode)
        return fmt::format("no binding of {} is in flight", p);
      if (has_pod(preempted_in_memory_, a.pod))
        return fmt::format("{} was preempted in memory: its binding cycle can only fail", p);
      return "no binding failure is left in the fault budget";
    case ActionKind::kBindingPreempted:
      if (!mechanisms().binding_victims_in_memory) {
        return "victims are deleted through the API (binding-preempted exists only with "
               "--binding-victims=in-memory)";
      }
      return fmt::format("no executor job has preempted {} in memory", p);
    case ActionKind::kEvictFails:
      if (eviction_failures_left_ == 0)
        return "no eviction failure is left in the fault budget";
      if (a.victim != kNoPod && is_preempted_in_memory(a.victim)) {
        return fmt::format("{} would be preempted in memory, with no API call that could fail",
                           c.pod_name(a.victim));
      }
      return job_state();
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kFinish:
      return job_state();
    case ActionKind::kObserve:
      return why_observe_not_enabled(a);  // watch_order.cc
    case ActionKind::kTerminate:
      return fmt::format("{} is not terminating", p);
    case ActionKind::kFlush:
      if (pool_ == 0)
        return "the unschedulable pool is empty";
      return "watch events are still pending (the flush waits for the informer)";
    case ActionKind::kCreate:
      if (a.pod != kNoPod && has_pod(uncreated_, a.pod)) {
        return fmt::format("{} arrives after {} (arrival-order), which is not created yet", p,
                           arrival_name(c, c.pod_arrives_after(a.pod)));
      }
      return fmt::format("{} was created already, or does not arrive later", p);
    case ActionKind::kDelete:
      if (deletions_left_ == 0)
        return "no deletion is left in the fault budget";
      return fmt::format("{} does not exist or is already terminating", p);
    case ActionKind::kRestart:
      return "no restart is left in the fault budget";
    case ActionKind::kCycleEnd:
      if (mechanisms().cycle == Cycle::kAtomic) {
        return "the scheduling cycle is atomic (cycle-end exists only with --cycle=split)";
      }
      return in_flight_ == kNoPod
                 ? std::string("no scheduling cycle is in flight")
                 : fmt::format("the cycle in flight is {}'s", c.pod_name(in_flight_));
    case ActionKind::kCreateNode:
      if (a.node != kNoNode && !node_exists(a.node)) {
        return fmt::format("{} arrives after {} (arrival-order), which is not created yet",
                           c.node_name(a.node), arrival_name(c, c.node_arrives_after(a.node)));
      }
      return fmt::format("{} was created already, or does not arrive later",
                         a.node == kNoNode ? std::string("the node") : c.node_name(a.node));
    case ActionKind::kBackoffExpires:
      return fmt::format("{} is not in backoffQ", p);
    case ActionKind::kLateBind:
      return fmt::format("no binding of {} sent before a restart is in flight", p);
    case ActionKind::kLateEvict:
      return fmt::format("no eviction of {} sent before a restart is in flight", p);
    case ActionKind::kStatusPatch:
      if (!mechanisms().dispatched_calls)
        return "status patches are sent by their callers (status-patch exists only with "
               "--api-calls=dispatched)";
      return fmt::format("no status patch of {} is queued in the API dispatcher", p);
    case ActionKind::kRecreate:
      return fmt::format("{} is not a deleted pod its controller re-creates (`recreated: true`)",
                         p);
    case ActionKind::kPdbSync:
      if (!mechanisms().pdb_status_lagged) {
        return "the scheduler computes each PDB's budget at its decision (pdb-sync exists only "
               "with --pdb-status=lagged)";
      }
      return fmt::format(
          "the published status of {} already counts the healthy pods the API "
          "server has",
          a.node < c.scenario().pdbs.size() ? c.scenario().pdbs[a.node].name
                                            : std::string("the PDB"));
    case ActionKind::kExternalBind:
      if (a.pod != kNoPod && is_second_schedulers(a.pod)) {
        return fmt::format(
            "{} is not pending, or does not fit on {} beside the pods the API "
            "server has there{}",
            p, a.node == kNoNode ? std::string("the node") : c.node_name(a.node),
            c.scenario().pods[a.pod].scheduler == PodScheduler::kSecondAware
                ? " and the nominations of priority >= its own"
                : "");
      }
      if (external_bindings_left_ == 0)
        return "no external binding is left in the fault budget";
      return fmt::format(
          "{} is not a pending pod nominated to another node, free of kube-scheduler's own "
          "binding and cycle, that fits on {} beside the pods the API server has there",
          p, a.node == kNoNode ? std::string("the node") : c.node_name(a.node));
  }
  return {};
}

StepReport World::apply(const Action& a) {
  StepReport report;
  report.action = a;
  // The events this step writes are events_[from…] once it is taken: `observe` delivers one
  // first, a restart's relist drops every one.
  std::size_t from = events_.size();
  if (a.kind == ActionKind::kObserve)
    from -= 1;
  else if (a.kind == ActionKind::kRestart)
    from = 0;
  switch (a.kind) {
    case ActionKind::kSchedule:
      assert(((!active_.empty() && active_.front() == a.pod) ||
              (active_.empty() && has_pod(backoff_, a.pod))) &&
             "schedule takes the head of activeQ, or a pod of backoffQ when activeQ is empty");
      if (mechanisms().cycle == Cycle::kSplit) {
        start_cycle(a.pod, report);  // cycle.cc
      } else {
        run_cycle(a.pod, report);  // cycle.cc
      }
      break;
    case ActionKind::kCycleEnd:
      assert(in_flight_ == a.pod && "cycle-end ends the cycle in flight");
      {
        const CycleDecision d = in_flight_decision_;  // end_cycle resets the in-flight state
        end_cycle(a.pod, d, report);                  // cycle.cc
      }
      break;
    case ActionKind::kBind:
      land_binding(a.pod, report);  // api_server.cc
      break;
    case ActionKind::kBindFails:
      fail_binding(a.pod, report);  // cycle.cc
      break;
    case ActionKind::kClearNominations:
      clear_nominations_step(a, report);  // executor.cc
      break;
    case ActionKind::kEvict:
      evict_step(a, report);  // executor.cc
      break;
    case ActionKind::kEvictFails:
      evict_fails_step(a, report);  // executor.cc
      break;
    case ActionKind::kFinish:
      finish_step(a, report);  // executor.cc
      break;
    case ActionKind::kObserve:
      observe(report);  // informer.cc
      break;
    case ActionKind::kTerminate:
      terminate(a.pod, report);  // api_server.cc
      break;
    case ActionKind::kFlush:
      flush(report);  // queue.cc
      break;
    case ActionKind::kCreate:
      create(a.pod, report);  // api_server.cc
      break;
    case ActionKind::kDelete:
      delete_pod(a.pod, report);  // api_server.cc
      break;
    case ActionKind::kRestart:
      restart(report);  // restart.cc
      break;
    case ActionKind::kCreateNode:
      create_node(a.node, report);  // api_server.cc
      break;
    case ActionKind::kExternalBind:
      external_bind(a.pod, a.node, report);  // api_server.cc
      break;
    case ActionKind::kRecreate:
      recreate(a.pod, report);  // api_server.cc
      break;
    case ActionKind::kBackoffExpires:
      expire_backoff(a.pod, report);  // queue.cc
      break;
    case ActionKind::kLateBind:
      late_bind(a.pod, report);  // restart.cc
      break;
    case ActionKind::kLateEvict:
      late_evict(a.pod, report);  // restart.cc
      break;
    case ActionKind::kStatusPatch:
      run_patch(a.pod, report);  // dispatcher.cc
      break;
    case ActionKind::kPdbSync:
      sync_pdb(a.node, report);  // pdb_status.cc
      break;
    case ActionKind::kBindingPreempted:
      fail_preempted_binding(a.pod, report);  // cycle.cc
      break;
  }
  merge_duplicate_jobs();  // executor.cc
  normalize_stamps();
  if (cluster_->is_causal()) {
    record_footprint(report);  // watch_order.cc
    order_new_events(report, from);
  }
  return report;
}

}  // namespace preemptcheck
