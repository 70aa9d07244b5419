// Liveness on the command line: the lasso search and the judgement of a replayed lasso.
#include "cli/liveness_command.h"

#include <fmt/format.h>

#include <ostream>
#include <vector>

#include "cli/liveness_deadline.h"
#include "files/output_file.h"
#include "impl/mechanisms.h"
#include "properties/expectations.h"
#include "properties/liveness_check.h"
#include "report/expectations.h"
#include "report/liveness_report.h"
#include "report/print.h"
#include "spec/liveness.h"

namespace preemptcheck::cli {

int run_liveness_check(const CheckOptions& o, const Scenario& scenario, const std::string& source,
                       const std::string& command, std::ostream& out, std::ostream& err) {
  const std::uint64_t max_states = o.limits.max_states.value_or(kDefaultLivenessStates);
  const TimedLivenessRun timed =
      run_no_starvation(scenario, max_states, o.limits.time_limit_seconds, command, !o.unfair);
  const LivenessRun& run = timed.run;
  report::LivenessReport shown{scenario, source};
  shown.unfair = o.unfair;
  shown.max_states = max_states;
  shown.stats = timed.stats;
  shown.limit = timed.limit;
  if (timed.limit.empty() && run.status == checker::LivenessStatus::kTooManyStates)
    shown.limit = std::string(checker::kMaxStatesLimit);
  if (run.status == checker::LivenessStatus::kModelCapacity) {
    shown.limit = std::string(checker::kModelCapacityLimit);
    shown.limit_detail = run.detail;
  }
  shown.outcome = !shown.limit.empty() ? checker::Outcome::kLimitReached
                  : run.counterexample ? checker::Outcome::kViolated
                                       : checker::Outcome::kHolds;
  if (run.counterexample) {
    shown.lasso = &*run.counterexample;
    if (!o.out_dir.empty()) {
      std::string error;
      bool replaced = false;
      if (const auto path =
              write_counterexample(*run.counterexample, o.out_dir, error, &replaced)) {
        shown.written = *path;
        if (replaced)
          warn_replaced(*path, err);
      } else {
        shown.write_error = error;
      }
    }
  }
  int code = shown.outcome == checker::Outcome::kHolds      ? kExitHolds
             : shown.outcome == checker::Outcome::kViolated ? kExitViolated
                                                            : kExitLimit;
  std::vector<Expectation> expectations;
  const bool gated = !o.expect_violated.empty() || !o.junit_path.empty();
  if (gated) {
    expectations.push_back(report::liveness_expectation(shown, !o.expect_violated.empty()));
    code = expectations_exit_code(expectations);
    shown.expectations = &expectations;
    if (!o.junit_path.empty()) {
      // Like the lasso's file, a JUnit report that fails after the search keeps the printed
      // verdict and the gate's exit code.
      if (const auto error = write_file_atomically(
              o.junit_path, report::junit_xml(expectations, report::junit_name(scenario, o.unfair),
                                              timed.stats.seconds))) {
        shown.write_error +=
            (shown.write_error.empty() ? "" : "; ") + fmt::format("the JUnit report: {}", *error);
      }
    }
  }
  if (o.json) {
    report::print_liveness_json(shown, code, out);
  } else {
    report::print_liveness_text(shown, out);
  }
  if (!shown.write_error.empty()) {
    report::print(err, "preemptcheck: {}; the verdict above stands (exit {})\n", shown.write_error,
                  code);
  }
  return code;
}

std::string lasso_divergence(const Counterexample& cx, const Schedule& schedule) {
  const LassoVerdict v =
      judge_lasso(schedule, *cx.loop, cx.found_by.method != kLivenessUnfairMethod);
  if (!v.returns)
    return fmt::format("the loop after step {} does not return to where it started", *cx.loop);
  if (v.message.empty())
    return fmt::format("no pod starves on the loop: {}", v.why_not);
  if (v.message != cx.message)
    return fmt::format("another pod starves on the loop: {}", v.message);
  return {};
}

LassoReplay replay_lasso(const Counterexample& cx, const Schedule& schedule, bool verified,
                         const std::string& file, std::ostream& out, std::ostream& err) {
  const std::size_t loop = *cx.loop;
  const std::size_t n = schedule.steps.size();
  const bool fairness = cx.found_by.method != kLivenessUnfairMethod;
  const LassoVerdict v = judge_lasso(schedule, loop, fairness);
  LassoReplay r;
  if (!v.returns) {
    r.diverged = n == loop ? fmt::format(
                                 "the run does not stop after step {}: steps are enabled "
                                 "there",
                                 n)
                           : fmt::format(
                                 "the loop does not return: the state after step {} is "
                                 "not the one after step {}",
                                 n, loop);
    report::print(err, "preemptcheck replay: {}:{}:{}: {}\n", file, cx.loop_line, cx.loop_column,
                  r.diverged);
    report::print(out, "result         {} (exit 2)\n", r.diverged);
    return r;
  }
  const std::string where =
      n == loop ? fmt::format("the run stops after step {}", n)
      : n == loop + 1
          ? fmt::format("step {} returns to the state after step {}", n, loop)
          : fmt::format("steps {}-{} return to the state after step {}", loop + 1, n, loop);
  if (v.message.empty()) {
    if (verified) {
      r.diverged = fmt::format("{}, but no pod starves on it: {}", where, v.why_not);
      report::print(err, "preemptcheck replay: {}: diverged: {}\n", file, r.diverged);
      report::print(out, "result         diverged: {} (exit 2)\n", r.diverged);
      return r;
    }
    report::print(out, "result         {}; no-starvation holds on this loop: {} (exit 0)\n", where,
                  v.why_not);
    r.exit_code = kExitHolds;
    return r;
  }
  if (verified && v.message != cx.message) {
    r.diverged = fmt::format("{}, but another pod starves on it: {}", where, v.message);
    report::print(err, "preemptcheck replay: {}: diverged: {}\n", file, r.diverged);
    report::print(out, "result         diverged: {} (exit 2)\n", r.diverged);
    return r;
  }
  report::print(out, "result         {} the recorded violation of {}: {}; {} (exit 1)\n",
                verified ? "reproduced" : "still breaks", cx.property, where, v.message);
  r.exit_code = kExitViolated;
  return r;
}

}  // namespace preemptcheck::cli
