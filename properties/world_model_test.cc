// The packed encoding of a state (WorldModel::pack/unpack) over states reached by seeded
// random walks through every committed scenario under every profile and the split cycle:
// each state unpacks to exactly its own bytes, and no byte outside the blocks the World
// marks as changeable differs from the initial state's.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/mechanisms.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

bool same_bytes(const WorldState& x, const WorldState& y) {
  return std::memcmp(&x, &y, sizeof(WorldState)) == 0;
}

// The bytes of `s` outside `blocks` (World::kImageBlock-byte blocks of the World, the
// ledger excluded) that differ from `base`'s; empty when the marks are right.
std::vector<std::size_t> unmarked_changes(const WorldState& s, const WorldState& base,
                                          std::uint64_t blocks) {
  std::vector<std::size_t> out;
  const auto* a = reinterpret_cast<const unsigned char*>(&s.world);
  const auto* b = reinterpret_cast<const unsigned char*>(&base.world);
  for (std::size_t i = 0; i < sizeof(World); ++i) {
    const bool marked = (blocks >> (i / World::kImageBlock)) & 1U;
    if (!marked && a[i] != b[i])
      out.push_back(i);
  }
  return out;
}

struct Walked {
  std::size_t states = 0;
  std::size_t packed_bytes = 0;
};

// 60 seeded random walks of up to 80 steps from the initial state of `scenario`, with the
// informer's delivery order `order` (the causal one keeps the events' order and clocks too).
Walked walk(Scenario scenario, const std::string& label, WatchOrder order = WatchOrder::kFifo) {
  const auto cluster = std::make_shared<const Cluster>(std::move(scenario));
  WorldModel model(cluster);
  model.set_watch_order(order);
  const WorldState initial = model.initial_state();
  std::mt19937_64 random(20261203);
  std::vector<Action> actions;
  std::vector<std::byte> packed;
  Walked walked;
  for (int run = 0; run < 60; ++run) {
    WorldState s = initial;
    for (int step = 0; step < 80; ++step) {
      packed.clear();
      model.pack(s, packed);
      const WorldState back = model.unpack(packed);
      ++walked.states;
      walked.packed_bytes += packed.size();
      if (!same_bytes(back, s)) {
        ADD_FAILURE() << label << ": run " << run << " step " << step
                      << ": unpack(pack(s)) is not s";
        return walked;
      }
      const auto stray = unmarked_changes(
          s, initial, s.world.changeable_blocks() | initial.world.changeable_blocks());
      if (!stray.empty()) {
        ADD_FAILURE() << label << ": run " << run << " step " << step << ": byte " << stray.front()
                      << " of the World changed outside its marked blocks";
        return walked;
      }
      actions.clear();
      model.enabled_actions(s, actions);
      if (actions.empty())
        break;
      checker::Observation obs;
      s = model.next_state(s, actions[random() % actions.size()], obs);
    }
  }
  return walked;
}

TEST(WorldModelPack, RoundTripsOnEveryCommittedScenarioAndProfile) {
  std::size_t scenarios = 0;
  for (const auto& entry : std::filesystem::directory_iterator("scenarios")) {
    if (entry.path().extension() != ".yaml")
      continue;
    ++scenarios;
    const Scenario base = load_scenario_file(entry.path().string());
    for (const std::string_view name : profile_names()) {
      for (const char* cycle : {"atomic", "split"}) {
        Scenario s = base;
        s.profile = std::string(name);
        s.mechanisms = *profile(name);
        ASSERT_FALSE(set_mechanism(s.mechanisms, "cycle", cycle));
        for (const WatchOrder order : {WatchOrder::kFifo, WatchOrder::kCausal}) {
          const Walked w = walk(s,
                                entry.path().filename().string() + " " + std::string(name) + " " +
                                    cycle + (order == WatchOrder::kCausal ? " watch-order" : ""),
                                order);
          EXPECT_GT(w.states, 60U);
          // The encoding is a delta from the initial state: far smaller than the state.
          EXPECT_LT(w.packed_bytes / w.states, sizeof(WorldState) / 4);
        }
      }
    }
  }
  EXPECT_GE(scenarios, 10U);
}

TEST(WorldModelPack, RefusesAMalformedEncoding) {
  Scenario s = load_scenario_file("scenarios/default.yaml");
  const WorldModel model(std::make_shared<const Cluster>(std::move(s)));
  WorldState state = model.initial_state();
  std::vector<Action> actions;
  model.enabled_actions(state, actions);
  ASSERT_FALSE(actions.empty());
  checker::Observation obs;
  state = model.next_state(state, actions.front(), obs);
  std::vector<std::byte> packed;
  model.pack(state, packed);
  ASSERT_GT(packed.size(), 1U);
  std::vector<std::byte> shorter(packed.begin(), packed.end() - 1);
  EXPECT_THROW(model.unpack(shorter), std::logic_error);
  std::vector<std::byte> longer = packed;
  longer.push_back(std::byte{1});
  EXPECT_THROW(model.unpack(longer), std::logic_error);
  EXPECT_THROW(model.unpack({}), std::logic_error);
}

}  // namespace
}  // namespace preemptcheck
