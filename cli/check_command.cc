// The `check` command: load, run the check (properties/check_run.h), write the counterexamples
// and the JUnit report; report/check_report.h renders the result for people or for machines.
#include "cli/check_command.h"

#include <fmt/format.h>

#include <climits>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "cli/interrupt_signals.h"
#include "cli/liveness_command.h"
#include "cli/simulate_command.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "files/scenario_yaml.h"
#include "properties/check_run.h"
#include "properties/limit_measures.h"
#include "properties/ranks.h"
#include "properties/recorded.h"
#include "report/check_report.h"
#include "report/limit_advice.h"
#include "report/print.h"

namespace preemptcheck::cli {
namespace {

// The command line that runs this check, for the counterexample's header: its paths as
// recorded_path() gives them, never absolute, so that the file does not depend on the machine.
std::string command_line(const CheckOptions& o) { return check_command_line(o); }

}  // namespace

std::string check_command_line(const CheckOptions& o) {
  std::string out = "preemptcheck check";
  if (!o.scenario_path.empty())
    out += " " + recorded_path(o.scenario_path);
  if (!o.scenario_of.empty())
    out += " --scenario-of " + recorded_path(o.scenario_of);
  if (o.mechanisms.profile)
    out += " --profile " + *o.mechanisms.profile;
  for (const auto& [name, value] : o.mechanisms.switches)
    out += fmt::format(" --{}={}", name, value);
  if (!o.checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && o.checked.test(static_cast<size_t>(d.id))) {
        out += fmt::format(" --property {}", d.name);
      }
    }
  }
  if (!o.out_dir.empty())
    out += " --out " + recorded_path(o.out_dir);
  if (o.stop_at_first)
    out += " --stop-at-first";
  if (o.reduce != Reduction::kNone)
    out += fmt::format(" --reduce={}", reduction_name(o.reduce));
  if (o.liveness)
    out += o.unfair ? " --liveness --unfair" : " --liveness";
  if (o.simulate) {
    out += fmt::format(" --simulate {}", *o.simulate);
    if (o.simulate_depth)
      out += fmt::format(" --simulate-depth {}", *o.simulate_depth);
    if (o.seed)
      out += fmt::format(" --seed {}", *o.seed);
  }
  return out;
}

namespace {

// Why `check --out DIR` could not write its counterexamples, found before the search: the
// directory (or the one it would be created in) cannot take files, or a file's path would be
// too long for the system. Empty when they can be written.
std::string out_problem(const CheckOptions& o, const Scenario& scenario) {
  if (auto problem = output_directory_problem(o.out_dir))
    return *problem;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness || !o.checked.test(static_cast<size_t>(d.id)))
      continue;
    // Room for the temporary name the file is written under first (files/output_file.h).
    const std::string path =
        (std::filesystem::path(o.out_dir) / counterexample_file_name(d.name, scenario)).string();
    if (path.size() + 32 >= PATH_MAX) {
      return fmt::format(
          "cannot write in '{}': {} (a counterexample's path would have {} bytes; "
          "the system takes fewer than {})",
          o.out_dir, std::strerror(ENAMETOOLONG), path.size(), PATH_MAX - 32);
    }
  }
  return {};
}

// The scenario the check is of: the file's, the embedded default, or --scenario-of's
// counterexample's; false (the error printed) when it cannot be loaded.
bool load_checked_scenario(const CheckOptions& o, Scenario& scenario, std::ostream& err) {
  try {
    if (o.scenario_of.empty()) {
      scenario = load_scenario(o.scenario_path);
      return true;
    }
    // The file is verified as `replay` verifies it: a digest that does not match its inline
    // scenario and switches means they were edited, and checking them would answer for
    // another scenario than the one the file records. A file without a digest (an older
    // version's, or written by hand) is what --scenario-of is for.
    const Counterexample cx = load_counterexample_file(o.scenario_of);
    if (cx.recorded_digest && !cx.digest_matches()) {
      report::print(err, "preemptcheck: {}\n", refusal(cx, o.scenario_of, true));
      return false;
    }
    scenario = cx.scenario;
    return true;
  } catch (const ScenarioError& e) {
    report::print(err, "preemptcheck: {}\n", e.what());
    return false;
  }
}

// The output directory is checked before the search, by the rank that writes (all ranks
// return the same status): a search is not thrown away for a directory that cannot be used.
bool outputs_usable(const CheckOptions& o, const Scenario& scenario, const Ranks& ranks,
                    std::ostream& err) {
  if (o.out_dir.empty() && o.junit_path.empty())
    return true;
  std::string problem;
  if (ranks.is_lead() && !o.out_dir.empty())
    problem = out_problem(o, scenario);
  if (ranks.is_lead() && problem.empty() && !o.junit_path.empty())
    problem = output_file_problem(o.junit_path).value_or("");
  if (ranks.from_lead(problem.empty() ? 0 : 1) == 0)
    return true;
  if (!problem.empty())
    report::print(err, "preemptcheck: {}; nothing was searched\n", problem);
  return false;
}

