// The words and the JSON document of `check --simulate N`: the random walks' figures, each
// checked property's verdict (violated, or no violation in the walks), the witnesses the walks
// reached, each violation's shrunk schedule and file, and the command that repeats the run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "impl/scenario.h"
#include "properties/simulate.h"
#include "report/check_report.h"

namespace preemptcheck::report {

/// One violation as the output shows it.
struct SimulatedShown {
  const SimulatedViolation* violation = nullptr;  ///< never null; its `shrunk` is set
  std::vector<TraceStep> steps;                   ///< the shrunk schedule
  std::string written;                            ///< its file under --out, or empty
};

/// Everything the output of one `check --simulate` shows.
struct SimulateReport {
  const Scenario& scenario;  ///< with the profile and switches applied
  std::string source;
  const SimulateOptions& options;
  const SimulateResult& result;
  std::vector<SimulatedShown> shown;  ///< in the order of result.violations
  std::string command;                ///< the command line that repeats the run
  std::string write_error;            ///< files that could not be written, with the reasons
};

/// The line printed before the walks start: their number, depth and seed.
void print_simulate_head(const SimulateReport& report, std::ostream& out);

/// The text after the walks; ends with "(exit N)".
void print_simulate_text(const SimulateReport& report, int exit_code, std::ostream& out);

/// The `check --simulate --json` document on one line.
void print_simulate_json(const SimulateReport& report, int exit_code, std::ostream& out);

}  // namespace preemptcheck::report
