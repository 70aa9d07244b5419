// The `replay` command: load a counterexample, run its steps; report/replay_report.h narrates them.
#include "cli/replay_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include "files/counterexample_yaml.h"
#include "impl/show.h"
#include "properties/recorded.h"
#include "properties/schedule.h"
#include "report/replay_report.h"
#include "report/swimlanes_html.h"
#include "report/timeline.h"

namespace preemptcheck::cli {
namespace {

// Why the file is refused before anything runs: its digest, its fingerprints; empty if not.
std::string refusal(const Counterexample& cx, const ReplayOptions& o) {
  if (!cx.recorded_digest) {
    return fmt::format(
        "{}: no scenario-digest: the file cannot show that its scenario and "
        "switches are those it was written for; regenerate it with check --out",
        o.file);
  }
  if (!cx.digest_matches()) {
    return fmt::format(
        "{}:{}:{}: scenario-digest {} does not match the inline scenario and "
        "switches (they digest to {}): the scenario, the profile or a switch was "
        "edited; regenerate it with check --out",
        o.file, cx.digest_line, cx.digest_column, format_fingerprint(*cx.recorded_digest),
        format_fingerprint(scenario_digest(cx.scenario)));
  }
  if (!cx.every_step_fingerprinted() && !o.allow_unfingerprinted) {
    for (std::size_t i = 0; i < cx.steps.size(); ++i) {
      if (cx.steps[i].fingerprint)
        continue;
      return fmt::format(
          "{}:{}:{}: step {} '{}' carries no fingerprint: a file without them "
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
  if (!timeline)
    return error;
  std::ofstream out(o.html_path, std::ios::binary);
  out << report::render_swimlanes_html(*timeline);
  if (!out)
    return fmt::format("cannot write {}", o.html_path);
  return {};
}

}  // namespace

int run_replay(const ReplayOptions& o, std::ostream& shown, std::ostream& err) {
  std::ostringstream text;  // under --json the text is not printed, the document is
  std::ostream& out = o.json ? text : shown;
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
  report::Json doc = report::replay_document(o.file, cx, run);
  report::print_replay_head(o.file, cx, run, out);

  std::vector<Action> actions;
  for (const CounterexampleStep& s : cx.steps)
    actions.push_back(s.action);
  const Schedule schedule = replay_schedule(run, actions, checked_by(cx));
  report::ReplayNarration narration(schedule, o.full, out);
  const std::size_t n = cx.steps.size();
  for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
    const ScheduleStep& step = schedule.steps[i];
    const CounterexampleStep& s = cx.steps[i];
    const std::size_t k = i + 1;
    narration.step(k, n, step);
    if (!overridden && s.fingerprint && *s.fingerprint != step.fingerprint) {
      fmt::print(err,
                 "preemptcheck replay: {}:{}:{}: diverged at step {} ('{}'): the state after it "
                 "has fingerprint {}, the file records {}; the model or the file changed since "
                 "it was written: regenerate it with check --out\n",
                 o.file, s.line, s.column, k, s.text, format_fingerprint(step.fingerprint),
                 format_fingerprint(*s.fingerprint));
      fmt::print(out, "result         diverged at step {} (exit 2)\n", k);
      return kExitBadInput;
    }
    narration.findings(step.findings, k);
  }
  if (const auto& b = schedule.blocked) {
    const CounterexampleStep& s = cx.steps[b->number - 1];
    fmt::print(out, "\nstep {}/{}  {}  NOT ENABLED\n", b->number, n, b->text);
    std::string blocker;
    if (overridden)
      blocker = "\n  " + blocking_switches(run, cx.scenario.mechanisms, actions, b->number);
    const std::string stale =
        overridden ? std::string()
                   : "\n  the file does not match the model (it was edited, or written by an older "
                     "model): regenerate it with check --out";
    fmt::print(err,
               "preemptcheck replay: {}:{}:{}: step {} '{}' is not enabled\n  why: {}{}\n  enabled "
               "here: {}{}\n",
               o.file, s.line, s.column, b->number, b->text, b->why, blocker, b->enabled, stale);
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
  narration.verdicts(doc);
  if (!overridden) {
    if (const std::string diverged = divergence(cx, schedule); !diverged.empty()) {
      fmt::print(err, "preemptcheck replay: {}: diverged: {}\n", o.file, diverged);
      fmt::print(out, "result         diverged: {} (exit 2)\n", diverged);
      return kExitBadInput;
    }
  }
  const int rc = narration.first_break(cx.property) == nullptr ? kExitHolds : kExitViolated;
  doc["reproduced"] = rc == kExitViolated;
  doc["exit_code"] = rc;
  if (o.json)
    report::write_json(doc, shown);
  report::print_replay_result(cx, overridden, narration, out);
  return rc;
}

}  // namespace preemptcheck::cli
