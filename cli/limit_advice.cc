// Advice at a limit: the level sizes from the result, the measurements by short searches.
#include "cli/limit_advice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "impl/mechanisms.h"

#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck::cli {
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
std::uint64_t measure(const Scenario& scenario, const CheckOptions& o, Reduction r,
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

std::string times(double x) { return fmt::format("×{:.2f}", x); }

}  // namespace

bool advised_limit(std::string_view limit) {
  return limit == checker::kMaxStatesLimit || limit == checker::kTimeLimit ||
         limit == checker::kMemoryLimit || limit == checker::kOutOfMemory;
}

std::vector<std::pair<std::string, std::string>> limit_advice(const Scenario& scenario,
                                                              const CheckOptions& o,
                                                              const checker::Result<Action>& r) {
  std::vector<std::pair<std::string, std::string>> out;
  // The completed levels: each level's first id to the next's.
  const auto& starts = r.level_starts;
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i + 1 < starts.size(); ++i)
    sizes.push_back(starts[i + 1] - starts[i]);
  // The deepest level is whole when the search stopped while expanding it (a time or memory
  // limit stops between levels or drops the level under way); --max-states cuts it.
  if (!starts.empty() && r.limit != checker::kMaxStatesLimit)
    sizes.push_back(r.stats.states - starts.back());
  if (sizes.empty())
    return out;
  const std::size_t shown = std::min<std::size_t>(sizes.size(), 6);
  std::string levels = fmt::format("depth 0 to {} completed;", sizes.size() - 1);
  for (std::size_t i = sizes.size() - shown; i < sizes.size(); ++i) {
    levels += fmt::format(" {}: {}", i, sizes[i]);
    if (i > 0 && sizes[i - 1] > 0)
      levels += fmt::format(
          " ({})", times(static_cast<double>(sizes[i]) / static_cast<double>(sizes[i - 1])));
  }
  out.emplace_back("levels", levels);
  // The growth: the geometric mean of the last three levels' factors.
  const std::size_t k = std::min<std::size_t>(3, sizes.size() - 1);
  if (k > 0 && sizes[sizes.size() - 1 - k] > 0) {
    const double g = std::pow(
        static_cast<double>(sizes.back()) / static_cast<double>(sizes[sizes.size() - 1 - k]),
        1.0 / static_cast<double>(k));
    const double last = static_cast<double>(sizes.back());
    if (g >= 1.0) {
      out.emplace_back(
          "estimate",
          fmt::format("an estimate from the last {} levels' growth ({} a level): the next level "
                      "alone would hold about {:.0f} states; the levels still grow, so the rest "
                      "of the space cannot be bounded from them",
                      k, times(g), last * g));
    } else {
      out.emplace_back(
          "estimate",
          fmt::format("an estimate from the last {} levels' growth ({} a level, shrinking): "
                      "about {:.0f} states remain, if the levels keep shrinking so",
                      k, times(g), last * g / (1.0 - g)));
    }
  }
  // The deepest completed level whose states fit the measuring searches.
  std::optional<std::uint32_t> depth;
  for (std::size_t d = 1; d < sizes.size(); ++d) {
    if (up_to(sizes, d) <= kMeasureStates)
      depth = static_cast<std::uint32_t>(d);
  }
  if (depth) {
    const std::uint64_t here = up_to(sizes, *depth);
    const auto compare = [&](std::uint64_t there, const std::string& option,
                             const std::string& what) {
      const double ratio =
          there == 0 ? 0.0 : static_cast<double>(here) / static_cast<double>(there);
      const std::string words = fmt::format(
          "to depth {} it stores {} states where this search stored {} ({:.1f}× {})", *depth, there,
          here, ratio >= 1.0 ? ratio : 1.0 / ratio, ratio >= 1.0 ? "fewer" : "more");
      out.emplace_back(ratio >= 1.2 ? "advice" : "measured",
                       fmt::format("{}{}: {}", option, what, words));
    };
    if (o.reduce == Reduction::kNone) {
      compare(measure(scenario, o, Reduction::kWatchOrder, *depth), "--reduce=watch-order", "");
      compare(measure(scenario, o, Reduction::kSymmetry, *depth), "--reduce=symmetry", "");
      compare(measure(scenario, o, Reduction::kWatchOrderSymmetry, *depth),
              "--reduce=watch-order,symmetry", "");
    }
    if (mechanism_value(scenario.mechanisms, "api-calls") == "dispatched") {
      Scenario direct = scenario;
      set_mechanism(direct.mechanisms, "api-calls", "direct");
      compare(measure(direct, o, o.reduce, *depth), "--api-calls=direct",
              " (this run's api-calls=dispatched makes every status patch and binding a step "
              "of its own; without it the model answers for kube-scheduler without "
              "SchedulerAsyncAPICalls)");
    }
  }
  const std::uint32_t walk = std::max<std::uint32_t>(100, 2 * r.stats.depth);
  out.emplace_back("advice",
                   fmt::format("--simulate 10000 --simulate-depth {}: random walks past the depth "
                               "this search reached ({}); they find violations and prove nothing",
                               walk, r.stats.depth));
  std::size_t safety = 0;
  for (const spec::PropertyDef& d : spec::property_table())
    safety += !d.is_witness && o.checked.test(static_cast<std::size_t>(d.id)) ? 1 : 0;
  if (safety > 1) {
    out.emplace_back("advice",
                     "--property NAME: a search for one property ends as soon as that one is "
                     "violated");
  }
  return out;
}

}  // namespace preemptcheck::cli
