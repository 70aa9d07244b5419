// Which steps of the model commute: the census behind FIDELITY §6.4's account of partial-order
// reduction. Random walks over every committed scenario, under `reference` and `kubernetes`,
// try every pair of steps enabled in each state they visit, in both orders, and call the pair
// independent there when both orders are possible and reach the same state — World and ledger
// — with the same findings. The test prints the census per pair of step kinds and pins the two
// facts FIDELITY §6.4 draws from it: two writes of pods to the API server by the components beside
// the scheduling thread (binding calls, evictions, the kubelet, users, controllers), each
// appending a watch event, never commute, since the informer delivers the events in the order
// written;
// and the informer's delivery commutes with every kubelet step but not always with a
// scheduling cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/action.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "properties/committed_scenarios.h"
#include "properties/reduction_testing.h"
#include "properties/world_model.h"

namespace preemptcheck {
namespace {

using reduction_testing::cluster_of;

constexpr int kWalks = 40;
constexpr int kSteps = 60;

// A step of a component other than the scheduling thread that writes a pod to the API server:
// a binding call, an eviction, the kubelet, a user, a controller, another scheduler.
bool is_pod_write(ActionKind k) {
  switch (k) {
    case ActionKind::kBind:
    case ActionKind::kEvict:
    case ActionKind::kTerminate:
    case ActionKind::kCreate:
    case ActionKind::kDelete:
    case ActionKind::kExternalBind:
    case ActionKind::kRecreate:
    case ActionKind::kLateBind:
    case ActionKind::kLateEvict:
      return true;
    default:
      return false;
  }
}

// Whether a then b, from s, appends two watch events: both are API writes the API server
// accepted (an eviction of a pod already terminating, for one, writes nothing).
bool both_append_events(const WorldModel& model, const WorldState& s, const Action& a,
                        const Action& b) {
  if (a.kind == ActionKind::kObserve || b.kind == ActionKind::kObserve)
    return false;
  checker::Observation obs;
  const WorldState ab = model.next_state(model.next_state(s, a, obs), b, obs);
  return ab.world.events().size() == s.world.events().size() + 2;
}

// The findings of one step, in a comparable form.
std::vector<std::size_t> findings(const checker::Observation& obs) {
  std::vector<std::size_t> out = obs.reached;
  for (const auto& [property, message] : obs.violated)
    out.push_back(1000 + property);
  std::sort(out.begin(), out.end());
  return out;
}

struct Census {
  // Per pair of step kinds (the smaller keyword first): pairs that commute, pairs tried.
  std::map<std::pair<std::string, std::string>, std::pair<long, long>> pairs;
  // Two pod writes that each appended a watch event and commuted (FIDELITY §6.4 says: none).
  std::vector<std::string> commuting_writes;
  // An observe and a terminate that did not commute (FIDELITY §6.4 says: none).
  std::vector<std::string> observe_terminate;
  long states_with_observe = 0;
  long observe_beside_schedule = 0;
  // The same census with the serialization of concurrent writes forgotten (the causal watch
  // order's quotient, impl/watch_order.cc): per pair of step kinds, pairs that commute.
  std::map<std::pair<std::string, std::string>, std::pair<long, long>> pairs_modulo;
  // Pairs with disjoint footprints that did not commute modulo the serialization, or a step
  // that enabled or disabled one with a footprint disjoint from its own (the causal order
  // says: none).
  std::vector<std::string> footprint_claims;
  long disjoint_pairs = 0;
};

// How two orders of a pair of steps are compared: the same state (World and ledger) with the
// same findings; the same up to the serialization of their writes (the causal watch order's
// quotient, impl/watch_order.cc), with the same findings; or up to it, states alone (a
// monitor's finding judges a step from the state it starts in, and is the same in the
// reduced search as long as the same states are reached).
enum class Same { kExactly, kModuloSerialization, kStatesModuloSerialization };

// Whether a then b and b then a are both possible from s and reach the same outcome.
bool commute(const WorldModel& model, const WorldState& s, const Action& a, const Action& b,
             Same same = Same::kExactly) {
  checker::Observation obs;
  WorldState ab = model.next_state(s, a, obs);
  if (!ab.world.is_enabled(b))
    return false;
  ab = model.next_state(ab, b, obs);
  const std::vector<std::size_t> found_ab = findings(obs);
  obs.clear();
  WorldState ba = model.next_state(s, b, obs);
  if (!ba.world.is_enabled(a))
    return false;
  ba = model.next_state(ba, a, obs);
  const bool found = same == Same::kStatesModuloSerialization || found_ab == findings(obs);
  if (same == Same::kExactly)
    return ab == ba && found;
  const Cluster& c = model.cluster();
  return ab.world.without_serialization(c) == ba.world.without_serialization(c) &&
         ab.ledger == ba.ledger && found;
}

// The footprint of a from s (StepReport::touched_*).
StepReport footprint(const WorldState& s, const Action& a) {
  World w = s.world;
  StepReport r = w.apply(a);
  w.record_footprint(r);
  return r;
}

bool disjoint(const StepReport& a, const StepReport& b) {
  return !(a.touched_scheduler && b.touched_scheduler) && (a.touched_pods & b.touched_pods) == 0;
}

void walk(const std::string& path, const std::string& profile, std::mt19937_64& rng,
          Census& census) {
  const std::shared_ptr<const Cluster> cluster = cluster_of(path, profile);
  const WorldModel model(cluster);
  std::vector<Action> enabled;
  for (int w = 0; w < kWalks; ++w) {
    WorldState s = model.initial_state();
    for (int step = 0; step < kSteps; ++step) {
      enabled.clear();
      model.enabled_actions(s, enabled);
      if (enabled.empty())
        break;
      bool observe = false;
      bool schedule = false;
      for (const Action& a : enabled) {
        observe |= a.kind == ActionKind::kObserve;
        schedule |= a.kind == ActionKind::kSchedule;
      }
      census.states_with_observe += observe ? 1 : 0;
      census.observe_beside_schedule += observe && schedule ? 1 : 0;
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        for (std::size_t j = i + 1; j < enabled.size(); ++j) {
          const Action& a = enabled[i];
          const Action& b = enabled[j];
          const bool c = commute(model, s, a, b);
          std::string ka(action_keyword(a.kind));
          std::string kb(action_keyword(b.kind));
          if (kb < ka)
            std::swap(ka, kb);
          auto& [commuting, tried] = census.pairs[{ka, kb}];
          commuting += c ? 1 : 0;
          ++tried;
          const std::string where = path + " under " + profile + ": " + format_action(a, *cluster) +
                                    " and " + format_action(b, *cluster);
          if (c && is_pod_write(a.kind) && is_pod_write(b.kind) &&
              both_append_events(model, s, a, b))
            census.commuting_writes.push_back(where);
          const bool observe_terminate =
              (a.kind == ActionKind::kObserve && b.kind == ActionKind::kTerminate) ||
              (a.kind == ActionKind::kTerminate && b.kind == ActionKind::kObserve);
          if (observe_terminate && !c)
            census.observe_terminate.push_back(where);
          const bool cm = c || commute(model, s, a, b, Same::kModuloSerialization);
          auto& [commuting_modulo, tried_modulo] = census.pairs_modulo[{ka, kb}];
          commuting_modulo += cm ? 1 : 0;
          ++tried_modulo;
          if (disjoint(footprint(s, a), footprint(s, b))) {
            ++census.disjoint_pairs;
            if (!cm && !commute(model, s, a, b, Same::kStatesModuloSerialization))
              census.footprint_claims.push_back(where + ": disjoint footprints, no commute");
          }
        }
      }
      // No step enables or disables a step whose footprint is disjoint from its own, and a step
      // b taken after a, with a footprint there disjoint from a's, commutes with a: the swap
      // the serialization of a schedule makes (impl/watch_order.cc).
      for (const Action& a : enabled) {
        checker::Observation obs;
        const StepReport fa = footprint(s, a);
        const WorldState next = model.next_state(s, a, obs);
        std::vector<Action> after;
        model.enabled_actions(next, after);
        for (const Action& b : after) {
          if (b == a || !s.world.is_enabled(b) || !disjoint(fa, footprint(next, b)))
            continue;
          ++census.disjoint_pairs;
          if (!commute(model, s, a, b, Same::kStatesModuloSerialization)) {
            census.footprint_claims.push_back(
                path + " under " + profile + ": " + format_action(a, *cluster) + " then " +
                format_action(b, *cluster) + ": disjoint footprints, no commute");
          }
        }
        // A write enables the delivery of its own event: an order of its own, not a footprint.
        const bool wrote = next.world.events().size() > s.world.events().size();
        for (const Action& b : after) {
          if (b.kind == ActionKind::kObserve && wrote)
            continue;
          if (b != a && !s.world.is_enabled(b) && disjoint(fa, footprint(next, b))) {
            census.footprint_claims.push_back(path + " under " + profile + ": " +
                                              format_action(a, *cluster) + " enables " +
                                              format_action(b, *cluster));
          }
        }
        for (const Action& b : enabled) {
          if (b != a && !next.world.is_enabled(b) && disjoint(fa, footprint(s, b))) {
            census.footprint_claims.push_back(path + " under " + profile + ": " +
                                              format_action(a, *cluster) + " disables " +
                                              format_action(b, *cluster));
          }
        }
      }
      checker::Observation obs;
      s = model.next_state(s, enabled[rng() % enabled.size()], obs);
    }
  }
}

TEST(Independence, TheCensusOfCommutingStepsOnEveryCommittedScenario) {
  std::uint64_t seed = 26;
  if (const char* given = std::getenv("PREEMPTCHECK_SEED"))
    seed = std::strtoull(given, nullptr, 10);
  std::cout << "seed " << seed << " (PREEMPTCHECK_SEED replays another)\n";
  std::mt19937_64 rng(seed);
  Census census;
  for (const std::string& path : committed_scenarios()) {
    for (const std::string profile : {"reference", "kubernetes"})
      walk(path, profile, rng, census);
  }
  long commuting = 0;
  long tried = 0;
  for (const auto& [kinds, counts] : census.pairs) {
    std::cout << kinds.first << " | " << kinds.second << ": " << counts.first << " of "
              << counts.second << " commute\n";
    commuting += counts.first;
    tried += counts.second;
  }
  std::cout << "all pairs: " << commuting << " of " << tried << " commute; observe enabled in "
            << census.states_with_observe << " states, beside a schedule step in "
            << census.observe_beside_schedule << "\n";
  ASSERT_GT(tried, 10'000) << "the walks tried too few pairs to say anything";

  long commuting_modulo = 0;
  for (const auto& [kinds, counts] : census.pairs_modulo) {
    std::cout << "modulo serialization: " << kinds.first << " | " << kinds.second << ": "
              << counts.first << " of " << counts.second << " commute\n";
    commuting_modulo += counts.first;
  }
  std::cout << "all pairs modulo serialization: " << commuting_modulo << " of " << tried
            << " commute; " << census.disjoint_pairs << " with disjoint footprints\n";
  // The causal watch order's claims: steps with disjoint footprints commute up to the
  // serialization of their writes, and never enable or disable each other.
  EXPECT_TRUE(census.footprint_claims.empty())
      << census.footprint_claims.size() << " claims failed: "
      << ::testing::PrintToString(std::vector<std::string>(
             census.footprint_claims.begin(),
             census.footprint_claims.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(
                                                   census.footprint_claims.size(), 12))));
  EXPECT_GT(census.disjoint_pairs, 1'000);
  // Modulo the serialization, kubelets' terminations of different pods commute.
  const auto& [terminates, terminates_tried] = census.pairs_modulo[{"terminate", "terminate"}];
  EXPECT_EQ(terminates, terminates_tried);
  EXPECT_GT(terminates_tried, 100);

  // Two pod writes that each append a watch event never commute: the informer delivers the
  // events in the order written.
  EXPECT_TRUE(census.commuting_writes.empty())
      << census.commuting_writes.size() << " pairs of event-writing steps commuted, the first "
      << census.commuting_writes.front();
  // The informer's delivery commutes with every kubelet step...
  EXPECT_TRUE(census.observe_terminate.empty())
      << census.observe_terminate.size() << " observe/terminate pairs did not commute, the first "
      << census.observe_terminate.front();
  // ...but with a scheduling cycle only sometimes.
  const auto& [observe_schedule, observe_schedule_tried] = census.pairs[{"observe", "schedule"}];
  EXPECT_LT(observe_schedule, observe_schedule_tried);
}

}  // namespace
}  // namespace preemptcheck
