// `check --simulate N`: the walks, the files and the report.
#include "cli/simulate_command.h"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "cli/interrupt_signals.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "properties/rapidcheck_run.h"
#include "properties/schedule.h"
#include "properties/simulate.h"
#include "report/print.h"
#include "report/simulate_report.h"

namespace preemptcheck::cli {

int run_simulation(const CheckOptions& given, const Scenario& scenario, const std::string& source,
                   std::ostream& out, std::ostream& err) {
  if (!given.out_dir.empty()) {
    if (auto problem = output_directory_problem(given.out_dir)) {
      report::print(err, "preemptcheck: {}; nothing was searched\n", *problem);
      return kExitBadInput;
    }
  }
  CheckOptions o = given;
  o.seed = given.seed.value_or(random_seed());
  SimulateOptions s;
  s.seed = *o.seed;
  s.walks = *o.simulate;
  s.depth = o.simulate_depth.value_or(kDefaultSimulateDepth);
  s.threads = effective_threads(o.threads);
  s.checked = o.checked;
  s.time_limit_seconds = o.limits.time_limit_seconds;
  const InterruptSignals signals;
  s.interrupt = signals.flag();
  const std::string command = check_command_line(o);
  std::ostringstream text;  // under --json the text is not printed
  std::ostream& shown_out = o.json ? text : out;
  SimulateResult r;
  report::SimulateReport shown{scenario, source, s, r, {}, command, {}};
  report::print_simulate_head(shown, shown_out);
  shown_out.flush();
  r = simulate(scenario, s);
  for (const SimulatedViolation& v : r.violations) {
    if (!v.shrunk) {
      report::print(err,
                    "preemptcheck: the walk that broke {} does not break it when replayed: a "
                    "defect of the model; nothing is proven\n",
                    v.property);
      return kExitLimit;
    }
    const Schedule schedule = replay_schedule(scenario, v.shrunk->steps, o.checked);
    report::SimulatedShown one{&v, report::trace(schedule), {}};
    if (!o.out_dir.empty()) {
      FoundBy found_by;
      found_by.method = "random walk";
      found_by.shortest = false;
      found_by.states = r.steps + r.walks;
      found_by.seed = s.seed;
      found_by.shrunk = fmt::format("walk {}, {} steps -> {} steps", v.walk, v.prefix.size(),
                                    v.shrunk->steps.size());
      std::string error;
      bool replaced = false;
      const auto path =
          write_counterexample(to_counterexample(schedule, scenario, v.property, found_by, command),
                               o.out_dir, error, &replaced);
      if (!error.empty())
        shown.write_error += (shown.write_error.empty() ? "" : "; ") + error;
      if (replaced && path)
        warn_replaced(*path, err);
      one.written = path.value_or(std::string());
    }
    shown.shown.push_back(std::move(one));
  }
  const int code = !r.violations.empty() ? kExitViolated : kExitLimit;
  if (o.json) {
    report::print_simulate_json(shown, code, out);
  } else {
    report::print_simulate_text(shown, code, out);
  }
  if (!shown.write_error.empty()) {
    report::print(err, "preemptcheck: {}; the verdict above stands (exit {})\n", shown.write_error,
                  code);
  }
  return code;
}

}  // namespace preemptcheck::cli
