// What a search stopped by --max-states, --time-limit or the memory bound saw — each
// breadth-first level's size and growth — and what the options that could help would store on
// this scenario, each measured by a short search to a depth the stopped one completed, not
// assumed. report/limit_advice.h says it as advice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/check_request.h"

namespace preemptcheck {

/// Whether `limit` is one the measures are for: a state, time or memory limit.
bool advised_limit(std::string_view limit);

/// An option measured by a short search.
enum class MeasuredOption {
  kWatchOrder,          ///< --reduce=watch-order
  kSymmetry,            ///< --reduce=symmetry
  kWatchOrderSymmetry,  ///< --reduce=watch-order,symmetry
  kDirectApiCalls,      ///< --api-calls=direct, for a run with api-calls=dispatched
};

struct LimitMeasures {
  /// The states of each completed level (the deepest is whole unless --max-states cut it);
  /// empty when no level was completed, and the rest is empty then too.
  std::vector<std::uint64_t> sizes;
  /// The levels' growth a level: the geometric mean of the last `growth_levels` levels'
  /// factors; growth_levels 0 when there are too few levels to tell.
  std::size_t growth_levels = 0;
  double growth = 0;
  /// The deepest completed level whose states fit the measuring searches, and the states the
  /// stopped search stored up to it; unset when none fits.
  std::optional<std::uint32_t> depth;
  std::uint64_t here = 0;
  /// Each option measured to `depth`, with the states it stores there.
  struct Measured {
    MeasuredOption option;
    std::uint64_t states = 0;
  };
  std::vector<Measured> measured;
  std::uint32_t reached = 0;     ///< the depth the stopped search reached
  std::size_t safety_count = 0;  ///< the safety properties it checked
};

/// The measures of a search of `scenario` under `request` that stopped with `result` at an
/// advised limit. The measuring searches take at most a few seconds.
LimitMeasures measure_limit(const Scenario& scenario, const CheckRequest& request,
                            const checker::Result<Action>& result);

}  // namespace preemptcheck
