// What a stopped search saw, and the measuring searches (limit_measures.h).
#include "properties/limit_measures.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "impl/mechanisms.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

// The measuring searches store at most this many states up to the depth they compare.
constexpr std::uint64_t kMeasureStates = 100'000;

// The states up to and including depth d of `sizes`.
std::uint64_t up_to(const std::vector<std::uint64_t>& sizes, std::size_t d) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i <= d && i < sizes.size(); ++i)
    n += sizes[i];
  return n;
}

// The states a search of `scenario` under reduction `r` stores to depth `depth`.
std::uint64_t measure(const Scenario& scenario, const CheckRequest& o, Reduction r,
                      std::uint32_t depth) {
  WorldModel model(std::make_shared<const Cluster>(scenario), o.checked);
  model.reduce(r);
  checker::Limits limits;
  limits.max_states = kMeasureStates * 4;
  limits.max_depth = depth;
  // Every state to the depth, as the stopped search counted them: violations do not stop it.
  checker::ExploreOptions<Action> opts;
  opts.stop_at_violation = false;
  opts.threads = effective_threads(o.threads);
  return explore_world(model, limits, opts).stats.states;
}

}  // namespace

bool advised_limit(std::string_view limit) {
  return limit == checker::kMaxStatesLimit || limit == checker::kTimeLimit ||
         limit == checker::kMemoryLimit || limit == checker::kOutOfMemory;
}

LimitMeasures measure_limit(const Scenario& scenario, const CheckRequest& o,
                            const checker::Result<Action>& r) {
  LimitMeasures out;
  // The completed levels: each level's first id to the next's.
  const auto& starts = r.level_starts;
  std::vector<std::uint64_t>& sizes = out.sizes;
  for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    sizes.push_back(starts[i + 1] - starts[i]);
  // The deepest level is whole when the search stopped while expanding it (a time or memory
  // limit stops between levels or drops the level under way); --max-states cuts it.
  if (!starts.empty() && r.limit != checker::kMaxStatesLimit)
    sizes.push_back(r.stats.states - starts.back());
  if (sizes.empty())
    return out;
  // The growth: the geometric mean of the last three levels' factors.
  const std::size_t k = std::min<std::size_t>(3, sizes.size() - 1);
  if (k > 0 && sizes[sizes.size() - 1 - k] > 0) {
    out.growth_levels = k;
    out.growth = std::pow(
        static_cast<double>(sizes.back()) / static_cast<double>(sizes[sizes.size() - 1 - k]),
        1.0 / static_cast<double>(k));
  }
  // The deepest completed level whose states fit the measuring searches.
  for (std::size_t d = 1; d < sizes.size(); ++d) {
    if (up_to(sizes, d) <= kMeasureStates)
      out.depth = static_cast<std::uint32_t>(d);
  }
  if (out.depth) {
    out.here = up_to(sizes, *out.depth);
    if (o.reduce == Reduction::kNone) {
      out.measured.push_back(
          {MeasuredOption::kWatchOrder, measure(scenario, o, Reduction::kWatchOrder, *out.depth)});
      out.measured.push_back(
          {MeasuredOption::kSymmetry, measure(scenario, o, Reduction::kSymmetry, *out.depth)});
      out.measured.push_back({MeasuredOption::kWatchOrderSymmetry,
                              measure(scenario, o, Reduction::kWatchOrderSymmetry, *out.depth)});
    }
    if (mechanism_value(scenario.mechanisms, "api-calls") == "dispatched") {
      Scenario direct = scenario;
      set_mechanism(direct.mechanisms, "api-calls", "direct");
      out.measured.push_back(
          {MeasuredOption::kDirectApiCalls, measure(direct, o, o.reduce, *out.depth)});
    }
  }
  out.reached = r.stats.depth;
  for (const spec::PropertyDef& d : spec::property_table())
    out.safety_count += !d.is_witness && o.checked.test(static_cast<std::size_t>(d.id)) ? 1 : 0;
  return out;
}

}  // namespace preemptcheck
