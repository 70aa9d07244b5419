// The words and the JSON of a `replay`.
#include "report/replay_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>
#include <utility>

#include "properties/recorded.h"
#include "report/print.h"
#include "report/state_text.h"
#include "report/timeline.h"

namespace preemptcheck::report {

Json replay_document(std::string_view file, const Counterexample& cx, const Scenario& run) {
  Json doc = json_document("replay");
  doc["counterexample"] = file;
  doc["recorded"] = {{"property", cx.property}, {"message", cx.message}};
  doc["unverified"] = is_unverified(cx);
  doc["met_on_the_way"] = Json::array();
  doc["scenario"] = run.name;
  doc["profile"] = run.profile;
  doc["mechanisms"] = mechanisms_json(run.mechanisms);
  doc["overridden"] = run.mechanisms != cx.scenario.mechanisms;
  return doc;
}

void print_replay_head(std::string_view file, const Counterexample& cx, const Scenario& run,
                       std::ostream& out) {
  report::print(out, "counterexample {}\n", file);
  if (!cx.recorded_digest) {
    report::print(
        out,
        "unverified     the file has no scenario-digest: a schedule written by hand, "
        "replayed under --allow-unfingerprinted; nothing in it was verified (its scenario, "
        "switches, fingerprints and message are taken as written)\n");
  }
  if (cx.property.empty()) {
    report::print(out, "recorded       no property: every property is judged at every step\n");
  } else {
    report::print(out, "recorded       {}: {}\n", cx.property, or_none(cx.message));
  }
  for (const auto& m : cx.also)
    report::print(out, "               also {}: {}\n", m.name, m.message);
  report::print(out, "found          {}\n", found_by_text(cx));
  report::print(out, "scenario       {}\n", run.name);
  report::print(out, "mechanisms     {} (profile {})\n", describe(run.mechanisms), run.profile);
  if (run.mechanisms != cx.scenario.mechanisms) {
    std::string diffs;
    for (const std::string& d : differences(run.mechanisms, cx.scenario.mechanisms)) {
      diffs += fmt::format("{}{}", diffs.empty() ? "" : " ", d);
    }
    report::print(out,
                  "overridden     the file records {} (profile {}); changed: {}; fingerprints are "
                  "not compared; exit 0 means every step ran and {} held, 1 that it still breaks, "
                  "2 that the schedule is impossible under these switches\n",
                  describe(cx.scenario.mechanisms), cx.scenario.profile, diffs, cx.property);
    report::print(out,
                  "illustration   this replays one schedule under other mechanisms, to show where "
                  "it breaks; it proves nothing. To prove the race closed, check every "
                  "interleaving: preemptcheck check --scenario-of {} --profile {} --property {}\n",
                  file, run.profile, cx.property);
  } else if (!cx.recorded_digest) {
    report::print(out,
                  "               exit 1 means {} broke at some step, 0 that every step ran and it "
                  "held, 2 that a step is not enabled\n",
                  cx.property.empty() ? std::string("a property") : cx.property);
  } else if (!cx.every_step_fingerprinted()) {
    report::print(out,
                  "unverified     a step carries no fingerprint: replayed under "
                  "--allow-unfingerprinted, a step added, dropped, swapped or taken differently "
                  "goes unnoticed, so nothing in it is verified; exit 1 means {} broke at some "
                  "step, 0 that every step ran and it held, 2 that a step is not enabled\n",
                  cx.property.empty() ? std::string("a property") : cx.property);
  } else {
    report::print(out, "               as recorded; every step's fingerprint is compared\n");
  }
}

ReplayNarration::ReplayNarration(const Schedule& schedule, bool full, std::ostream& out)
    : schedule_(schedule),
      full_(full),
      out_(out),
      lines_(state_lines(schedule.initial, schedule.initial_ledger.lines(*schedule.cluster))) {
  for (const auto& line : lines_)
    width_ = std::max(width_, line.first.size());
  report::print(out_, "\ninitial state\n");
  print_state(lines_, width_, out_);
  findings(schedule.initial_findings, 0);
}

void ReplayNarration::step(std::size_t k, std::size_t n, const ScheduleStep& step) {
  report::print(out_, "\nstep {}/{}  {}  # {}\n", k, n, step.text, step.comment);
  steps_.push_back({{"step", k},
                    {"action", step.text},
                    {"comment", step.comment},
                    {"fingerprint", format_fingerprint(step.fingerprint)},
                    {"violated", Json::array()}});
  preemptcheck::StateLines next = state_lines(step.after, step.ledger.lines(*schedule_.cluster));
  if (full_) {
    print_state(next, width_, out_);
  } else {
    print_state_changes(lines_, next, width_, out_);
  }
  lines_ = std::move(next);
}

void ReplayNarration::findings(const spec::Findings& findings, std::size_t k) {
  for (const auto& [property, message] : findings.violated) {
    const std::string name(spec::property_def(property).name);
    report::print(out_, "  VIOLATED {}: {}\n", name, message);
    breaks_.try_emplace(name, Break{k, message});
    if (k > 0)
      steps_.back()["violated"].push_back({{"property", name}, {"message", message}});
  }
}

const ReplayNarration::Break* ReplayNarration::first_break(std::string_view property) const {
  const auto it = breaks_.find(property);
  return it == breaks_.end() ? nullptr : &it->second;
}

void ReplayNarration::verdicts(Json& doc, std::optional<std::size_t> stopped_after) {
  report::print(out_, "\nverdicts\n");
  doc["steps"] = std::move(steps_);
  Json verdicts = Json::array();
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness)
      continue;
    const Break* b = first_break(d.name);
    const bool judged = b != nullptr || !stopped_after;
    verdicts.push_back({{"name", d.name},
                        {"kind", "safety"},
                        {"verdict", b != nullptr ? "violated"
                                    : judged     ? "holds"
                                                 : "not-judged"},
                        {"message", b == nullptr ? std::string() : b->message}});
    if (b != nullptr)
      verdicts.back()["step"] = b->step;
    if (!judged) {
      verdicts.back()["step"] = *stopped_after;
      report::print(out_, "  {:<22} not judged past step {}: the replay stopped there\n", d.name,
                    *stopped_after);
    } else if (b == nullptr) {
      report::print(out_, "  {:<22} holds at every step\n", d.name);
    } else {
      report::print(out_, "  {:<22} VIOLATED {}: {}\n", d.name, at_step(b->step), b->message);
    }
  }
  doc["properties"] = std::move(verdicts);
}

