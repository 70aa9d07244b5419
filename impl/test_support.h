// Test support for impl/: small builders of scenarios and worlds, with the priorities and
// sizes of kube-scheduler's default_preemption_test.go.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/action.h"
#include "impl/cluster.h"
#include "impl/mechanisms.h"
#include "impl/scenario.h"
#include "impl/world.h"

namespace preemptcheck::test {

// Priorities and sizes of kube-scheduler's default_preemption_test.go.
inline constexpr int kNeg = -100;
inline constexpr int kLow = 0;
inline constexpr int kMid = 100;
inline constexpr int kHigh = 1000;
inline constexpr int kVeryHigh = 10000;
inline constexpr int kSmall = 100;
inline constexpr int kMedium = 200;
inline constexpr int kLarge = 300;
inline constexpr int kVeryLarge = 500;

inline NodeSpec node(std::string name, int size = kVeryLarge) {
  return NodeSpec{std::move(name), cores(size), size};
}

// A running pod when `on` names a node, a pending pod otherwise.
inline PodSpec pod(std::string name, int priority, int size, std::string on = "") {
  PodSpec p;
  p.name = std::move(name);
  p.priority = priority;
  p.cpu = cores(size);
  p.memory = size;
  p.node = std::move(on);
  return p;
}

inline PodSpec later(PodSpec p) {
  p.arrives_later = true;
  return p;
}

inline Scenario scenario(std::vector<NodeSpec> nodes, std::vector<PodSpec> pods,
                         std::string_view profile_name = "reference") {
  Scenario s;
  s.name = "test";
  s.nodes = std::move(nodes);
  s.pods = std::move(pods);
  s.profile = std::string(profile_name);
  s.mechanisms = profile(profile_name).value();
  return s;
}

/// A World of `s`; its Cluster is kept alive until the test program ends (a World points at
/// its Cluster).
inline World world_of(Scenario s) {
  static std::deque<std::unique_ptr<const Cluster>> clusters;
  clusters.push_back(std::make_unique<const Cluster>(std::move(s)));
  return World(*clusters.back());
}

inline PodId id(const World& w, std::string_view name) {
  return w.cluster().find_pod(name).value();
}
inline PodSet bit_of(const World& w, std::string_view name) { return pod_bit(id(w, name)); }
inline NodeId node_id(const World& w, std::string_view name) {
  return w.cluster().find_node(name).value();
}

/// Whether the action written as `line` (the counterexample format) is enabled in `w`; throws
/// when it does not parse.
inline bool enabled(const World& w, std::string_view line) {
  std::optional<Action> a = parse_action(line, w.cluster());
  if (!a)
    throw std::invalid_argument(std::string(line));
  return w.is_enabled(*a);
}

/// Applies the action written as `line` (the counterexample format) to `w`; throws when it
/// does not parse or is not enabled.
inline StepReport run(World& w, std::string_view line) {
  std::string error;
  std::optional<Action> a = parse_action(line, w.cluster(), &error);
  if (!a)
    throw std::invalid_argument(std::string(line) + ": " + error);
  if (!w.is_enabled(*a))
    throw std::logic_error(std::string(line) + " is not enabled");
  return w.apply(*a);
}

/// Delivers every pending watch event.
inline void observe_all(World& w) {
  while (!w.events().empty())
    run(w, "observe");
}

}  // namespace preemptcheck::test
