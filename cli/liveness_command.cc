// Liveness on the command line: the lasso search and the judgement of a replayed lasso.
#include "cli/liveness_command.h"

#include <fmt/format.h>

#include <ostream>

#include "impl/mechanisms.h"
#include "properties/liveness_check.h"
#include "report/print.h"
#include "spec/liveness.h"

namespace preemptcheck::cli {

int run_liveness_check(const CheckOptions& o, const Scenario& scenario, const std::string& source,
                       const std::string& command, std::ostream& out, std::ostream& err) {
  const std::uint64_t max_states = o.limits.max_states.value_or(kDefaultLivenessStates);
  const LivenessRun run = check_no_starvation(scenario, max_states, command, !o.unfair);
  report::print(out, "scenario   {} ({})\n", scenario.name, source);
  report::print(out, "mechanisms {}\n", describe(scenario.mechanisms, scenario.profile));
  report::print(out, "liveness   {}, {}\n", spec::kNoStarvation,
                o.unfair ? "without fairness: every loop counts, even one that neglects the "
                           "scheduler's own steps"
                         : "under weak fairness of the scheduler's, the informer's and the "
                           "kubelet's steps (faults, arrivals and other components may stop)");
  if (run.status == checker::LivenessStatus::kTooManyStates) {
    report::print(out,
                  "result     limit reached: the graph has more than {} states; nothing is proven "
                  "(exit 3)\n",
                  max_states);
    return kExitLimit;
  }
  if (run.status == checker::LivenessStatus::kModelCapacity) {
    report::print(out,
                  "result     limit reached: the model's bounded storage is full ({}); nothing is "
                  "proven (exit 3)\n",
                  run.detail);
    return kExitLimit;
  }
  report::print(out, "explored   {} states, {} transitions: the whole graph\n", run.states,
                run.transitions);
  if (!run.counterexample) {
    report::print(out,
                  "result     no-starvation holds: no {}loop of the graph starves a pod (exit 0)\n",
                  o.unfair ? "" : "fair ");
    return kExitHolds;
  }
  const Counterexample& cx = *run.counterexample;
  const std::size_t loop = *cx.loop;
  report::print(out, "result     VIOLATED {}: {}\n", cx.property, cx.message);
  report::print(
      out, "lasso ({} steps: a shortest prefix of {}, then a loop of {} that repeats forever):\n",
      cx.steps.size(), loop, cx.steps.size() - loop);
  for (std::size_t i = 0; i <= cx.steps.size(); ++i) {
    if (i == loop) {
      report::print(out, "  {}\n",
                    i == cx.steps.size() ? "the run stops here for good: nothing is enabled"
                                         : "---- the loop: the steps below repeat forever");
    }
    if (i < cx.steps.size())
      report::print(out, "  {:>3}. {}  # {}\n", i + 1, cx.steps[i].text, cx.steps[i].comment);
  }
  if (!o.out_dir.empty()) {
    std::string error;
    if (const auto path = write_counterexample(cx, o.out_dir, error)) {
      report::print(out, "wrote      {}\nreplay     preemptcheck replay {}\n", *path, *path);
    } else {
      report::print(err, "preemptcheck: {}; the verdict above stands (exit 1)\n", error);
    }
  }
  report::print(out, "(exit 1)\n");
  return kExitViolated;
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
