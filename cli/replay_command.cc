// The `replay` command: load a counterexample, run its steps, and narrate them.
#include "cli/replay_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/json.h"
#include "files/counterexample_yaml.h"
#include "impl/show.h"
#include "properties/recorded.h"
#include "properties/schedule.h"
#include "report/swimlanes_html.h"
#include "report/state_text.h"
#include "report/timeline.h"

namespace preemptcheck::cli {
namespace {

struct Break {
  std::size_t step;  // 0: the initial state
  std::string message;
};

// Why the file is refused before anything runs: its digest, its fingerprints; empty if not.
std::string refusal(const Counterexample& cx, const ReplayOptions& o) {
  if (!cx.recorded_digest) {
    return fmt::format("{}: no scenario-digest: the file cannot show that its scenario and "
                       "switches are those it was written for; regenerate it with check --out",
                       o.file);
  }
  if (!cx.digest_matches()) {
    return fmt::format("{}:{}:{}: scenario-digest {} does not match the inline scenario and "
                       "switches (they digest to {}): the scenario, the profile or a switch was "
                       "edited; regenerate it with check --out",
                       o.file, cx.digest_line, cx.digest_column,
                       format_fingerprint(*cx.recorded_digest),
                       format_fingerprint(scenario_digest(cx.scenario)));
  }
  if (!cx.every_step_fingerprinted() && !o.allow_unfingerprinted) {
    for (std::size_t i = 0; i < cx.steps.size(); ++i) {
      if (cx.steps[i].fingerprint) continue;
      return fmt::format("{}:{}:{}: step {} '{}' carries no fingerprint: a file without them "
                         "cannot show that it replays as written; regenerate it with check --out, "
                         "or replay it with --allow-unfingerprinted",
                         o.file, cx.steps[i].line, cx.steps[i].column, i + 1, cx.steps[i].text);
    }
  }
  return {};
}

// The swimlane page of the schedule, written to --html's path; an error message, or empty.
std::string write_html(const ReplayOptions& o, const Counterexample& cx, const Scenario& run,
                       const Schedule& schedule) {
  std::string error;
  const auto timeline =
      report::make_timeline(report::timeline_source(cx, run, "preemptcheck replay " + o.file),
                            schedule, report::padded_state_lines, error);
  if (!timeline) return error;
  std::ofstream out(o.html_path, std::ios::binary);
  out << report::render_swimlanes_html(*timeline);
  if (!out) return fmt::format("cannot write {}", o.html_path);
  return {};
}

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
  if (const std::string refused = refusal(cx, o); !refused.empty()) {
    fmt::print(err, "preemptcheck replay: {}\n", refused);
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
  const bool unfingerprinted = !cx.every_step_fingerprinted();
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
  fmt::print(out, "found          {}\n", report::found_by_text(cx));
  fmt::print(out, "scenario       {}\n", run.name);
  fmt::print(out, "mechanisms     {} (profile {})\n", describe(run.mechanisms), run.profile);
  if (overridden) {
    std::string diffs;
    for (const std::string& d : differences(run.mechanisms, cx.scenario.mechanisms)) {
      diffs += fmt::format("{}{}", diffs.empty() ? "" : " ", d);
    }
    fmt::print(out,
               "overridden     the file records {} (profile {}); changed: {}; fingerprints are "
               "not compared; exit 0 means every step ran and {} held, 1 that it still breaks, "
               "2 that the schedule is impossible under these switches\n",
               describe(cx.scenario.mechanisms), cx.scenario.profile, diffs, cx.property);
    fmt::print(out,
               "illustration   this replays one schedule under other mechanisms, to show where "
               "it breaks; it proves nothing. To prove the race closed, check every "
               "interleaving: preemptcheck check --scenario-of {} --profile {} --property {}\n",
               o.file, run.profile, cx.property);
  } else if (unfingerprinted) {
    fmt::print(out,
               "               as recorded, but the file's steps carry no fingerprints: replayed "
               "under --allow-unfingerprinted, a step the model now takes differently goes "
               "unnoticed\n");
  } else {
    fmt::print(out, "               as recorded; every step's fingerprint is compared\n");
  }

  std::vector<Action> actions;
  for (const CounterexampleStep& s : cx.steps) actions.push_back(s.action);
  const Schedule schedule = replay_schedule(run, actions, checked_by(cx));
  StateLines lines = state_lines(schedule.initial, schedule.initial_ledger.lines(*schedule.cluster));
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
  report::print_state(lines, width, out);
  report(schedule.initial_findings, 0);

  const std::size_t n = cx.steps.size();
  for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
    const ScheduleStep& step = schedule.steps[i];
    const CounterexampleStep& s = cx.steps[i];
    const std::size_t k = i + 1;
    const std::string where = fmt::format("{}:{}:{}", o.file, s.line, s.column);
    fmt::print(out, "\nstep {}/{}  {}  # {}\n", k, n, step.text, step.comment);
    json_steps.push_back({{"step", k},
                          {"action", step.text},
                          {"comment", step.comment},
                          {"fingerprint", format_fingerprint(step.fingerprint)},
                          {"violated", Json::array()}});
    StateLines next = state_lines(step.after, step.ledger.lines(*schedule.cluster));
    if (o.full) {
      report::print_state(next, width, out);
    } else {
      report::print_state_changes(lines, next, width, out);
    }
    lines = std::move(next);
    if (!overridden && s.fingerprint && *s.fingerprint != step.fingerprint) {
      fmt::print(err,
                 "preemptcheck replay: {}: diverged at step {} ('{}'): the state after it has "
                 "fingerprint {}, the file records {}; the model or the file changed since it "
                 "was written: regenerate it with check --out\n",
                 where, k, s.text, format_fingerprint(step.fingerprint),
                 format_fingerprint(*s.fingerprint));
      fmt::print(out, "result         diverged at step {} (exit 2)\n", k);
      return kExitBadInput;
    }
    report(step.findings, k);
  }
  if (const auto& b = schedule.blocked) {
    const CounterexampleStep& s = cx.steps[b->number - 1];
    const std::string where = fmt::format("{}:{}:{}", o.file, s.line, s.column);
    fmt::print(out, "\nstep {}/{}  {}  NOT ENABLED\n", b->number, n, b->text);
    std::string blocker;
    if (overridden) blocker = "\n  " + blocking_switches(run, cx.scenario.mechanisms, actions, b->number);
    const std::string stale =
        overridden ? std::string()
                   : "\n  the file does not match the model (it was edited, or written by an older "
                     "model): regenerate it with check --out";
    fmt::print(err,
               "preemptcheck replay: {}: step {} '{}' is not enabled\n  why: {}{}\n  enabled "
               "here: {}{}\n",
               where, b->number, b->text, b->why, blocker, b->enabled, stale);
    fmt::print(out, "result         step {} is not enabled{} (exit 2)\n", b->number,
               overridden ? " under these mechanisms: the schedule is impossible" : "");
    return kExitBadInput;
  }
  if (!o.html_path.empty()) {
    if (const std::string e = write_html(o, cx, run, schedule); !e.empty()) {
      fmt::print(err, "preemptcheck replay: {}\n", e);
      return kExitBadInput;
    }
    fmt::print(out, "\npage           {}\n", o.html_path);
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
  const auto recorded = breaks.find(cx.property);
  if (!overridden) {
    if (const std::string diverged = divergence(cx, schedule); !diverged.empty()) {
      fmt::print(err, "preemptcheck replay: {}: diverged: {}\n", o.file, diverged);
      fmt::print(out, "result         diverged: {} (exit 2)\n", diverged);
      return kExitBadInput;
    }
  }
  const int rc = recorded == breaks.end() ? kExitHolds : kExitViolated;
  doc["reproduced"] = rc == kExitViolated;
  doc["exit_code"] = rc;
  if (o.json) write_json(doc, shown);
  if (!overridden) {
    fmt::print(out,
               "result         the recorded violation of {} reproduced at step {}, the recorded "
               "step, with the recorded message (exit 1)\n",
               cx.property, n);
  } else if (rc == kExitViolated) {
    fmt::print(out,
               "result         under these mechanisms {} still breaks {}: {} (exit 1)\n",
               cx.property, at_step(recorded->second.step), recorded->second.message);
  } else if (breaks.empty()) {
    fmt::print(out, "result         every step ran and every property held: the race is closed "
                    "under these mechanisms (exit 0)\n");
  } else {
    fmt::print(out, "result         every step ran and {} held at every step, though another "
                    "property broke (see the verdicts) (exit 0)\n", cx.property);
  }
  return rc;
}

}  // namespace preemptcheck::cli