// Writes each violated property's counterexample under --out and the JUnit report under
// --junit, then prints the run. A file that cannot be written after all (a full disk) costs
// the file, not the verdict: the result is printed in full, the error named, and the exit code
// stays the verdict's.
int show_check(const CheckOptions& o, const Scenario& scenario, const std::string& source,
               const CheckRun& run, std::ostream& out, std::ostream& err) {
  const checker::Result<Action>& r = run.result;
  std::vector<report::OtherViolation> others;
  for (const OtherSchedule& other : run.others) {
    others.push_back(
        {&*r.property_results[other.entry].violation, report::trace(other.schedule), ""});
  }
  std::string written;
  std::string write_error;
  if (r.violation && !o.out_dir.empty()) {
    // One file per violated property, each with that property's own counterexample.
    // Every file is tried, and every one that could not be written is named with its reason.
    const auto write = [&](const Schedule& s, const checker::Violation<Action>& v) {
      FoundBy found_by;
      found_by.states = r.stats.states;
      std::string error;
      bool replaced = false;
      auto path =
          write_counterexample(to_counterexample(s, scenario, v.name, found_by, command_line(o)),
                               o.out_dir, error, &replaced);
      if (!error.empty())
        write_error += (write_error.empty() ? "" : "; ") + error;
      if (replaced && path)
        warn_replaced(*path, err);
      return path.value_or(std::string());
    };
    written = write(*run.schedule, *r.violation);
    for (std::size_t i = 0; i < others.size(); ++i)
      others[i].written = write(run.others[i].schedule, *others[i].violation);
  }
  std::vector<report::TraceStep> steps;
  if (run.schedule)
    steps = report::trace(*run.schedule);
  report::CheckReport shown{scenario, source,    r,       run.trips,
                            steps,    o.checked, written, std::move(others)};
  shown.write_error = write_error;
  shown.reduction = std::string(reduction_name(o.reduce));
  if (advised_limit(r.limit))
    shown.advice = report::limit_advice(measure_limit(scenario, o, r));
  if (o.gated()) {
    shown.expectations = &run.expectations;
    // Like a counterexample file, a JUnit report that fails after the search keeps the printed
    // verdict and the gate's exit code.
    if (!o.junit_path.empty()) {
      if (const auto error = write_file_atomically(
              o.junit_path,
              report::junit_xml(run.expectations, report::junit_name(scenario), r.stats.seconds))) {
        shown.write_error +=
            (shown.write_error.empty() ? "" : "; ") + fmt::format("the JUnit report: {}", *error);
      }
    }
  }
  if (o.json) {
    report::print_check_json(shown, run.exit_code, out);
  } else {
    report::print_check_text(shown, out);
  }
  if (!shown.write_error.empty()) {
    report::print(err, "preemptcheck: {}; the verdict above stands (exit {})\n", shown.write_error,
                  run.exit_code);
  }
  return run.exit_code;
}

}  // namespace

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (const std::string problem = check_request_problem(options); !problem.empty()) {
    report::print(err, "preemptcheck: {}\n", problem);
    return kExitBadInput;
  }
  Scenario scenario;
  if (!load_checked_scenario(options, scenario, err) ||
      !choose_mechanisms(scenario, options.mechanisms, "check", "preemptcheck", err))
    return kExitBadInput;
  if (scenario.mechanisms.informer_per_key && has_watch_order(options.reduce)) {
    report::print(err,
                  "preemptcheck: --reduce={} keeps the watch stream's causal order, and "
                  "--informer-fifo=per-key delivers it out of that order (DeltaFIFO): leave one "
                  "out\n",
                  reduction_name(options.reduce));
    return kExitBadInput;
  }
  const std::string source = !options.scenario_of.empty() ? "the scenario of " + options.scenario_of
                             : options.scenario_path.empty() ? std::string("embedded default")
                                                             : options.scenario_path;
  // Under mpirun (docs/mpi.md) every rank searches its part (the liveness graph is built whole
  // on each, the walks only on the lead); the lead alone prints and writes, the others return
  // the same exit status.
  const Ranks ranks = Ranks::of_this_process();
  if (options.simulate)
    return ranks.is_lead() ? run_simulation(options, scenario, source, out, err) : kExitHolds;
  if (options.liveness)
    return check_liveness(options, scenario, source, command_line(options), ranks, out, err);
  if (!outputs_usable(options, scenario, ranks, err))
    return kExitBadInput;
  // SIGINT and SIGTERM stop the search at its next safe point; what it found is reported.
  const InterruptSignals signals;
  CheckHooks hooks{signals.flag(), {}};
  if (!options.quiet) {
    hooks.progress = [&err](const checker::Stats& s) {
      report::print(err, "{}\n", report::progress_line(s));
      err.flush();
    };
  }
  CheckRun run = preemptcheck::run_check(options, scenario, ranks, hooks);
  if (!run.failure.empty()) {
    report::print(err, "preemptcheck: {}\n", run.failure);
    return kExitBadInput;
  }
  if (run.result.limit == checker::kInterrupted) {
    const int signal = signals.flag()->load();
    run.result.limit_detail = signal != 0 ? InterruptSignals::signal_name(signal)
                                          : std::string("a signal to another rank");
  }
  if (!ranks.is_lead())
    return run.exit_code;
  if (!run.unconfirmed.empty()) {
    report::print(err,
                  "preemptcheck: a counterexample of the reduced search is not confirmed by the "
                  "unreduced model ({}): a defect of --reduce={}; nothing is proven, check "
                  "without --reduce\n",
                  run.unconfirmed, reduction_name(options.reduce));
    return kExitLimit;
  }
  return show_check(options, scenario, source, run, out, err);
}

}  // namespace preemptcheck::cli
