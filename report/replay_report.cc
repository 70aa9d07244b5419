// The words and the JSON of a `replay`.
#include "report/replay_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
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

}  // namespace preemptcheck::report
