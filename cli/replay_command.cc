// The `replay` command: load a counterexample, replay it (properties/replay_run.h), write the
// page; report/replay_report.h says what it found.
#include "cli/replay_command.h"

#include <ostream>

#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "properties/recorded.h"
#include "properties/replay_run.h"
#include "report/print.h"
#include "report/replay_report.h"
#include "report/swimlanes_html.h"
#include "report/timeline.h"

namespace preemptcheck::cli {
namespace {

// The swimlane page of the schedule, written to --html's path; an error message, or empty.
std::string write_html(const ReplayOptions& o, const Counterexample& cx, const Scenario& run,
                       const ReplayRun& replay) {
  std::string error;
  auto timeline =
      report::make_timeline(report::timeline_source(cx, run, "preemptcheck replay " + o.file),
                            replay.schedule, report::padded_state_lines, error);
  if (!timeline)
    return error;
  timeline->diverged = replay.diverged;
  return write_file_atomically(o.html_path, report::render_swimlanes_html(*timeline))
      .value_or(std::string());
}

}  // namespace

int run_replay(const ReplayOptions& o, std::ostream& out, std::ostream& err) {
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
  const ReplayRun replay = replay_counterexample(cx, run, o.file);
  report::ReplayShown shown{o.file, cx, run, replay, o.full};
  shown.exit_code = replay.exit_code;
  if (!o.html_path.empty() && replay.ran_through()) {
    shown.page_error = write_html(o, cx, run, replay);
    shown.page = shown.page_error.empty() ? o.html_path : std::string();
    if (!shown.page_error.empty())
      shown.exit_code = kExitBadInput;
  }
  report::print_replay(shown, o.json, out, err);
  return shown.exit_code;
}

}  // namespace preemptcheck::cli
