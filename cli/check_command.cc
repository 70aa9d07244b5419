// The `check` command: load, explore, write the counterexamples; report/check_report.h renders
// the result for people or for machines.
#include "cli/check_command.h"

#include <fmt/format.h>

#include <climits>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>

#include "checker/explore_failure.h"
#include "checker/mpi/mpi_world.h"
#include "cli/interrupt_signals.h"
#include "cli/limit_advice.h"
#include "cli/liveness_command.h"
#include "cli/simulate_command.h"
#include "files/counterexample_yaml.h"
#include "files/output_file.h"
#include "files/scenario_yaml.h"
#include "properties/expectations.h"
#include "properties/recorded.h"
#include "properties/schedule.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "report/check_report.h"
#include "report/print.h"
#include "spec/liveness.h"

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

}  // namespace

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (const std::string problem = simulate_usage_problem(options); !problem.empty()) {
    report::print(err, "preemptcheck: {}\n", problem);
    return kExitBadInput;
  }
  const bool gated = !options.expect_violated.empty() || !options.junit_path.empty();
  if (options.unfair && !options.liveness) {
    report::print(err, "preemptcheck: --unfair applies to --liveness only\n");
    return kExitBadInput;
  }
  if (options.liveness && !options.checked.all()) {
    report::print(err,
                  "preemptcheck: --liveness checks no-starvation alone: leave out --property\n");
    return kExitBadInput;
  }
  if (options.liveness && options.reduce != Reduction::kNone) {
    report::print(err,
                  "preemptcheck: --liveness builds the whole state graph: leave out --reduce\n");
    return kExitBadInput;
  }
  if (options.liveness &&
      (options.limits.max_depth || options.max_memory || options.stop_at_first)) {
    report::print(err,
                  "preemptcheck: --liveness builds the whole state graph, bounded by --max-states "
                  "and --time-limit alone: leave out --max-depth, --max-memory and "
                  "--stop-at-first\n");
    return kExitBadInput;
  }
  if (gated && options.stop_at_first) {
    report::print(err,
                  "preemptcheck: --expect-violated and --junit judge every checked property; "
                  "--stop-at-first decides only one: leave it out\n");
    return kExitBadInput;
  }
  for (const std::string& p : options.expect_violated) {
    if (options.liveness && p != spec::kNoStarvation) {
      report::print(err,
                    "preemptcheck: --expect-violated {} names a safety property; --liveness "
                    "checks no-starvation alone: leave it out, or check it without --liveness\n",
                    p);
      return kExitBadInput;
    }
    if (!options.liveness && p == spec::kNoStarvation) {
      report::print(err,
                    "preemptcheck: --expect-violated {} names the liveness property: add "
                    "--liveness to check it\n",
                    p);
      return kExitBadInput;
    }
    if (options.liveness)
      continue;
    if (!options.checked.test(static_cast<std::size_t>(*spec::find_property(p)))) {
      report::print(err,
                    "preemptcheck: --expect-violated {} names a property --property leaves "
                    "unchecked: check it too, or leave the expectation out\n",
                    p);
      return kExitBadInput;
    }
  }
  Scenario scenario;
  try {
    if (options.scenario_of.empty()) {
      scenario = load_scenario(options.scenario_path);
    } else {
      // The file is verified as `replay` verifies it: a digest that does not match its inline
      // scenario and switches means they were edited, and checking them would answer for
      // another scenario than the one the file records. A file without a digest (an older
      // version's, or written by hand) is what --scenario-of is for.
      const Counterexample cx = load_counterexample_file(options.scenario_of);
      if (cx.recorded_digest && !cx.digest_matches()) {
        report::print(err, "preemptcheck: {}\n", refusal(cx, options.scenario_of, true));
        return kExitBadInput;
      }
      scenario = cx.scenario;
    }
  } catch (const ScenarioError& e) {
    report::print(err, "preemptcheck: {}\n", e.what());
    return kExitBadInput;
  }
  if (!choose_mechanisms(scenario, options.mechanisms, "check", "preemptcheck", err))
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
  if (options.simulate)
    return run_simulation(options, scenario, source, out, err);
  if (options.liveness) {
    InterruptSignals::give_back();  // the whole graph is built at once: a signal ends it
    std::optional<std::string> problem;
    if (!options.out_dir.empty())
      problem = output_directory_problem(options.out_dir);
    if (!problem && !options.junit_path.empty())
      problem = output_file_problem(options.junit_path);
    if (problem) {
      report::print(err, "preemptcheck: {}; nothing was searched\n", *problem);
      return kExitBadInput;
    }
    // Under mpirun every rank builds the whole graph (the search is not distributed); the lead
    // rank alone prints and writes.
    if (!checker::mpi::is_lead_rank()) {
      std::ostringstream unused;
      CheckOptions quiet = options;
      quiet.out_dir.clear();
      quiet.junit_path.clear();
      return run_liveness_check(quiet, scenario, source, command_line(options), unused, unused);
    }
    return run_liveness_check(options, scenario, source, command_line(options), out, err);
  }
  // The output directory is checked before the search, by the rank that writes (all ranks
  // return the same status): a search is not thrown away for a directory that cannot be used.
  if (!options.out_dir.empty() || !options.junit_path.empty()) {
    std::string problem;
    if (checker::mpi::is_lead_rank() && !options.out_dir.empty())
      problem = out_problem(options, scenario);
    if (checker::mpi::is_lead_rank() && problem.empty() && !options.junit_path.empty())
      problem = output_file_problem(options.junit_path).value_or("");
    if (checker::mpi::from_lead_rank(problem.empty() ? 0 : 1) != 0) {
      if (!problem.empty())
        report::print(err, "preemptcheck: {}; nothing was searched\n", problem);
      return kExitBadInput;
    }
  }
  auto cluster = std::make_shared<const Cluster>(scenario);
  WorldModel model(cluster, options.checked);
  model.reduce(options.reduce);
  checker::Limits limits = options.limits;
  // SIGINT and SIGTERM stop the search at its next safe point; what it found is reported.
  const InterruptSignals signals;
  limits.interrupt = signals.flag();
  limits.max_memory_bytes = options.max_memory ? *options.max_memory : default_max_memory();
  if (limits.max_memory_bytes == std::optional<std::uint64_t>(0))
    limits.max_memory_bytes.reset();
  checker::ExploreOptions<Action> explore_options;
  // Under mpirun every rank takes one thread unless --threads says how many (docs/mpi.md).
  explore_options.threads =
      options.threads == 0 && checker::mpi::size() > 1 ? 1U : effective_threads(options.threads);
  explore_options.per_property = !options.stop_at_first;
  if (!options.quiet) {
    explore_options.progress = [&err](const checker::Stats& s) {
      report::print(err, "{}\n", report::progress_line(s));
      err.flush();
    };
  }
  // Distributed check (docs/mpi.md): under mpirun every rank searches its part; rank 0 alone
  // prints and writes the counterexample, the others return the same exit status.
  checker::Result<Action> r;
  try {
    r = explore_world_auto(model, limits, explore_options);
  } catch (const checker::RankFailure& e) {
    report::print(err, "preemptcheck: {}\n", e.what());
    return kExitBadInput;
  }
  // Each rank saw the cycles of the states it expanded: the peaks are the largest of all.
  spec::BlockingRoundTrips trips = model.peak_round_trips();
  trips.sync = checker::mpi::max_over_ranks(trips.sync);
  trips.async = checker::mpi::max_over_ranks(trips.async);
  if (r.limit == checker::kInterrupted) {
    const int signal = signals.flag()->load();
    r.limit_detail = signal != 0 ? InterruptSignals::signal_name(signal)
                                 : std::string("a signal to another rank");
  }
  const int rc = r.outcome == checker::Outcome::kHolds      ? kExitHolds
                 : r.outcome == checker::Outcome::kViolated ? kExitViolated
                                                            : kExitLimit;
  std::vector<Expectation> expectations;
  int code = rc;
  if (gated) {
    expectations = judge_expectations(r, options.checked, options.expect_violated);
    code = expectations_exit_code(expectations);
  }
  if (!checker::mpi::is_lead_rank())
    return code;
  // Every counterexample is the schedule's replay of a violation's path — under --reduce
  // watch-order, of the FIFO schedule it stands for; with per-property results each violated
  // property has its own.
  // Under --reduce=watch-order a counterexample's FIFO schedule is checked here: every step
  // enabled, and the property broken at its last step. A schedule that fails is a defect of the
  // reduction (never seen): nothing is proven, and the check says so rather than print it.
  std::string unconfirmed;
  const auto fifo_schedule = [&](const checker::Violation<Action>& v) {
    try {
      Schedule s = replay_schedule(scenario, model.fifo_schedule(v.path), options.checked);
      const auto& last = s.violated_at(s.steps.size());
      const bool broken =
          std::any_of(last.begin(), last.end(), [&](const auto& m) { return m.name == v.name; });
      if (s.blocked || s.steps.size() != v.path.size() || !broken)
        unconfirmed = fmt::format("its schedule of {} does not break it", v.name);
      return s;
    } catch (const std::exception& e) {
      unconfirmed = fmt::format("{}: {}", v.name, e.what());
      return replay_schedule(scenario, {}, options.checked);
    }
  };
  std::optional<Schedule> schedule;
  if (r.violation)
    schedule = fifo_schedule(*r.violation);
  std::vector<report::TraceStep> steps;
  if (schedule)
    steps = report::trace(*schedule);
  std::vector<report::OtherViolation> others;
  std::vector<Schedule> other_schedules;
  for (const auto& entry : r.property_results) {
    if (entry.status == checker::PropertyStatus::kViolated && entry.violation &&
        !(r.violation && entry.violation->name == r.violation->name)) {
      other_schedules.push_back(fifo_schedule(*entry.violation));
      others.push_back({&*entry.violation, report::trace(other_schedules.back()), ""});
    }
  }
  if (!unconfirmed.empty()) {
    report::print(err,
                  "preemptcheck: a counterexample of the reduced search is not confirmed by the "
                  "unreduced model ({}): a defect of --reduce={}; nothing is proven, check "
                  "without --reduce\n",
                  unconfirmed, reduction_name(options.reduce));
    return kExitLimit;
  }
  // A file that cannot be written after all (a full disk) costs the file, not the verdict:
  // the result is printed in full, the error named, and the exit code stays the verdict's.
  std::string written;
  std::string write_error;
  if (r.violation && !options.out_dir.empty()) {
    // One file per violated property, each with that property's own counterexample.
    // Every file is tried, and every one that could not be written is named with its reason.
    const auto write = [&](const Schedule& s, const checker::Violation<Action>& v) {
      FoundBy found_by;
      found_by.states = r.stats.states;
      std::string error;
      bool replaced = false;
      auto path = write_counterexample(
          to_counterexample(s, scenario, v.name, found_by, command_line(options)), options.out_dir,
          error, &replaced);
      if (!error.empty())
        write_error += (write_error.empty() ? "" : "; ") + error;
      if (replaced && path)
        warn_replaced(*path, err);
      return path.value_or(std::string());
    };
    written = write(*schedule, *r.violation);
    for (std::size_t i = 0; i < others.size(); ++i)
      others[i].written = write(other_schedules[i], *others[i].violation);
  }
  report::CheckReport shown{scenario, source,          r,       trips,
                            steps,    options.checked, written, std::move(others)};
  shown.write_error = write_error;
  shown.reduction = std::string(reduction_name(options.reduce));
  if (advised_limit(r.limit))
    shown.advice = limit_advice(scenario, options, r);
  if (gated) {
    shown.expectations = &expectations;
    if (!options.junit_path.empty()) {
      // Like a counterexample file, a JUnit report that fails after the search keeps the
      // printed verdict and the gate's exit code.
      if (const auto error = write_file_atomically(
              options.junit_path,
              report::junit_xml(expectations, report::junit_name(scenario), r.stats.seconds))) {
        shown.write_error +=
            (shown.write_error.empty() ? "" : "; ") + fmt::format("the JUnit report: {}", *error);
      }
    }
  }
  if (options.json) {
    report::print_check_json(shown, code, out);
  } else {
    report::print_check_text(shown, out);
  }
  if (!shown.write_error.empty()) {
    report::print(err, "preemptcheck: {}; the verdict above stands (exit {})\n", shown.write_error,
                  code);
  }
  return code;
}

}  // namespace preemptcheck::cli
