// The `replay` command: load a counterexample, run its steps, and narrate them.
#include "cli/replay_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/json.h"
#include "cli/counterexample.h"
#include "impl/describe.h"
#include "spec/monitor.h"

namespace preemptcheck::cli {
namespace {

using Lines = std::vector<std::pair<std::string, std::string>>;

std::string or_none(std::string s, std::string_view none = "none") {
  return s.empty() ? std::string(none) : s;
}

std::string node_name(const Cluster& c, NodeId n) {
  return n == kNoNode ? std::string("none") : c.node_name(n);
}

std::string object_text(const Cluster& c, const PodObj& o) {
  if (!o.exists) return "absent";
  std::string s = o.node != kNoNode ? fmt::format("on {}", c.node_name(o.node)) : "pending";
  if (o.nominated != kNoNode) s += fmt::format(", nominated to {}", c.node_name(o.nominated));
  if (o.terminating) s += ", terminating";
  if (o.disruption_target) s += ", DisruptionTarget";
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

std::string_view phase_text(JobPhase phase) {
  switch (phase) {
    case JobPhase::kClear:
      return "clearing lower-priority nominations";
    case JobPhase::kEvicting:
      return "evicting";
    case JobPhase::kLast:
      return "evicting the last victim";
    case JobPhase::kFinish:
      return "finishing";
  }
  return "?";
}

std::string job_text(const World& w, std::size_t i) {
  const Cluster& c = w.cluster();
  const Job& j = w.jobs()[i];
  std::string s = fmt::format("{} on {}: {}", c.pod_name(j.preemptor), node_name(c, j.node),
                              phase_text(j.phase));
  if (j.pending != 0) s += fmt::format(", to evict {}", pod_names(c, j.pending));
  if (j.last != kNoPod) s += fmt::format(", last {}", c.pod_name(j.last));
  if (j.failed) s += ", failed";
  if (!w.is_running(i)) s += " (waiting for a worker)";
  return s;
}

// "p-high: v1, v2; p-mid: v3" over the pods whose set is not empty.
template <class Of>
std::string per_pod(const Cluster& c, Of of) {
  std::string out;
  for (PodId p = 0; p < c.pod_count(); ++p) {
    const std::string value = of(p);
    if (value.empty()) continue;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", c.pod_name(p), value);
  }
  return or_none(out);
}

// Why action `a` is not enabled in `w`, as far as a quick look can tell.
std::string why_not_enabled(const World& w, const Action& a) {
  const Cluster& c = w.cluster();
  const std::string p = a.pod == kNoPod ? std::string() : c.pod_name(a.pod);
  auto job_state = [&]() -> std::string {
    std::string jobs;
    for (std::size_t i = 0; i < w.jobs().size(); ++i) {
      if (w.jobs()[i].preemptor == a.pod) {
        jobs += fmt::format("{}{}", jobs.empty() ? "" : "; ", job_text(w, i));
      }
    }
    return jobs.empty() ? fmt::format("{} has no executor job", p) : fmt::format("its job: {}", jobs);
  };
  switch (a.kind) {
    case ActionKind::kSchedule: {
      const auto& q = w.active_queue();
      std::string s = q.empty() ? std::string("activeQ is empty")
                                : fmt::format("the head of activeQ is {}", c.pod_name(q.front()));
      if (has_pod(w.gated(), a.pod)) {
        s += fmt::format("; {} is held at the PreEnqueue gate (its preemption is running)", p);
      } else if (has_pod(w.unschedulable_pool(), a.pod)) {
        s += fmt::format("; {} waits in the unschedulable pool", p);
      }
      return s;
    }
    case ActionKind::kBind:
      return fmt::format("no binding of {} is in flight", p);
    case ActionKind::kBindFails:
      if (w.binding(a.pod) == kNoNode) return fmt::format("no binding of {} is in flight", p);
      return "no binding failure is left in the fault budget";
    case ActionKind::kEvictFails:
      if (w.eviction_failures_left() == 0) return "no eviction failure is left in the fault budget";
      return job_state();
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kFinish:
      return job_state();
    case ActionKind::kObserve:
      return "no watch event is pending";
    case ActionKind::kTerminate:
      return fmt::format("{} is not terminating", p);
    case ActionKind::kFlush:
      if (w.unschedulable_pool() == 0) return "the unschedulable pool is empty";
      return "watch events are still pending (the flush waits for the informer)";
    case ActionKind::kCreate:
      return fmt::format("{} was created already, or does not arrive later", p);
  }
  return {};
}

std::string enabled_here(const World& w) {
  std::vector<Action> actions;
  w.enabled_actions(actions);
  std::string out;
  for (const Action& a : actions) {
    out += fmt::format("{}{}", out.empty() ? "" : ", ", format_action(a, w.cluster()));
  }
  return or_none(out, "nothing");
}

// Whether every step up to and including `last` (0-based) is enabled under `scenario`.
bool runs_through(const Scenario& scenario, const Counterexample& cx, std::size_t last) {
  World w(std::make_shared<const Cluster>(scenario));
  for (std::size_t i = 0; i <= last; ++i) {
    if (!w.is_enabled(cx.steps[i].action)) return false;
    w.apply(cx.steps[i].action);
  }
  return true;
}

// Which of the overridden switches, set back to the file's value alone, make steps 1..k run.
std::string blocking_mechanisms(const Scenario& run, const Counterexample& cx, std::size_t k) {
  std::vector<std::string> blockers;
  for (std::string_view name : mechanism_names()) {
    const std::string recorded = mechanism_value(cx.scenario.mechanisms, name);
    const std::string now = mechanism_value(run.mechanisms, name);
    if (recorded == now) continue;
    Scenario probe = run;
    set_mechanism(probe.mechanisms, name, recorded);
    if (runs_through(probe, cx, k)) {
      blockers.push_back(fmt::format("{}={} (the file's {}={} enables it)", name, now, name,
                                     recorded));
    }
  }
  if (blockers.empty()) {
    std::vector<std::string> diffs = differences(cx.scenario.mechanisms, run.mechanisms);
    std::string all;
    for (const std::string& d : diffs) all += fmt::format("{}{}", all.empty() ? "" : " ", d);
    return fmt::format("no single switch blocks it; the file's switches together enable it ({})",
                       all);
  }
  std::string out = "blocked by ";
  for (std::size_t i = 0; i < blockers.size(); ++i) {
    out += fmt::format("{}{}", i == 0 ? "" : ", and by ", blockers[i]);
  }
  return out;
}

void print_lines(const Lines& lines, std::size_t width, std::ostream& out) {
  for (const auto& [key, value] : lines) fmt::print(out, "    {:<{}}  {}\n", key, width, value);
}

void print_changes(const Lines& before, const Lines& after, std::size_t width,
                   std::ostream& out) {
  bool any = false;
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (i < before.size() && before[i] == after[i]) continue;
    const std::string old = i < before.size() ? before[i].second : std::string("-");
    fmt::print(out, "    {:<{}}  {} -> {}\n", after[i].first, width, old, after[i].second);
    any = true;
  }
  if (!any) fmt::print(out, "    (no visible change)\n");
}

// "at step 3", or "in the initial state" for step 0.
std::string at_step(std::size_t step) {
  return step == 0 ? std::string("in the initial state") : fmt::format("at step {}", step);
}

struct Break {
  std::size_t step;  // 0: the initial state
  std::string message;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> state_lines(const World& w) {
  const Cluster& c = w.cluster();
  Lines lines;
  for (PodId p = 0; p < c.pod_count(); ++p) {
    const std::string& name = c.pod_name(p);
    lines.emplace_back(name + " api", object_text(c, w.api(p)));
    lines.emplace_back(name + " informer", object_text(c, w.lister(p)));
    lines.emplace_back(name + " nominator", node_name(c, w.nominated(p)));
    std::string binding;
    if (w.binding(p) != kNoNode) binding = fmt::format("bind call in flight to {}", c.node_name(w.binding(p)));
    if (w.assumed(p) != kNoNode) {
      binding += fmt::format("{}assumed on {}", binding.empty() ? "" : ", ", c.node_name(w.assumed(p)));
    }
    lines.emplace_back(name + " binding", or_none(binding));
  }
  std::string queue;
  for (PodId p : w.active_queue()) queue += fmt::format("{}{}", queue.empty() ? "" : ", ", c.pod_name(p));
  lines.emplace_back("activeQ", or_none(queue, "empty"));
  lines.emplace_back("unschedulable pool", or_none(pod_names(c, w.unschedulable_pool()), "empty"));
  lines.emplace_back("gated (PreEnqueue)", or_none(pod_names(c, w.gated())));
  lines.emplace_back("in-flight set", or_none(pod_names(c, w.preempting()), "empty"));
  lines.emplace_back("in-flight victims",
                     per_pod(c, [&](PodId p) { return pod_names(c, w.inflight_victims_of(p)); }));
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
  lines.emplace_back("chosen victims",
                     per_pod(c, [&](PodId p) { return pod_names(c, w.chosen_by(p)); }));
  lines.emplace_back("standing nominations", per_pod(c, [&](PodId p) {
                       return w.claim(p) == kNoNode ? std::string() : c.node_name(w.claim(p));
                     }));
  const Faults& f = c.scenario().faults;
  if (f.eviction_failures > 0 || f.binding_failures > 0) {
    lines.emplace_back("failures left", fmt::format("eviction {}, binding {}",
                                                    w.eviction_failures_left(),
                                                    w.binding_failures_left()));
  }
  return lines;
}

int run_replay(const ReplayOptions& o, std::ostream& shown, std::ostream& err) {
  std::ostringstream text;  // under --json the text is not printed, the document is
  std::ostream& out = o.json ? text : shown;
  Json doc = json_document("replay");
  Counterexample cx;
  try {
    cx = load_counterexample_file(o.file);
  } catch (const ScenarioError& e) {
    fmt::print(err, "preemptcheck replay: {}\n", e.what());
    return kExitBadInput;
  }
  Scenario run = cx.scenario;
  std::vector<std::string> notes;
  if (auto error = apply_choice(run, o.mechanisms, &notes)) {
    fmt::print(err, "preemptcheck replay: {}\n", *error);
    return kExitBadInput;
  }
  print_notes(notes, "replay", err);
  const bool overridden = run.mechanisms != cx.scenario.mechanisms;
  doc["counterexample"] = o.file;
  doc["recorded"] = {{"property", cx.property}, {"message", cx.message}};
  doc["scenario"] = run.name;
  doc["profile"] = run.profile;
  doc["mechanisms"] = describe(run.mechanisms);
  doc["overridden"] = overridden;
  Json json_steps = Json::array();

  fmt::print(out, "counterexample {}\n", o.file);
  fmt::print(out, "recorded       {}: {}\n", cx.property, cx.message);
  for (const auto& m : cx.also) fmt::print(out, "               also {}: {}\n", m.name, m.message);
  std::string found = fmt::format("{}{}, {} step{}", cx.found_by.method,
                                  cx.found_by.shortest ? " (shortest)" : "", cx.steps.size(),
                                  cx.steps.size() == 1 ? "" : "s");
  if (cx.found_by.states > 0) found += fmt::format(", {} states searched", cx.found_by.states);
  if (cx.found_by.seed) found += fmt::format(", seed {}", *cx.found_by.seed);
  if (!cx.found_by.shrunk.empty()) found += fmt::format(", shrunk {}", cx.found_by.shrunk);
  fmt::print(out, "found          {}\n", found);
  fmt::print(out, "scenario       {}\n", run.name);
  fmt::print(out, "mechanisms     {} (profile {})\n", describe(run.mechanisms), run.profile);
  if (overridden) {
    std::string diffs;
    for (const std::string& d : differences(run.mechanisms, cx.scenario.mechanisms)) {
      diffs += fmt::format("{}{}", diffs.empty() ? "" : " ", d);
    }
    fmt::print(out,
               "overridden     the file records {} (profile {}); changed: {}; fingerprints are "
               "not compared\n",
               describe(cx.scenario.mechanisms), cx.scenario.profile, diffs);
  } else {
    fmt::print(out, "               as recorded; every step's fingerprint is compared\n");
  }

  World w(std::make_shared<const Cluster>(run));
  Lines lines = state_lines(w);
  std::size_t width = 0;
  for (const auto& line : lines) width = std::max(width, line.first.size());

  std::map<std::string, Break> breaks;  // each property's first break
  auto report = [&](const spec::Verdict& v, std::size_t step) {
    for (const auto& [property, message] : v.violated) {
      const std::string name(spec::property_def(property).name);
      fmt::print(out, "  VIOLATED {}: {}\n", name, message);
      breaks.try_emplace(name, Break{step, message});
      if (step > 0) json_steps.back()["violated"].push_back({{"property", name}, {"message", message}});
    }
  };

  fmt::print(out, "\ninitial state\n");
  print_lines(lines, width, out);
  spec::Verdict initial;
  spec::check_state(w, initial);
  report(initial, 0);

  const std::size_t n = cx.steps.size();
  for (std::size_t i = 0; i < n; ++i) {
    const CounterexampleStep& s = cx.steps[i];
    const std::size_t k = i + 1;
    const std::string where = fmt::format("{}:{}:{}", o.file, s.line, s.column);
    if (!w.is_enabled(s.action)) {
      fmt::print(out, "\nstep {}/{}  {}  NOT ENABLED\n", k, n, s.text);
      std::string blocker;
      if (overridden) blocker = "\n  " + blocking_mechanisms(run, cx, i);
      const std::string stale =
          overridden ? std::string()
                     : "\n  the file does not match the model (it was edited, or written by an older "
                       "model): regenerate it with check --out";
      fmt::print(err,
                 "preemptcheck replay: {}: step {} '{}' is not enabled\n  why: {}{}\n  enabled "
                 "here: {}{}\n",
                 where, k, s.text, why_not_enabled(w, s.action), blocker, enabled_here(w), stale);
      fmt::print(out, "result         step {} is not enabled{} (exit 2)\n", k,
                 overridden ? " under these mechanisms: the schedule is impossible" : "");
      return kExitBadInput;
    }
    const World before = w;
    const StepReport step = w.apply(s.action);
    const std::string comment = describe_step(before, step, w);
    fmt::print(out, "\nstep {}/{}  {}  # {}\n", k, n, s.text, comment);
    json_steps.push_back({{"step", k},
                          {"action", s.text},
                          {"comment", comment},
                          {"fingerprint", format_fingerprint(w.fingerprint())},
                          {"violated", Json::array()}});
    Lines next = state_lines(w);
    if (o.full) {
      print_lines(next, width, out);
    } else {
      print_changes(lines, next, width, out);
    }
    lines = std::move(next);
    if (!overridden && s.fingerprint && *s.fingerprint != w.fingerprint()) {
      fmt::print(err,
                 "preemptcheck replay: {}: diverged at step {} ('{}'): the state after it has "
                 "fingerprint {}, the file records {}; the model or the file changed since it "
                 "was written: regenerate it with check --out\n",
                 where, k, s.text, format_fingerprint(w.fingerprint()),
                 format_fingerprint(*s.fingerprint));
      fmt::print(out, "result         diverged at step {} (exit 2)\n", k);
      return kExitBadInput;
    }
    spec::Verdict v;
    spec::check_step(before, step, w, v);
    report(v, k);
  }

  fmt::print(out, "\nverdicts\n");
  doc["steps"] = std::move(json_steps);
  Json verdicts = Json::array();
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) continue;
    const auto it = breaks.find(std::string(d.name));
    verdicts.push_back({{"name", d.name},
                        {"kind", "safety"},
                        {"verdict", it == breaks.end() ? "holds" : "violated"},
                        {"message", it == breaks.end() ? std::string() : it->second.message}});
    if (it != breaks.end()) verdicts.back()["step"] = it->second.step;
    if (it == breaks.end()) {
      fmt::print(out, "  {:<22} holds at every step\n", d.name);
    } else {
      fmt::print(out, "  {:<22} VIOLATED {}: {}\n", d.name, at_step(it->second.step),
                 it->second.message);
    }
  }
  doc["properties"] = std::move(verdicts);
  const int rc = breaks.empty() ? kExitHolds : kExitViolated;
  doc["reproduced"] = breaks.contains(cx.property);
  doc["exit_code"] = rc;
  if (o.json) write_json(doc, shown);
  const auto recorded = breaks.find(cx.property);
  if (recorded != breaks.end()) {
    fmt::print(out, "result         the recorded violation of {} reproduced {} (exit 1)\n",
               cx.property, at_step(recorded->second.step));
    return kExitViolated;
  }
  if (!breaks.empty()) {
    auto first = breaks.begin();
    for (auto it = breaks.begin(); it != breaks.end(); ++it) {
      if (it->second.step < first->second.step) first = it;
    }
    fmt::print(out, "result         {} did not break, but {} did {} (exit 1)\n", cx.property,
               first->first, at_step(first->second.step));
    return kExitViolated;
  }
  if (overridden) {
    fmt::print(out,
               "result         every step ran and every property held: the race is closed under "
               "these mechanisms (exit 0)\n");
  } else {
    fmt::print(out,
               "result         every step ran and every property held, but the file records a "
               "violation of {}: the properties changed since it was written (exit 0)\n",
               cx.property);
  }
  return kExitHolds;
}

}  // namespace preemptcheck::cli
