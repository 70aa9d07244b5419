// A `replay` as a value (replay_run.h).
#include "properties/replay_run.h"

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "properties/recorded.h"
#include "spec/property.h"

namespace preemptcheck {
namespace {

// Whether `findings` break `property` (any property, when empty).
bool breaks(const spec::Findings& findings, std::string_view property) {
  for (const auto& found : findings.violated) {
    if (property.empty() || spec::property_def(found.first).name == property)
      return true;
  }
  return false;
}

// Whether `property` (any property, when empty) breaks in the initial state or at a step.
bool breaks(const Schedule& schedule, std::string_view property) {
  if (breaks(schedule.initial_findings, property))
    return true;
  for (const ScheduleStep& step : schedule.steps) {
    if (breaks(step.findings, property))
      return true;
  }
  return false;
}

}  // namespace

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

LassoReplay replay_lasso(const Counterexample& cx, const Schedule& schedule, bool verified) {
  const std::size_t loop = *cx.loop;
  const std::size_t n = schedule.steps.size();
  LassoReplay r;
  r.verified = verified;
  r.verdict = judge_lasso(schedule, loop, cx.found_by.method != kLivenessUnfairMethod);
  const LassoVerdict& v = r.verdict;
  if (!v.returns) {
    r.diverged = n == loop ? fmt::format(
                                 "the run does not stop after step {}: steps are enabled "
                                 "there",
                                 n)
                           : fmt::format(
                                 "the loop does not return: the state after step {} is "
                                 "not the one after step {}",
                                 n, loop);
    return r;
  }
  r.where = n == loop ? fmt::format("the run stops after step {}", n)
            : n == loop + 1
                ? fmt::format("step {} returns to the state after step {}", n, loop)
                : fmt::format("steps {}-{} return to the state after step {}", loop + 1, n, loop);
  if (v.message.empty()) {
    if (verified) {
      r.diverged = fmt::format("{}, but no pod starves on it: {}", r.where, v.why_not);
      return r;
    }
    r.exit_code = 0;
    return r;
  }
  if (verified && v.message != cx.message) {
    r.diverged = fmt::format("{}, but another pod starves on it: {}", r.where, v.message);
    return r;
  }
  r.exit_code = 1;
  return r;
}

ReplayRun replay_counterexample(const Counterexample& cx, const Scenario& run,
                                const std::string& file) {
  const bool overridden = run.mechanisms != cx.scenario.mechanisms;
  // A file with no digest (written by hand), or with a step that has no fingerprint, is
  // unverified: its steps are replayed, its property (if it names one) judged as under
  // overridden switches, and nothing in it is reproduced — without every fingerprint a step
  // added, dropped or swapped would go unnoticed, whatever the digest says.
  const bool unverified = is_unverified(cx);
  const bool verified = !overridden && !unverified;
  std::vector<Action> actions;
  for (const CounterexampleStep& s : cx.steps)
    actions.push_back(s.action);
  Schedule schedule = replay_schedule(run, actions);
  ReplayRun r{overridden, unverified, std::move(actions), std::move(schedule)};
  if (!r.overridden) {
    for (std::size_t i = 0; i < r.schedule.steps.size(); ++i) {
      if (std::string d = fingerprint_divergence(cx, r.schedule, i, file); !d.empty()) {
        r.fingerprint_differs = i + 1;
        r.fingerprint_difference = std::move(d);
        r.diverged = fmt::format("the fingerprint differs at step {}", i + 1);
        return r;
      }
    }
  }
  if (const auto& b = r.schedule.blocked) {
    if (r.overridden)
      r.blocker = blocking_switches(run, cx.scenario.mechanisms, r.actions, b->number);
    r.diverged = fmt::format("step {} is not enabled", b->number);
    return r;
  }
  if (cx.loop) {
    r.lasso = replay_lasso(cx, r.schedule, verified);
    r.diverged = r.lasso->diverged;
    r.exit_code = r.lasso->exit_code;
    return r;
  }
  if (verified) {
    r.diverged = divergence(cx, r.schedule);
    r.met = met_on_the_way(cx, r.schedule);
  }
  r.exit_code = !r.diverged.empty() ? 2 : breaks(r.schedule, cx.property) ? 1 : 0;
  return r;
}

}  // namespace preemptcheck
