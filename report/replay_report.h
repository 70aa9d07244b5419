// The words and the JSON of a `replay`: the head that says what the file records and how it
// is replayed, the narration of each step (the state, what changed, what broke), where it
// stopped, the verdicts and the result line. properties/replay_run.h replays the file and
// decides the exit code; this renders what it found — every word the command says.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "files/counterexample_yaml.h"
#include "impl/scenario.h"
#include "impl/show.h"
#include "properties/replay_run.h"
#include "properties/schedule.h"
#include "report/json.h"
#include "spec/monitor.h"

namespace preemptcheck::report {

/// The head of the `replay --json` document: the file, what it records, the scenario `run`
/// replays (the file's, with any switches applied), and whether they change its mechanisms.
Json replay_document(std::string_view file, const Counterexample& cx, const Scenario& run);

/// The text head: the file, the recorded violation, how it was found, the scenario and
/// mechanisms, and how the replay compares with the recording (overridden switches, missing
/// fingerprints, or as recorded).
void print_replay_head(std::string_view file, const Counterexample& cx, const Scenario& run,
                       std::ostream& out);

/// The narration of one replayed schedule, step by step, on `out`; it remembers each
/// property's first break and the JSON of each step.
class ReplayNarration {
 public:
  /// A property's first break: the step (0: the initial state) and the message.
  struct Break {
    std::size_t step = 0;
    std::string message;
  };

  /// Prints "initial state", the schedule's initial state and what is broken in it. With
  /// `full`, every step prints the whole state; otherwise only what it changed.
  ReplayNarration(const Schedule& schedule, bool full, std::ostream& out);

  /// Prints step `k` of `n`: its text and comment, then the state after it.
  void step(std::size_t k, std::size_t n, const ScheduleStep& step);

  /// Prints each property `findings` has violated at step `k` (0: the initial state), and
  /// records it as that property's break when it is its first.
  void findings(const spec::Findings& findings, std::size_t k);

  /// Prints the verdicts: each safety property held at every step, or its first break; sets
  /// doc's "steps" (every step narrated) and "properties". When the replay stopped early
  /// (`stopped_after`: the last step whose state was judged, 0 for the initial state), a
  /// property that did not break by then is "not judged past step k" ("not-judged" in JSON),
  /// never "holds": the steps after it never ran.
  void verdicts(Json& doc, std::optional<std::size_t> stopped_after = std::nullopt);

  /// `property`'s first break; nullptr when it held at every step.
  const Break* first_break(std::string_view property) const;

  /// Whether any property broke.
  bool any_break() const { return !breaks_.empty(); }

 private:
  const Schedule& schedule_;
  bool full_;
  std::ostream& out_;
  preemptcheck::StateLines lines_;
  std::size_t width_ = 0;
  std::map<std::string, Break, std::less<>> breaks_;
  Json steps_ = Json::array();
};

/// The result line of a replay that ran every step and did not diverge, after a note for each
/// property `met` on the way: the recorded violation reproduced (as recorded), or — under
/// overriding switches, or for an unverified file (`unverified`: written by hand with no
/// digest, or a step without its fingerprint) — whether cx's property (any property, when the
/// file names none) breaks.
void print_replay_result(const Counterexample& cx, bool overridden, bool unverified,
                         const ReplayNarration& narration, const std::vector<std::string>& met,
                         std::ostream& out);

/// Everything a `replay` shows.
struct ReplayShown {
  std::string_view file;  ///< the counterexample file as named on the command line
  const Counterexample& cx;
  const Scenario& run;  ///< the scenario replayed: the file's, with any switches applied
  const ReplayRun& replay;
  bool full = false;            ///< the whole state after every step, not only what changed
  std::string page = {};        ///< the swimlane page written under --html; empty when none
  std::string page_error = {};  ///< why the page could not be written; empty when it was
  int exit_code = 2;            ///< the command's: the replay's, or 2 for a page not written
};

/// Prints the replay: the head, each step, where it stopped (on `err` too, as "preemptcheck
/// replay: ..."), the verdicts, the lasso's or the recording's result line and the page.
/// Under `json` the text is not printed: one JSON document on `out` instead.
void print_replay(const ReplayShown& shown, bool json, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::report
