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
#include "properties/reduction_testing.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"

namespace preemptcheck::watch_order_testing {

using reduction_testing::cluster_of;
using reduction_testing::replays;
using reduction_testing::verdicts;

inline constexpr std::uint64_t kMaxStates = 150'000;
// The FIFO spaces whose every state is compared one by one.
inline constexpr std::size_t kMaxCompared = 40'000;

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
