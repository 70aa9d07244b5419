// `check --liveness` on the command line: properties/liveness_run.h searches the scenario's
// whole state graph for a lasso on which a pod starves; this writes the lasso and the JUnit
// report and prints the run (report/liveness_report.h).
#pragma once

#include <iosfwd>
#include <string>

#include "cli/check_command.h"
#include "impl/scenario.h"
#include "properties/ranks.h"

namespace preemptcheck::cli {

/// Runs `check --liveness` on the loaded `scenario` (switches applied); `source` names where it
/// came from, `command` is the command line for the file's header. Under mpirun every rank
/// builds the whole graph (the search is not distributed) and the lead alone prints and writes.
/// Exit 0: no pod starves on any (fair) loop of the whole graph; 1: a lasso, printed and, with
/// --out, written; 3: the graph has more than the allowed states, nothing is proven.
int check_liveness(const CheckOptions& options, const Scenario& scenario, const std::string& source,
                   const std::string& command, const Ranks& ranks, std::ostream& out,
                   std::ostream& err);

}  // namespace preemptcheck::cli
