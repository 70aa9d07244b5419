// What the tests of the reductions share (properties/symmetry_test.cc, the watch order's and
// the independence census): a cluster under a profile, each property's verdict and witness of
// a search, and a counterexample replayed step by step in the unreduced model.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck::reduction_testing {

// A committed scenario's path, or a scenario's text (it starts with `name:`), under `profile`.
inline std::shared_ptr<const Cluster> cluster_of(const std::string& path,
                                                 const std::string& profile) {
  Scenario s =
      path.starts_with("name:") ? load_scenario_text(path, "test.yaml") : load_scenario_file(path);
  MechanismChoice choice;
  choice.profile = profile;
  const auto error = apply_choice(s, choice);
  EXPECT_FALSE(error.has_value()) << error.value_or("");
  return std::make_shared<const Cluster>(s);
}

// Each property's verdict, and the witnesses reached when the whole space was searched (a
// search that stops because every property is violated has not looked everywhere).
inline std::map<std::string, std::string> verdicts(const checker::Result<Action>& r) {
  std::map<std::string, std::string> out;
  bool whole = r.outcome == checker::Outcome::kHolds;
  for (std::size_t i = 0; i < r.property_results.size(); ++i) {
    if (r.properties[i].kind == checker::PropertyKind::kAlways) {
      out[r.properties[i].name] = std::string(property_status_name(r.property_results[i].status));
      whole = whole || r.property_results[i].status == checker::PropertyStatus::kHolds;
    }
  }
  if (whole) {
    for (std::size_t i = 0; i < r.reached.size(); ++i) {
      if (r.properties[i].kind == checker::PropertyKind::kSometimes)
        out[r.properties[i].name] = r.reached[i] ? "reached" : "not reached";
    }
  }
  return out;
}

// Replays `path` in the unreduced model: every step enabled, and the last one reports
// `property` violated. Empty when it does; otherwise what went wrong.
inline std::string replays(const std::shared_ptr<const Cluster>& cluster,
                           const std::vector<Action>& path, std::size_t property) {
  const WorldModel model(cluster);
  WorldState s = model.initial_state();
  checker::Observation obs;
  if (path.empty()) {
    model.check_initial(s, obs);
  }
  for (std::size_t i = 0; i < path.size(); ++i) {
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    if (std::find(enabled.begin(), enabled.end(), path[i]) == enabled.end())
      return "step " + std::to_string(i + 1) + " is not enabled";
    obs.clear();
    s = model.next_state(s, path[i], obs);
  }
  for (const auto& [p, message] : obs.violated) {
    if (p == property)
      return {};
  }
  return "the last step does not violate the property";
}

}  // namespace preemptcheck::reduction_testing
