// The words and the JSON document of a `check` result: the summary people read (statistics,
// per-property verdicts, witnesses, the shortest schedules), the document machines read, and
// the progress line. The command runs the search and writes the files; this renders them.
#pragma once

#include <bitset>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/schedule.h"
#include "report/expectations.h"
#include "spec/property.h"
#include "spec/round_trips.h"

namespace preemptcheck::report {

/// One step of a shortest schedule as the output prints it.
struct TraceStep {
  std::string action;
  std::string comment;
};

/// The steps of a replayed schedule as the output prints them: each step's text and comment.
std::vector<TraceStep> trace(const Schedule& schedule);

/// A violated property other than the first one reported, with its own shortest schedule.
struct OtherViolation {
  const checker::Violation<Action>* violation = nullptr;  ///< never null once built
  std::vector<TraceStep> steps;
  std::string written;  ///< its counterexample file under --out; empty when none was written
};

/// Everything the output of one `check` shows.
struct CheckReport {
  const Scenario& scenario;  ///< with the profile and switches applied
  std::string source;        ///< where the scenario came from, in words
  const checker::Result<Action>& result;
  spec::BlockingRoundTrips trips;  ///< the peak blocking round trips over every rank
  std::vector<TraceStep> steps;    ///< the first violation's shortest schedule; empty if none
  std::bitset<spec::kPropertyCount> checked;
  std::string written;  ///< the first violation's counterexample file; empty when none
  std::vector<OtherViolation> others;
  /// Under --expect-violated or --junit: the gate's expectations; the exit code is theirs.
  const std::vector<Expectation>* expectations = nullptr;
  /// Why a counterexample file could not be written (the path and the system's reason); empty
  /// when none failed.
  std::string write_error = {};
  /// The reduction the search applied: "none" or "symmetry".
  std::string reduction = "none";
  /// At a state, time or memory limit: what the search saw and which options would help, as
  /// (label, words) lines — "levels", "estimate", "advice", "measured" (report/limit_advice.h).
  std::vector<std::pair<std::string, std::string>> advice = {};
};

/// The text summary: scenario, mechanisms, statistics, blocking round trips, each safety
/// property's verdict, each witness, the result line and the schedules; ends with "(exit N)"
/// as the outcome implies.
void print_check_text(const CheckReport& report, std::ostream& out);

/// The `check --json` document on one line; `exit_code` is its "exit_code".
void print_check_json(const CheckReport& report, int exit_code, std::ostream& out);

/// Why a search stopped, after "the search stopped": "at the time limit (--time-limit)", "at
/// the memory limit (--max-memory)", "because it was interrupted (SIGINT)", ...
std::string stop_words(std::string_view limit, std::string_view detail);

/// `bytes` in MiB with one decimal: "7.8 MiB".
std::string human_bytes(std::uint64_t bytes);

/// The progress line of a running search (without a newline): states, depth, rate, queue,
/// memory, elapsed seconds.
std::string progress_line(const checker::Stats& stats);

}  // namespace preemptcheck::report
