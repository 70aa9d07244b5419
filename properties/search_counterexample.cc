// Search counterexamples: the counterexample files of `search`'s findings, each built from
// the replay of its schedule (properties/schedule.h), never from a made-up explorer result.
#include "properties/search_counterexample.h"

#include <fmt/format.h>

namespace preemptcheck {
namespace {

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// The counterexample's scenario: named after the search, described by how it was found.
Scenario named(Scenario s, bool stateful, std::uint64_t seed, const std::string& command) {
  s.name = fmt::format("{}-{}", stateful ? "stateful" : "search", seed);
  s.description = fmt::format("generated and shrunk by `{}`", command);
  return s;
}

}  // namespace

std::string figures(const Scenario& s, std::size_t steps) {
  return fmt::format("{}, {}, {}", plural(s.nodes.size(), "node"), plural(s.pods.size(), "pod"),
                     plural(steps, "step"));
}

Counterexample search_counterexample(const FailingCluster& found, const FailingCluster& shrunk,
                                     const CheckedProperties& checked, std::uint64_t seed,
                                     std::string command) {
  const Scenario scenario = named(shrunk.scenario, false, seed, command);
  FoundBy found_by;
  found_by.method = "rapidcheck";
  found_by.shortest = true;  // the breadth-first shortest schedule of the shrunk cluster
  found_by.states = shrunk.result.stats.states;
  found_by.seed = seed;
  found_by.shrunk = fmt::format("{} -> {}", figures(found.scenario, found.steps()),
                                figures(shrunk.scenario, shrunk.steps()));
  const auto& v = *shrunk.result.violation;
  return to_counterexample(replay_schedule(scenario, v.path, checked), scenario, v.name,
                           std::move(found_by), std::move(command));
}

Counterexample stateful_counterexample(const BrokenSchedule& found, const BrokenSchedule& shrunk,
                                       const CheckedProperties& checked, std::uint64_t seed,
                                       std::string command) {
  const Scenario scenario = named(shrunk.scenario, true, seed, command);
  FoundBy found_by;
  found_by.method = "rapidcheck-stateful";
  found_by.shortest = false;
  found_by.states = 0;
  found_by.seed = seed;
  found_by.shrunk = fmt::format("{} -> {}", figures(found.scenario, found.steps.size()),
                                figures(shrunk.scenario, shrunk.steps.size()));
  return to_counterexample(replay_schedule(scenario, shrunk.steps, checked), scenario,
                           shrunk.property, std::move(found_by), std::move(command));
}

}  // namespace preemptcheck
