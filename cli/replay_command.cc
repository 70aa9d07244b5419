// The `replay` command: load a counterexample, run its steps; report/replay_report.h narrates them.
#include "cli/replay_command.h"

#include <fmt/format.h>

#include <memory>
#include <ostream>
#include <sstream>

#include "cli/liveness_command.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "impl/show.h"
#include "properties/recorded.h"
#include "properties/schedule.h"
#include "report/print.h"
#include "report/replay_report.h"
#include "report/swimlanes_html.h"
#include "report/timeline.h"

namespace preemptcheck::cli {
namespace {

// The swimlane page of the schedule, written to --html's path; an error message, or empty.
std::string write_html(const ReplayOptions& o, const Counterexample& cx, const Scenario& run,
                       const Schedule& schedule, const std::string& diverged) {
  std::string error;
  auto timeline =
      report::make_timeline(report::timeline_source(cx, run, "preemptcheck replay " + o.file),
                            schedule, report::padded_state_lines, error);
  if (!timeline)
    return error;
  timeline->diverged = diverged;
  return write_file_atomically(o.html_path, report::render_swimlanes_html(*timeline))
      .value_or(std::string());
}

}  // namespace

int run_replay(const ReplayOptions& o, std::ostream& shown, std::ostream& err) {
  std::ostringstream text;  // under --json the text is not printed, the document is
  std::ostream& out = o.json ? text : shown;
  Counterexample cx;
  try {
    cx = load_counterexample_file(o.file);
  } catch (const ScenarioError& e) {
    report::print(err, "preemptcheck replay: {}\n", e.what());
    return kExitBadInput;
  }
  if (const std::string refused = refusal(cx, o.file, o.allow_unfingerprinted); !refused.empty()) {
    report::print(err, "preemptcheck replay: {}\n", refused);
    return kExitBadInput;
  }
  Scenario run = cx.scenario;
  if (!choose_mechanisms(run, o.mechanisms, "replay", "preemptcheck replay", err))
    return kExitBadInput;
  const bool overridden = run.mechanisms != cx.scenario.mechanisms;
  // A file with no digest (written by hand), or with a step that has no fingerprint, is
  // unverified: its steps are replayed, its property (if it names one) judged as under
  // overridden switches, and nothing in it is reproduced — without every fingerprint a step
  // added, dropped or swapped would go unnoticed, whatever the digest says.
  const bool unverified = is_unverified(cx);
  report::Json doc = report::replay_document(o.file, cx, run);
  report::print_replay_head(o.file, cx, run, out);

  // The verdict: the exit code, and the document (printed under --json whatever it is).
  const auto finish = [&](int rc, const std::string& diverged) {
    doc["reproduced"] = rc == kExitViolated && !overridden && !unverified;
    doc["diverged"] = diverged.empty() ? report::Json(nullptr) : report::Json(diverged);
    doc["exit_code"] = rc;
    if (o.json)
      report::write_json(doc, shown);
    return rc;
  };

  std::vector<Action> actions;
  for (const CounterexampleStep& s : cx.steps)
    actions.push_back(s.action);
  const Schedule schedule = replay_schedule(run, actions);
  report::ReplayNarration narration(schedule, o.full, out);
  const std::size_t n = cx.steps.size();
  for (std::size_t i = 0; i < schedule.steps.size(); ++i) {
    const std::size_t k = i + 1;
    if (cx.loop && *cx.loop == i)
      report::print(
          out, "\n---- the loop: {} forever\n",
          k == n ? fmt::format("step {} repeats", k) : fmt::format("steps {}-{} repeat", k, n));
    narration.step(k, n, schedule.steps[i]);
    if (!overridden) {
      if (const std::string d = fingerprint_divergence(cx, schedule, i, o.file); !d.empty()) {
        report::print(err, "preemptcheck replay: {}\n", d);
        report::print(out, "result         diverged at step {} (exit 2)\n", k);
        narration.verdicts(doc, i);
        return finish(kExitBadInput, fmt::format("the fingerprint differs at step {}", k));
      }
    }
    narration.findings(schedule.steps[i].findings, k);
  }
  if (const auto& b = schedule.blocked) {
    const CounterexampleStep& s = cx.steps[b->number - 1];
    report::print(out, "\nstep {}/{}  {}  NOT ENABLED\n", b->number, n, b->text);
    std::string blocker;
    if (overridden)
      blocker = "\n  " + blocking_switches(run, cx.scenario.mechanisms, actions, b->number);
    const std::string stale =
        overridden || unverified
            ? std::string()
            : "\n  the file does not match the model (it was edited, or written by an older "
              "model): regenerate it with check --out";
    report::print(
        err,
        "preemptcheck replay: {}:{}:{}: step {} '{}' is not enabled\n  why: {}{}\n  enabled "
        "here: {}{}\n",
        o.file, s.line, s.column, b->number, b->text, b->why, blocker, b->enabled, stale);
    report::print(out, "result         step {} is not enabled{} (exit 2)\n{}", b->number,
                  overridden ? " under these mechanisms: the schedule is impossible" : "",
                  blocker.empty() ? std::string() : blocker.substr(1) + "\n");
    narration.verdicts(doc, b->number - 1);
    return finish(kExitBadInput, fmt::format("step {} is not enabled", b->number));
  }
  narration.verdicts(doc);
  if (cx.loop) {
    const LassoReplay lasso =
        replay_lasso(cx, schedule, !overridden && !unverified, o.file, out, err);
    if (!o.html_path.empty()) {
      if (const std::string e = write_html(o, cx, run, schedule, lasso.diverged); !e.empty()) {
        report::print(err, "preemptcheck replay: {}\n", e);
        return finish(kExitBadInput, lasso.diverged);
      }
      report::print(out, "page           {}\n", o.html_path);
    }
    return finish(lasso.exit_code, lasso.diverged);
  }
  std::string diverged;
  std::vector<std::string> met;
  if (!overridden && !unverified) {
    diverged = divergence(cx, schedule);
    met = met_on_the_way(cx, schedule);
  }
  doc["met_on_the_way"] = met;
  if (!o.html_path.empty()) {
    if (const std::string e = write_html(o, cx, run, schedule, diverged); !e.empty()) {
      report::print(err, "preemptcheck replay: {}\n", e);
      return finish(kExitBadInput, diverged);
    }
    report::print(out, "\npage           {}\n", o.html_path);
  }
  if (!diverged.empty()) {
    report::print(err, "preemptcheck replay: {}: diverged: {}\n", o.file, diverged);
    report::print(out, "result         diverged: {} (exit 2)\n", diverged);
    return finish(kExitBadInput, diverged);
  }
  const bool breaks =
      cx.property.empty() ? narration.any_break() : narration.first_break(cx.property) != nullptr;
  const int rc = breaks ? kExitViolated : kExitHolds;
  report::print_replay_result(cx, overridden, unverified, narration, met, out);
  return finish(rc, diverged);
}

}  // namespace preemptcheck::cli
