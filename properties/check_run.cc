// A `check` as a value (check_run.h).
#include "properties/check_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "checker/explore_failure.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

// The limits the search runs under: the request's, with the signal flag and the memory bound.
checker::Limits search_limits(const CheckRequest& request, const CheckHooks& hooks) {
  checker::Limits limits = request.limits;
  limits.interrupt = hooks.interrupt;
  limits.max_memory_bytes = request.max_memory ? *request.max_memory : default_max_memory();
  if (limits.max_memory_bytes == std::optional<std::uint64_t>(0))
    limits.max_memory_bytes.reset();
  return limits;
}

// Every counterexample is the schedule's replay of a violation's path — under --reduce
// watch-order, of the FIFO schedule it stands for; with per-property results each violated
// property has its own. Under --reduce=watch-order a counterexample's FIFO schedule is checked
// here: every step enabled, and the property broken at its last step. A schedule that fails is
// a defect of the reduction (never seen): nothing is proven, and the run says so in
// `unconfirmed` rather than show it.
void replay_violations(const CheckRequest& request, const Scenario& scenario,
                       const WorldModel& model, CheckRun& run) {
  const auto fifo_schedule = [&](const checker::Violation<Action>& v) {
    try {
      Schedule s = replay_schedule(scenario, model.fifo_schedule(v.path), request.checked);
      const auto& last = s.violated_at(s.steps.size());
      const bool broken =
          std::any_of(last.begin(), last.end(), [&](const auto& m) { return m.name == v.name; });
      if (s.blocked || s.steps.size() != v.path.size() || !broken)
        run.unconfirmed = fmt::format("its schedule of {} does not break it", v.name);
      return s;
    } catch (const std::exception& e) {
      run.unconfirmed = fmt::format("{}: {}", v.name, e.what());
      return replay_schedule(scenario, {}, request.checked);
    }
  };
  const checker::Result<Action>& r = run.result;
  if (r.violation)
    run.schedule = fifo_schedule(*r.violation);
  for (std::size_t i = 0; i < r.property_results.size(); ++i) {
    const auto& entry = r.property_results[i];
    if (entry.status == checker::PropertyStatus::kViolated && entry.violation &&
        !(r.violation && entry.violation->name == r.violation->name)) {
      run.others.push_back({i, fifo_schedule(*entry.violation)});
    }
  }
}

}  // namespace

CheckRun run_check(const CheckRequest& request, const Scenario& scenario, const Ranks& ranks,
                   const CheckHooks& hooks) {
  WorldModel model(std::make_shared<const Cluster>(scenario), request.checked);
  model.reduce(request.reduce);
  checker::ExploreOptions<Action> explore_options;
  // Under mpirun every rank takes one thread unless --threads says how many (docs/mpi.md).
  explore_options.threads =
      request.threads == 0 && ranks.distributed() ? 1U : effective_threads(request.threads);
  explore_options.per_property = !request.stop_at_first;
  explore_options.progress = hooks.progress;
  // Distributed check (docs/mpi.md): under mpirun every rank searches its part; the lead alone
  // replays the schedules, the others return the same exit status.
  CheckRun run;
  try {
    run.result = explore_world_auto(model, search_limits(request, hooks), explore_options);
  } catch (const checker::RankFailure& e) {
    run.failure = e.what();
    return run;
  }
  // Each rank saw the cycles of the states it expanded: the peaks are the largest of all.
  run.trips = model.peak_round_trips();
  run.trips.sync = ranks.largest(run.trips.sync);
  run.trips.async = ranks.largest(run.trips.async);
  const checker::Outcome outcome = run.result.outcome;
  run.exit_code = outcome == checker::Outcome::kHolds      ? 0
                  : outcome == checker::Outcome::kViolated ? 1
                                                           : 3;
  if (request.gated()) {
    run.expectations = judge_expectations(run.result, request.checked, request.expect_violated);
    run.exit_code = expectations_exit_code(run.expectations);
  }
  if (ranks.is_lead())
    replay_violations(request, scenario, model, run);
  return run;
}

}  // namespace preemptcheck
