// The explorers' result types and helpers that do not depend on the model
// (checker/explore_types.h, checker/explore_result.h).
#include "checker/explore_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "checker/explore_result.h"
#include "checker/peak_memory.h"

namespace preemptcheck::checker {

std::string_view outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kHolds:
      return "holds";
    case Outcome::kViolated:
      return "violated";
    case Outcome::kLimitReached:
      return "limit-reached";
  }
  return "unknown";
}

std::string_view property_status_name(PropertyStatus status) {
  switch (status) {
    case PropertyStatus::kHolds:
      return "holds";
    case PropertyStatus::kViolated:
      return "violated";
    case PropertyStatus::kIncomplete:
      return "incomplete";
    case PropertyStatus::kWitness:
      return "witness";
  }
  return "unknown";
}

std::vector<std::string> Summary::unreached_witnesses() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < properties.size(); ++i) {
    if (properties[i].kind == PropertyKind::kSometimes && !(i < reached.size() && reached[i])) {
      names.push_back(properties[i].name);
    }
  }
  return names;
}

std::uint32_t Summary::depth_of(std::uint32_t id) const {
  const auto after = std::upper_bound(level_starts.begin(), level_starts.end(), id);
  return after == level_starts.begin()
             ? 0
             : static_cast<std::uint32_t>(after - level_starts.begin() - 1);
}

namespace detail {

Stats make_stats(std::uint64_t states, std::uint64_t transitions, std::uint32_t depth,
                 double seconds) {
  Stats stats;
  stats.states = states;
  stats.transitions = transitions;
  stats.depth = depth;
  stats.seconds = seconds;
  stats.states_per_second = seconds > 0 ? static_cast<double>(states) / seconds : 0;
  stats.peak_rss_bytes = peak_rss_bytes();
  const double n = static_cast<double>(states);
  const double generated = static_cast<double>(transitions) + 1.0;
  stats.collision_probability = n * (n - 1.0) / 0x1p65;
  stats.collision_probability_optimistic = std::max(0.0, n * (generated - n) / 0x1p64);
  return stats;
}

Verdict make_verdict(const Observation& obs, const std::vector<PropertyInfo>& properties) {
  const auto name_of = [&](std::size_t property) -> const std::string& {
    if (property >= properties.size()) {
      throw_unknown_property(property, properties.size());
    }
    return properties[property].name;
  };
  Verdict verdict;
  const auto& [first, message] = obs.violated.front();
  verdict.property = first;
  verdict.name = name_of(first);
  verdict.message = message;
  std::vector<std::size_t> seen = {first};
  for (const auto& [property, other_message] : obs.violated) {
    if (std::find(seen.begin(), seen.end(), property) != seen.end()) {
      continue;
    }
    seen.push_back(property);
    verdict.also_violated.push_back({name_of(property), other_message});
  }
  return verdict;
}

void throw_unknown_property(std::size_t property, std::size_t count) {
  throw std::out_of_range(
      fmt::format("model reported property {} but has only {} properties", property, count));
}

}  // namespace detail
}  // namespace preemptcheck::checker