void print_replay_result(const Counterexample& cx, bool overridden, bool unverified,
                         const ReplayNarration& narration, const std::vector<std::string>& met,
                         std::ostream& out) {
  for (const std::string& m : met) {
    report::print(out, "on the way     {} (another property than the file's: a note)\n", m);
  }
  if (unverified && cx.property.empty()) {
    if (narration.any_break()) {
      report::print(out,
                    "result         every step ran; a property broke (see the verdicts); "
                    "unverified (exit 1)\n");
    } else {
      report::print(out,
                    "result         every step ran and every property held; unverified "
                    "(exit 0)\n");
    }
    return;
  }
  const ReplayNarration::Break* recorded = narration.first_break(cx.property);
  const std::string_view how = unverified ? "; unverified" : "";
  if (!overridden && !unverified) {
    report::print(out,
                  "result         the recorded violation of {} reproduced at step {}, the recorded "
                  "step, with the recorded message (exit 1)\n",
                  cx.property, cx.steps.size());
  } else if (recorded != nullptr) {
    report::print(out, "result         {} {} breaks {}: {}{} (exit 1)\n",
                  unverified ? "as written," : "under these mechanisms", cx.property,
                  at_step(recorded->step), recorded->message, how);
  } else if (!narration.any_break()) {
    report::print(out, "result         every step ran and every property held{}{} (exit 0)\n",
                  unverified ? "" : ": the race is closed under these mechanisms", how);
  } else {
    report::print(out,
                  "result         every step ran and {} held at every step, though another "
                  "property broke (see the verdicts){} (exit 0)\n",
                  cx.property, how);
  }
}

