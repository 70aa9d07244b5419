// A `replay` as a value: a counterexample file (loaded, not refused) and the scenario it is
// replayed under (the file's, with any switches applied) in, a ReplayRun out — the schedule,
// where it stopped (a fingerprint that differs, a step that is not enabled), the lasso's
// verdict, how it differs from the record, and the exit code. report/replay_report.h says it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/liveness_check.h"
#include "properties/schedule.h"

namespace preemptcheck {

/// Why the replayed lasso file (cx.loop set, every step run, as recorded) does not reproduce:
/// its loop does not return, or the recorded pod does not starve on it with the recorded
/// message; empty when it reproduces.
std::string lasso_divergence(const Counterexample& cx, const Schedule& schedule);

/// The verdict of a replayed lasso file (cx.loop set, every step run).
struct LassoReplay {
  /// As recorded (`verified`), 1 when the loop returns to the state after step `loop` and the
  /// recorded pod starves on it with the recorded message, 2 otherwise; under other switches
  /// or unverified, 1 when it returns and some pod starves, 0 when it returns and none does, 2
  /// when it does not return.
  int exit_code = 2;
  bool verified = false;
  LassoVerdict verdict;
  /// Where the loop returns, in words: "steps 4-6 return to the state after step 3".
  std::string where;
  std::string diverged;  ///< why the file does not reproduce, when it does not
};

/// Judges a replayed lasso file (cx.loop set, every step of `schedule` run).
LassoReplay replay_lasso(const Counterexample& cx, const Schedule& schedule, bool verified);

struct ReplayRun {
  /// The switches differ from the file's: fingerprints are not compared, and the file's
  /// property is judged rather than reproduced.
  bool overridden = false;
  /// The file has no digest, or a step has no fingerprint: its steps are replayed and its
  /// property (if it names one) judged as under overridden switches; nothing is reproduced.
  bool unverified = false;
  std::vector<Action> actions;  ///< the file's steps
  Schedule schedule;            ///< their replay, up to the first step that is not enabled
  /// The step (1-based) after which the state's fingerprint differs from the file's, and the
  /// difference ("FILE:LINE:COL: diverged at step K (...)"); the replay stops there.
  std::optional<std::size_t> fingerprint_differs = {};
  std::string fingerprint_difference = {};
  /// Under overridden switches, for a step that is not enabled: which switch blocks it.
  std::string blocker = {};
  std::optional<LassoReplay> lasso = {};  ///< a lasso file's verdict, when every step ran
  /// Other properties than the file's that broke on the way (met_on_the_way()), as recorded.
  std::vector<std::string> met = {};
  /// How the replay differs from the record; empty when it does not (or is not compared).
  std::string diverged = {};
  /// As recorded: 1 exactly when it reproduces, else 2. Under switches that change the file's
  /// (or unverified): 1 when the recorded property (any, when the file names none) breaks at
  /// some step, 0 when it held at every step, 2 when a step is not enabled.
  int exit_code = 2;

  /// Whether every step ran: no fingerprint differs and no step was not enabled.
  bool ran_through() const { return !fingerprint_differs && !schedule.blocked; }
};

/// Replays the steps of `cx` (read from `file`) on a fresh World of `run`.
ReplayRun replay_counterexample(const Counterexample& cx, const Scenario& run,
                                const std::string& file);

}  // namespace preemptcheck
