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
#include "impl/show.h"
#include "spec/ledger.h"
#include "spec/monitor.h"

namespace preemptcheck::cli {
namespace {

using Lines = StateLines;

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
  const Cluster cluster(scenario);
  World w(cluster);
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

  const Cluster cluster(run);
  World w(cluster);
  spec::Ledger ledger(w.cluster());
  Lines lines = state_lines(w, ledger.lines(w.cluster()));
  std::size_t width = 0;
  for (const auto& line : lines) width = std::max(width, line.first.size());

  std::map<std::string, Break> breaks;  // each property's first break
  auto report = [&](const spec::Findings& v, std::size_t step) {
    for (const auto& [property, message] : v.violated) {
      const std::string name(spec::property_def(property).name);
      fmt::print(out, "  VIOLATED {}: {}\n", name, message);
      breaks.try_emplace(name, Break{step, message});
      if (step > 0) json_steps.back()["violated"].push_back({{"property", name}, {"message", message}});
    }
  };

  fmt::print(out, "\ninitial state\n");
  print_lines(lines, width, out);
  spec::Findings initial;
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
                 where, k, s.text, w.why_not_enabled(s.action), blocker, enabled_here(w), stale);
      fmt::print(out, "result         step {} is not enabled{} (exit 2)\n", k,
                 overridden ? " under these mechanisms: the schedule is impossible" : "");
      return kExitBadInput;
    }
    const World before = w;
    const StepReport step = w.apply(s.action);
    spec::Findings v;
    spec::check_step(before, step, w, ledger, v);
    const std::string comment = describe_step(before, step, w);
    fmt::print(out, "\nstep {}/{}  {}  # {}\n", k, n, s.text, comment);
    json_steps.push_back({{"step", k},
                          {"action", s.text},
                          {"comment", comment},
                          {"fingerprint", format_fingerprint(w.fingerprint())},
                          {"violated", Json::array()}});
    Lines next = state_lines(w, ledger.lines(w.cluster()));
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
