// Timeline: builds the swimlane page's input from a scenario and its actions (timeline.h).
#include "report/timeline.h"

#include <fmt/format.h>

#include <deque>
#include <map>
#include <memory>
#include <set>

#include "impl/mechanisms.h"
#include "impl/show.h"
#include "spec/property.h"

namespace preemptcheck::report {
namespace {

std::string object_line(const Cluster& c, const PodObj& o) {
  std::string s = o.node != kNoNode ? fmt::format("on {}", c.node_name(o.node)) : "pending";
  if (o.nominated != kNoNode)
    s += fmt::format(", nominated to {}", c.node_name(o.nominated));
  if (o.terminating)
    s += ", terminating";
  if (o.disruption_target)
    s += ", DisruptionTarget";
  return s;
}

std::string join(const std::vector<std::string>& words, std::string_view sep) {
  std::string out;
  for (const std::string& w : words)
    out += (out.empty() ? "" : std::string(sep)) + w;
  return out;
}

std::string labels_line(const std::map<std::string, std::string>& labels) {
  std::vector<std::string> kv;
  for (const auto& [k, v] : labels)
    kv.push_back(fmt::format("{}={}", k, v));
  return join(kv, ",");
}

std::vector<std::string> cluster_lines(const Scenario& s) {
  std::vector<std::string> out;
  for (const NodeSpec& n : s.nodes) {
    out.push_back(fmt::format("node {}: cpu {}, memory {}", n.name, format_cpu(n.cpu),
                              format_memory(n.memory)));
  }
  for (const PodSpec& p : s.pods) {
    std::string line = fmt::format("pod {}: priority {}, cpu {}, memory {}, {}", p.name, p.priority,
                                   format_cpu(p.cpu), format_memory(p.memory),
                                   p.node.empty() ? std::string("pending") : "on " + p.node);
    if (p.arrives_later)
      line += ", arrives later";
    if (p.preempt_never)
      line += ", preemptionPolicy Never";
    if (!p.labels.empty())
      line += fmt::format(", labels {}", labels_line(p.labels));
    out.push_back(std::move(line));
  }
  for (const PdbSpec& b : s.pdbs) {
    out.push_back(fmt::format("pdb {}: minAvailable {}, selector {}", b.name, b.min_available,
                              labels_line(b.selector)));
  }
  out.push_back(fmt::format("faults: eviction-failures {}, binding-failures {}, restarts {}{}",
                            s.faults.eviction_failures, s.faults.binding_failures,
                            s.faults.restarts,
                            s.faults.external_bindings != 0
                                ? fmt::format(", external-bindings {}", s.faults.external_bindings)
                                : std::string()));
  out.push_back(s.workers == 0 ? std::string("executor: one worker per job")
                               : fmt::format("executor: {} workers", s.workers));
  if (!s.expect_bound.empty() || !s.expect_not_bound.empty()) {
    out.push_back(fmt::format("expect: bound [{}], not bound [{}]", join(s.expect_bound, ", "),
                              join(s.expect_not_bound, ", ")));
  }
  return out;
}

std::string switches_line(const Scenario& s) {
  std::string out = fmt::format("profile {}", s.profile);
  if (const auto base = profile(s.profile)) {
    const std::vector<std::string> diffs = differences(s.mechanisms, *base);
    if (!diffs.empty())
      out += " " + join(diffs, " ");
  }
  return out + fmt::format("  \u2014  {}", describe(s.mechanisms));
}

// Who in the lane acts: the executor job and the binding cycle are named by their pod.
std::string actor_of(const Action& a, const Cluster& c) {
  switch (a.kind) {
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kEvictFails:
    case ActionKind::kFinish:
      return fmt::format("job {}", c.pod_name(a.pod));
    case ActionKind::kBind:
    case ActionKind::kBindFails:
    case ActionKind::kBindingPreempted:
      return fmt::format("binding {}", c.pod_name(a.pod));
    case ActionKind::kSchedule:
    case ActionKind::kCycleEnd:
    case ActionKind::kObserve:
    case ActionKind::kTerminate:
    case ActionKind::kFlush:
    case ActionKind::kCreate:
    case ActionKind::kDelete:
    case ActionKind::kRestart:
    case ActionKind::kCreateNode:
    case ActionKind::kExternalBind:
    case ActionKind::kBackoffExpires:
    case ActionKind::kLateBind:
    case ActionKind::kLateEvict:
    case ActionKind::kStatusPatch:
    case ActionKind::kRecreate:
    case ActionKind::kPdbSync:
      return {};
  }
  return {};
}

}  // namespace

Lane lane_of(ActionKind kind) {
  switch (kind) {
    case ActionKind::kSchedule:
    case ActionKind::kCycleEnd:
      return Lane::kSchedulingThread;
    // kube-scheduler binds on a goroutine of its own while the next cycle starts:
    // pkg/scheduler/schedule_one.go at 003b4460edb52bc9a9fe6cf54294e5b3e4681610, ScheduleOne
    // (L65), "bind the pod to its host asynchronously" (L122, the goroutine L123) — hence a lane
    // apart from the scheduling thread, where the assume window shows as a gap between the two.
    case ActionKind::kBind:
    case ActionKind::kBindFails:
      return Lane::kBinding;
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kEvictFails:
    case ActionKind::kFinish:
      return Lane::kExecutor;
    case ActionKind::kObserve:
      return Lane::kInformer;
    case ActionKind::kTerminate:
      return Lane::kKubelet;
    // The flush is the scheduling queue's own periodic goroutine, not the scheduling thread
    // and not a user: a lane of its own keeps "nothing happened until the flush" visible.
    case ActionKind::kFlush:
      return Lane::kQueueFlush;
    // A pod that arrives later is created by a user or a controller, outside the scheduler.
    case ActionKind::kCreate:
    case ActionKind::kDelete:
    case ActionKind::kCreateNode:
    // Another scheduler or controller, outside kube-scheduler.
    case ActionKind::kExternalBind:
    case ActionKind::kRecreate:
    // The disruption controller, in kube-controller-manager.
    case ActionKind::kPdbSync:
      return Lane::kUser;
    // A restart is the scheduler process itself: its new scheduling thread relists.
    case ActionKind::kRestart:
      return Lane::kSchedulingThread;
    // flushBackoffQCompleted runs on the queue's own periodic goroutine, as the flush does.
    case ActionKind::kBackoffExpires:
      return Lane::kQueueFlush;
    // Requests the old process sent complete in the API server, outside the new scheduler.
    case ActionKind::kLateBind:
      return Lane::kBinding;
    case ActionKind::kLateEvict:
      return Lane::kExecutor;
    // api-calls=dispatched: the API dispatcher's goroutine sends the call, as the binding
    // goroutine sends a binding; the lane of API calls already is the binding's.
    case ActionKind::kStatusPatch:
      return Lane::kBinding;
    // The victim's own binding goroutine wakes from Permit or PreBind and fails.
    case ActionKind::kBindingPreempted:
      return Lane::kBinding;
  }
  return Lane::kSchedulingThread;
}

std::string event_line(const Cluster& c, const WatchEvent& e) {
  switch (e.type) {
    case EventType::kAdded:
      return fmt::format("{} added: {}", c.pod_name(e.pod), object_line(c, e.obj));
    case EventType::kDeleted:
      return fmt::format("{} deleted", c.pod_name(e.pod));
    case EventType::kModified:
      break;
  }
  return fmt::format("{} modified: {}", c.pod_name(e.pod), object_line(c, e.obj));
}

std::string found_by_text(const Counterexample& cx) {
  const FoundBy& f = cx.found_by;
  std::string out = fmt::format("{}{}, {} step{}", f.method, f.shortest ? " (shortest)" : "",
                                cx.steps.size(), cx.steps.size() == 1 ? "" : "s");
  if (f.states > 0)
    out += fmt::format(", {} states searched", f.states);
  if (f.seed)
    out += fmt::format(", seed {}", *f.seed);
  if (!f.shrunk.empty())
    out += fmt::format(", shrunk {}", f.shrunk);
  return out;
}

TimelineSource timeline_source(const Counterexample& cx, const Scenario& run,
                               std::string reproduce) {
  TimelineSource source;
  source.property = cx.property;
  source.message = cx.message;
  source.scenario = run;
  for (const CounterexampleStep& s : cx.steps)
    source.actions.push_back(s.action);
  source.found_by = found_by_text(cx);
  source.reproduce = std::move(reproduce);
  source.loop = cx.loop;
  return source;
}

std::vector<std::string> padded_state_lines(const World& w) {
  const auto lines = preemptcheck::state_lines(w);
  std::size_t width = 0;
  for (const auto& line : lines)
    width = std::max(width, line.first.size());
  std::vector<std::string> out;
  for (const auto& [key, value] : lines)
    out.push_back(fmt::format("{:<{}}  {}", key, width, value));
  return out;
}

std::optional<Timeline> make_timeline(const TimelineSource& source, const StateLinesFn& state_lines,
                                      std::string& error) {
  return make_timeline(source, replay_schedule(source.scenario, source.actions), state_lines,
                       error);
}

std::optional<Timeline> make_timeline(const TimelineSource& source, const Schedule& schedule,
                                      const StateLinesFn& state_lines, std::string& error) {
  if (schedule.blocked) {
    error = fmt::format("step {} '{}' is not enabled", schedule.blocked->number,
                        schedule.blocked->text);
    return std::nullopt;
  }
  Timeline t;
  t.title = fmt::format("{} on {}", source.property, source.scenario.name);
  t.property = source.property;
  t.message = source.message;
  t.scenario = source.scenario.description.empty()
                   ? source.scenario.name
                   : fmt::format("{}: {}", source.scenario.name, source.scenario.description);
  t.cluster = cluster_lines(source.scenario);
  t.switches = switches_line(source.scenario);
  t.found_by = source.found_by;
  t.loop = source.loop;
  t.reproduce = source.reproduce;

  const Cluster& c = *schedule.cluster;
  t.initial_state = state_lines(schedule.initial);

  // The writes not yet delivered, oldest first, as the World queues their events; events
  // queued before step 1 have no step to point at.
  std::deque<std::optional<TimelineCause>> undelivered(schedule.initial.events().size());
  std::map<PodId, TimelineCause> terminating_write;  // the write that set each deletion
  std::set<std::string> broken;
  for (const auto& [property, message] : schedule.initial_findings.violated) {
    broken.insert(std::string(spec::property_def(property).name));
  }

  bool marked = false;
  for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
    const ScheduleStep& step = schedule.steps[i];
    const Action& a = step.action;
    const World& before = schedule.world_at(i);
    const int number = static_cast<int>(i + 1);

    TimelineStep s;
    s.number = number;
    s.lane = lane_of(a.kind);
    s.actor = actor_of(a, c);
    s.action = step.text;
    s.comment = step.comment;

    std::optional<TimelineCause> delivered;
    std::size_t kept = before.events().size();
    if (a.kind == ActionKind::kObserve && !undelivered.empty()) {
      delivered = undelivered.front();
      undelivered.pop_front();
      kept -= 1;
    }
    if (delivered)
      s.causes.push_back(*delivered);
    if (a.kind == ActionKind::kTerminate) {
      const auto it = terminating_write.find(a.pod);
      if (it != terminating_write.end())
        s.causes.push_back(it->second);
    }
    const EventQueue& events = step.after.events();
    for (std::size_t e = kept; e < events.size(); ++e) {
      const TimelineCause at{number, static_cast<int>(s.writes.size())};
      s.writes.push_back(event_line(c, events[e]));
      undelivered.push_back(at);
      if (events[e].obj.terminating)
        terminating_write.try_emplace(events[e].pod, at);
    }

    for (const auto& [property, message] : step.findings.violated) {
      const std::string name(spec::property_def(property).name);
      if (!broken.insert(name).second)
        continue;
      s.violations.push_back(fmt::format("{}: {}", name, message));
      if (name == source.property && !marked) {
        s.breaks = true;
        marked = true;
      }
    }
    s.state = state_lines(step.after);
    t.steps.push_back(std::move(s));
  }
  return t;
}

}  // namespace preemptcheck::report
