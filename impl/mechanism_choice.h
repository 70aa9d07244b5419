// Mechanism choice: how the mechanisms of a run are chosen on top of a scenario — a profile,
// then switches in order — as the command line and the pinned scenario suites give them.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "impl/scenario.h"

namespace preemptcheck {

/// How the mechanisms of a run are chosen: the scenario's own profile and switches, unless
/// a profile is named; then the switches given, in order.
struct MechanismChoice {
  std::optional<std::string> profile;
  std::vector<std::pair<std::string, std::string>> switches;
};

/// Applies a MechanismChoice to a loaded scenario: the profile, then every switch in order,
/// whatever their order on the command line. Returns an error message when a name or value is
/// unknown. A switch that changes nothing (the profile or the file already sets that value)
/// is not an error: it gets a note in `notes`, when given.
std::optional<std::string> apply_choice(Scenario& scenario, const MechanismChoice& choice,
                                        std::vector<std::string>* notes = nullptr);

}  // namespace preemptcheck
