// Advice at a limit in words (limit_advice.h).
#include "report/limit_advice.h"

#include <fmt/format.h>

#include <algorithm>

namespace preemptcheck::report {
namespace {

std::string times(double x) { return fmt::format("×{:.2f}", x); }

// The option's words: its flag, and why it is measured when that is not plain.
std::pair<std::string, std::string> option_words(MeasuredOption option) {
  switch (option) {
    case MeasuredOption::kWatchOrder:
      return {"--reduce=watch-order", ""};
    case MeasuredOption::kSymmetry:
      return {"--reduce=symmetry", ""};
    case MeasuredOption::kWatchOrderSymmetry:
      return {"--reduce=watch-order,symmetry", ""};
    case MeasuredOption::kDirectApiCalls:
      break;
  }
  return {"--api-calls=direct",
          " (this run's api-calls=dispatched makes every status patch and binding a step of its "
          "own; without it the model answers for kube-scheduler without "
          "SchedulerAsyncAPICalls)"};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> limit_advice(const LimitMeasures& m) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::vector<std::uint64_t>& sizes = m.sizes;
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
  if (m.growth_levels > 0) {
    const double g = m.growth;
    const double last = static_cast<double>(sizes.back());
    if (g >= 1.0) {
      out.emplace_back(
          "estimate",
          fmt::format("an estimate from the last {} levels' growth ({} a level): the next level "
                      "alone would hold about {:.0f} states; the levels still grow, so the rest "
                      "of the space cannot be bounded from them",
                      m.growth_levels, times(g), last * g));
    } else {
      out.emplace_back(
          "estimate",
          fmt::format("an estimate from the last {} levels' growth ({} a level, shrinking): "
                      "about {:.0f} states remain, if the levels keep shrinking so",
                      m.growth_levels, times(g), last * g / (1.0 - g)));
    }
  }
  for (const LimitMeasures::Measured& measured : m.measured) {
    const std::uint64_t there = measured.states;
    const double ratio =
        there == 0 ? 0.0 : static_cast<double>(m.here) / static_cast<double>(there);
    const std::string words = fmt::format(
        "to depth {} it stores {} states where this search stored {} ({:.1f}× {})", *m.depth, there,
        m.here, ratio >= 1.0 ? ratio : 1.0 / ratio, ratio >= 1.0 ? "fewer" : "more");
    const auto [option, what] = option_words(measured.option);
    out.emplace_back(ratio >= 1.2 ? "advice" : "measured",
                     fmt::format("{}{}: {}", option, what, words));
  }
  const std::uint32_t walk = std::max<std::uint32_t>(100, 2 * m.reached);
  out.emplace_back("advice",
                   fmt::format("--simulate 10000 --simulate-depth {}: random walks past the depth "
                               "this search reached ({}); they find violations and prove nothing",
                               walk, m.reached));
  if (m.safety_count > 1) {
    out.emplace_back("advice",
                     "--property NAME: a search for one property ends as soon as that one is "
                     "violated");
  }
  return out;
}

}  // namespace preemptcheck::report