namespace {

// The result line of a lasso file that ran every step (and, when it did not reproduce, why, on
// `err`).
void print_lasso_result(std::string_view file, const Counterexample& cx, const LassoReplay& l,
                        std::ostream& out, std::ostream& err) {
  if (!l.verdict.returns) {
    report::print(err, "preemptcheck replay: {}:{}:{}: {}\n", file, cx.loop_line, cx.loop_column,
                  l.diverged);
    report::print(out, "result         {} (exit 2)\n", l.diverged);
  } else if (!l.diverged.empty()) {
    report::print(err, "preemptcheck replay: {}: diverged: {}\n", file, l.diverged);
    report::print(out, "result         diverged: {} (exit 2)\n", l.diverged);
  } else if (l.verdict.message.empty()) {
    report::print(out, "result         {}; no-starvation holds on this loop: {} (exit 0)\n",
                  l.where, l.verdict.why_not);
  } else {
    report::print(out, "result         {} the recorded violation of {}: {}; {} (exit 1)\n",
                  l.verified ? "reproduced" : "still breaks", cx.property, l.where,
                  l.verdict.message);
  }
}

// The step that is not enabled: on `out`, and why (with what is enabled there) on `err`.
void print_blocked(const ReplayShown& shown, std::ostream& out, std::ostream& err) {
  const ReplayRun& r = shown.replay;
  const BlockedStep& b = *r.schedule.blocked;
  const CounterexampleStep& s = shown.cx.steps[b.number - 1];
  report::print(out, "\nstep {}/{}  {}  NOT ENABLED\n", b.number, shown.cx.steps.size(), b.text);
  const std::string blocker = r.overridden ? "\n  " + r.blocker : std::string();
  const std::string stale =
      r.overridden || r.unverified
          ? std::string()
          : "\n  the file does not match the model (it was edited, or written by an older "
            "model): regenerate it with check --out";
  report::print(
      err,
      "preemptcheck replay: {}:{}:{}: step {} '{}' is not enabled\n  why: {}{}\n  enabled "
      "here: {}{}\n",
      shown.file, s.line, s.column, b.number, b.text, b.why, blocker, b.enabled, stale);
  report::print(out, "result         step {} is not enabled{} (exit 2)\n{}", b.number,
                r.overridden ? " under these mechanisms: the schedule is impossible" : "",
                blocker.empty() ? std::string() : blocker.substr(1) + "\n");
}

// The steps, each with what it changed and broke, up to where the replay stopped; false when
// a step's fingerprint differs (said on `out` and `err`, the verdicts printed).
bool print_steps(const ReplayShown& shown, ReplayNarration& narration, Json& doc, std::ostream& out,
                 std::ostream& err) {
  const ReplayRun& r = shown.replay;
  const Counterexample& cx = shown.cx;
  const std::size_t n = cx.steps.size();
  for (std::size_t i = 0; i < r.schedule.steps.size(); ++i) {
    const std::size_t k = i + 1;
    if (cx.loop && *cx.loop == i)
      report::print(
          out, "\n---- the loop: {} forever\n",
          k == n ? fmt::format("step {} repeats", k) : fmt::format("steps {}-{} repeat", k, n));
    narration.step(k, n, r.schedule.steps[i]);
    if (r.fingerprint_differs == k) {
      report::print(err, "preemptcheck replay: {}\n", r.fingerprint_difference);
      report::print(out, "result         diverged at step {} (exit 2)\n", k);
      narration.verdicts(doc, i);
      return false;
    }
    narration.findings(r.schedule.steps[i].findings, k);
  }
  return true;
}

// The end of a replay that ran every step: the lasso's result or the recording's, and the page.
void print_ending(const ReplayShown& shown, const ReplayNarration& narration, Json& doc,
                  std::ostream& out, std::ostream& err) {
  const ReplayRun& r = shown.replay;
  if (r.lasso)
    print_lasso_result(shown.file, shown.cx, *r.lasso, out, err);
  else
    doc["met_on_the_way"] = r.met;
  if (!shown.page_error.empty()) {
    report::print(err, "preemptcheck replay: {}\n", shown.page_error);
    return;
  }
  if (!shown.page.empty())
    report::print(out, "{}page           {}\n", r.lasso ? "" : "\n", shown.page);
  if (r.lasso)
    return;
  if (!r.diverged.empty()) {
    report::print(err, "preemptcheck replay: {}: diverged: {}\n", shown.file, r.diverged);
    report::print(out, "result         diverged: {} (exit 2)\n", r.diverged);
    return;
  }
  print_replay_result(shown.cx, r.overridden, r.unverified, narration, r.met, out);
}

}  // namespace

void print_replay(const ReplayShown& shown, bool json, std::ostream& printed, std::ostream& err) {
  std::ostringstream text;  // under --json the text is not printed, the document is
  std::ostream& out = json ? text : printed;
  const ReplayRun& r = shown.replay;
  Json doc = replay_document(shown.file, shown.cx, shown.run);
  print_replay_head(shown.file, shown.cx, shown.run, out);
  ReplayNarration narration(r.schedule, shown.full, out);
  if (print_steps(shown, narration, doc, out, err)) {
    if (r.schedule.blocked) {
      print_blocked(shown, out, err);
      narration.verdicts(doc, r.schedule.blocked->number - 1);
    } else {
      narration.verdicts(doc);
      print_ending(shown, narration, doc, out, err);
    }
  }
  doc["reproduced"] = shown.exit_code == 1 && !r.overridden && !r.unverified;
  doc["diverged"] = r.diverged.empty() ? Json(nullptr) : Json(r.diverged);
  doc["exit_code"] = shown.exit_code;
  if (json)
    write_json(doc, printed);
}

}  // namespace preemptcheck::report
