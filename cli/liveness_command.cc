// `check --liveness` on the command line: the files and the report of the lasso search.
#include "cli/liveness_command.h"

#include <fmt/format.h>

#include <optional>
#include <ostream>

#include "cli/interrupt_signals.h"
#include "files/output_file.h"
#include "properties/liveness_run.h"
#include "report/expectations.h"
#include "report/liveness_report.h"
#include "report/print.h"

namespace preemptcheck::cli {

int check_liveness(const CheckOptions& o, const Scenario& scenario, const std::string& source,
                   const std::string& command, const Ranks& ranks, std::ostream& out,
                   std::ostream& err) {
  InterruptSignals::give_back();  // the whole graph is built at once: a signal ends it
  std::optional<std::string> problem;
  if (!o.out_dir.empty())
    problem = output_directory_problem(o.out_dir);
  if (!problem && !o.junit_path.empty())
    problem = output_file_problem(o.junit_path);
  if (problem) {
    report::print(err, "preemptcheck: {}; nothing was searched\n", *problem);
    return kExitBadInput;
  }
  const LivenessCheckRun run = run_liveness_check(o, scenario, command);
  if (!ranks.is_lead())
    return run.exit_code;
  report::LivenessReport shown{scenario, source};
  shown.unfair = o.unfair;
  shown.max_states = run.max_states;
  shown.stats = run.timed.stats;
  shown.limit = run.limit;
  shown.limit_detail = run.limit_detail;
  shown.outcome = run.outcome;
  if (const auto& lasso = run.timed.run.counterexample) {
    shown.lasso = &*lasso;
    if (!o.out_dir.empty()) {
      std::string error;
      bool replaced = false;
      if (const auto path = write_counterexample(*lasso, o.out_dir, error, &replaced)) {
        shown.written = *path;
        if (replaced)
          warn_replaced(*path, err);
      } else {
        shown.write_error = error;
      }
    }
  }
  if (o.gated()) {
    shown.expectations = &run.expectations;
    if (!o.junit_path.empty()) {
      // Like the lasso's file, a JUnit report that fails after the search keeps the printed
      // verdict and the gate's exit code.
      if (const auto error = write_file_atomically(
              o.junit_path,
              report::junit_xml(run.expectations, report::junit_name(scenario, o.unfair),
                                run.timed.stats.seconds))) {
        shown.write_error +=
            (shown.write_error.empty() ? "" : "; ") + fmt::format("the JUnit report: {}", *error);
      }
    }
  }
  if (o.json) {
    report::print_liveness_json(shown, run.exit_code, out);
  } else {
    report::print_liveness_text(shown, out);
  }
  if (!shown.write_error.empty()) {
    report::print(err, "preemptcheck: {}; the verdict above stands (exit {})\n", shown.write_error,
                  run.exit_code);
  }
  return run.exit_code;
}

}  // namespace preemptcheck::cli
