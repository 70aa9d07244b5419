// A `check` as a value: a CheckRequest and its loaded scenario in, a CheckRun out — the
// breadth-first search on every rank, the peaks over the ranks, the gate's expectations judged,
// and on the lead each violation's schedule replayed (under --reduce=watch-order, the FIFO
// schedule it stands for, confirmed on the unreduced model). The command writes the files and
// report/check_report.h prints the run.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/check_request.h"
#include "properties/expectations.h"
#include "properties/ranks.h"
#include "properties/schedule.h"
#include "spec/round_trips.h"

namespace preemptcheck {

/// What the search is told beyond the request: a flag a signal sets to stop it at its next safe
/// point, and what to call with each progress report (none: no progress).
struct CheckHooks {
  const std::atomic<int>* interrupt = nullptr;
  std::function<void(const checker::Stats&)> progress;
};

/// A violated property other than the first (result.violation), with its replayed schedule.
struct OtherSchedule {
  std::size_t entry = 0;  ///< its index in result.property_results
  Schedule schedule;
};

struct CheckRun {
  checker::Result<Action> result;
  spec::BlockingRoundTrips trips;         ///< the peak blocking round trips over every rank
  std::vector<Expectation> expectations;  ///< judged when the request is gated
  /// 0: every checked property holds; 1: one is violated; 3: a limit stopped the search —
  /// or, when gated, expectations_exit_code() of the expectations. The same on every rank.
  int exit_code = 0;
  /// Why the ranks gave up (a rank failed); the rest is empty then.
  std::string failure;
  /// On the lead: the first violation's schedule, and each other violated property's.
  std::optional<Schedule> schedule;
  std::vector<OtherSchedule> others;
  /// On the lead: why a schedule does not break its property on the unreduced model (a defect
  /// of the reduction); empty when every one does.
  std::string unconfirmed;
};

/// Searches `scenario` (the request's, mechanisms applied) for the safety properties as
/// `request` asks: its limits with the memory bound (default_max_memory() unless given), its
/// threads (one a rank under mpirun unless --threads says), its reduction, one result per
/// property unless --stop-at-first.
CheckRun run_check(const CheckRequest& request, const Scenario& scenario, const Ranks& ranks,
                   const CheckHooks& hooks);

}  // namespace preemptcheck
