// What the watch order's soundness tests share (properties/watch_order_test.cc and
// properties/watch_order_exact_test.cc): searching a cluster in FIFO order and under another
// watch order, the states reached with the serialization forgotten, and the comparison of
// verdicts, witnesses, counterexample lengths and serialized counterexamples.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "impl/watch_order.h"
#include "properties/committed_scenarios.h"
#include "properties/generators.h"
#include "properties/rapidcheck_run.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck::watch_order_testing {

inline constexpr std::uint64_t kMaxStates = 150'000;
// The FIFO spaces whose every state is compared one by one.
inline constexpr std::size_t kMaxCompared = 40'000;

inline std::shared_ptr<const Cluster> cluster_of(const std::string& path,
                                                 const std::string& profile) {
  Scenario s = load_scenario_file(path);
  MechanismChoice choice;
  choice.profile = profile;
  const auto error = apply_choice(s, choice);
  EXPECT_FALSE(error.has_value()) << error.value_or("");
  return std::make_shared<const Cluster>(s);
}

inline checker::Result<Action> run(const std::shared_ptr<const Cluster>& cluster, WatchOrder order,
                                   unsigned threads = 1, std::uint64_t max_states = kMaxStates) {
  WorldModel model(cluster);
  model.set_watch_order(order);
  checker::ExploreOptions<Action> opts;
  opts.threads = threads;
  opts.per_property = true;
  return explore_world(model, checker::Limits{max_states, std::nullopt, std::nullopt}, opts);
}

// Every state a search of `fifo` under `order` reaches, as the fingerprint of the state with
// the serialization forgotten (World::without_serialization) and its ledger; nothing when
// there are more than kMaxCompared.
inline std::optional<std::set<std::uint64_t>> reached(const std::shared_ptr<const Cluster>& fifo,
                                                      WatchOrder order) {
  WorldModel model(fifo);
  model.set_watch_order(order);
  std::unordered_set<std::uint64_t> visited;
  std::set<std::uint64_t> out;
  std::deque<WorldState> frontier{model.initial_state()};
  visited.insert(model.fingerprint(frontier.front()));
  std::vector<Action> enabled;
  while (!frontier.empty()) {
    const WorldState s = frontier.front();
    frontier.pop_front();
    out.insert(s.ledger.fingerprint(s.world.without_serialization(*fifo).fingerprint()));
    if (out.size() > kMaxCompared)
      return std::nullopt;
    enabled.clear();
    model.enabled_actions(s, enabled);
    for (const Action& a : enabled) {
      checker::Observation obs;
      WorldState next = model.next_state(s, a, obs);
      if (visited.insert(model.fingerprint(next)).second)
        frontier.push_back(next);
    }
  }
  return out;
}

// Each property's verdict, and the witnesses reached when the whole space was searched.
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

// Replays `path`, a FIFO schedule, in the FIFO model: every step enabled, and the last one
// reports `property` violated. Empty when it does; otherwise what went wrong.
inline std::string replays(const std::shared_ptr<const Cluster>& cluster,
                           const std::vector<Action>& path, std::size_t property) {
  const WorldModel model(cluster);
  WorldState s = model.initial_state();
  checker::Observation obs;
  if (path.empty())
    model.check_initial(s, obs);
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!s.world.is_enabled(path[i]))
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

struct Comparison {
  int compared = 0;
  int skipped = 0;
  int replayed = 0;
  std::uint64_t fifo_states = 0;
  std::uint64_t reduced_states = 0;
  std::vector<std::string> differences;
  std::vector<std::string> limits;  ///< the cells skipped, and why
};

// One cluster searched in FIFO order and under `order`: verdicts, witnesses, counterexample
// lengths, and every reduced counterexample serialized and replayed in the FIFO model.
inline void compare_cluster(const std::shared_ptr<const Cluster>& cluster, const std::string& cell,
                            WatchOrder order, Comparison& c,
                            std::uint64_t max_states = kMaxStates) {
  const auto plain = run(cluster, WatchOrder::kFifo, 2, max_states);
  const auto reduced = run(cluster, order, 2, max_states);
  if (!plain.limit.empty() || !reduced.limit.empty()) {
    ++c.skipped;
    c.limits.push_back(cell + ": " + plain.limit + " " + plain.limit_detail + " / " +
                       reduced.limit + " " + reduced.limit_detail);
    return;
  }
  ++c.compared;
  c.fifo_states += plain.stats.states;
  c.reduced_states += reduced.stats.states;
  if (verdicts(plain) != verdicts(reduced)) {
    c.differences.push_back(
        cell + ": verdicts or witnesses differ: " + ::testing::PrintToString(verdicts(plain)) +
        " against " + ::testing::PrintToString(verdicts(reduced)));
  }
  for (std::size_t i = 0; i < plain.property_results.size(); ++i) {
    const auto& a = plain.property_results[i].violation;
    const auto& b = reduced.property_results[i].violation;
    if (a && b && a->path.size() != b->path.size()) {
      c.differences.push_back(cell + ": " + plain.properties[i].name +
                              ": counterexample lengths differ");
    }
  }
  const Cluster causal = cluster->with_watch_order(order);
  for (std::size_t i = 0; i < reduced.property_results.size(); ++i) {
    const auto& v = reduced.property_results[i].violation;
    if (!v)
      continue;
    std::string problem;
    try {
      problem = replays(cluster, serialize_schedule(causal, v->path), i);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    if (problem.empty()) {
      ++c.replayed;
    } else {
      c.differences.push_back(cell + ": " + reduced.properties[i].name + ": " + problem);
    }
  }
}

}  // namespace preemptcheck::watch_order_testing
