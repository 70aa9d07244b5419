// The words and the JSON document of a `check --liveness` result: the graph's statistics, the
// line that says why its state count is not the safety check's, the verdict of no-starvation,
// the lasso and, under a gate, the expectation. The command builds the graph and writes the
// files; this renders them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "files/counterexample_yaml.h"
#include "impl/scenario.h"
#include "report/expectations.h"

namespace preemptcheck::report {

/// Everything the output of one `check --liveness` shows.
struct LivenessReport {
  const Scenario& scenario;  ///< with the profile and switches applied
  std::string source;        ///< where the scenario came from, in words
  bool unfair = false;       ///< --unfair: every loop counts, fair or not
  checker::Outcome outcome = checker::Outcome::kHolds;
  /// What stopped the graph build (checker's limit names: max-states, time-limit, model
  /// capacity); empty when the whole graph was built.
  std::string limit = {};
  std::string limit_detail = {};  ///< for model capacity, what is full
  std::uint64_t max_states = 0;
  /// states: built (expanded, when a limit stopped the build); transitions: steps generated.
  checker::Stats stats = {};
  const Counterexample* lasso = nullptr;  ///< the lasso, when violated
  std::string written = {};               ///< its file under --out; empty when none
  std::string write_error = {};           ///< why a file could not be written; empty if none
  /// Under --expect-violated or --junit: the gate's expectation; the exit code is its.
  const std::vector<Expectation>* expectations = nullptr;
};

/// The text: scenario, mechanisms, the fairness, statistics, why the count differs from the
/// safety check's, the result line, the lasso and, under a gate, the expectation and gate line.
void print_liveness_text(const LivenessReport& report, std::ostream& out);

/// The `check --liveness --json` document on one line; `exit_code` is its "exit_code".
void print_liveness_json(const LivenessReport& report, int exit_code, std::ostream& out);

}  // namespace preemptcheck::report
