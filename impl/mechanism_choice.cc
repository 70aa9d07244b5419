// Mechanism choice: a profile and switches applied to a scenario (mechanism_choice.h).
#include "impl/mechanism_choice.h"

#include <fmt/format.h>

namespace preemptcheck {

std::optional<std::string> apply_choice(Scenario& scenario, const MechanismChoice& choice,
                                        std::vector<std::string>* notes) {
  if (choice.profile) {
    std::string name = *choice.profile;
    for (const ProfileAlias& a : profile_aliases()) {
      if (a.name != name)
        continue;
      if (notes != nullptr)
        notes->push_back(fmt::format("profile {} is {} here: {}", a.name, a.profile, a.reason));
      name = std::string(a.profile);
    }
    auto m = profile(name);
    if (!m) {
      std::string names;
      for (auto n : profile_names())
        names += (names.empty() ? "" : ", ") + std::string(n);
      for (const ProfileAlias& a : profile_aliases())
        names += fmt::format(", {} (= {})", a.name, a.profile);
      return fmt::format("unknown profile '{}'; expected one of: {}", *choice.profile, names);
    }
    scenario.profile = name;
    scenario.mechanisms = *m;
  }
  for (const auto& [name, value] : choice.switches) {
    const Mechanisms before = scenario.mechanisms;
    if (auto error = set_mechanism(scenario.mechanisms, name, value))
      return error;
    if (notes != nullptr && scenario.mechanisms == before) {
      notes->push_back(
          fmt::format("--{}={} changes nothing: {} already sets it", name, value,
                      choice.profile ? "profile " + *choice.profile : std::string("the input")));
    }
  }
  return std::nullopt;
}

}  // namespace preemptcheck
