// Regression data for every committed scenario: under `reference` every property holds over
// every interleaving, with its distinct-state count and witnesses pinned; each mechanism
// switch breaks the property it guards with a pinned shortest counterexample.
#include <gtest/gtest.h>

#include <algorithm>
#include <bitset>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/cluster.h"
#include "impl/mechanism_choice.h"
#include "impl/mechanisms.h"
#include "impl/world.h"
#include "properties/world_explore.h"
#include "properties/world_model.h"
#include "spec/property.h"

namespace preemptcheck {
namespace {

std::string scenario_path(const std::string& name) { return "scenarios/" + name + ".yaml"; }

// Reads the words of a pin as `check` does — "--profile P" first, then each "--NAME=VALUE"
// switch on top of it (apply_choice), and "--property NAME" to check only those — and
// explores.
checker::Result<Action> check_scenario(Scenario s, const std::vector<std::string>& args,
                                       std::uint64_t max_states = 2'000'000) {
  std::bitset<spec::kPropertyCount> checked;
  MechanismChoice choice;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto eq = args[i].find('=');
    if (args[i] == "--profile") {
      choice.profile = args.at(++i);
    } else if (args[i] == "--property") {
      const auto p = spec::find_property(args.at(++i));
      EXPECT_TRUE(p.has_value()) << args[i];
      checked.set(static_cast<std::size_t>(*p));
    } else if (args[i].starts_with("--") && eq != std::string::npos) {
      choice.switches.emplace_back(args[i].substr(2, eq - 2), args[i].substr(eq + 1));
    }
  }
  const auto error = apply_choice(s, choice);
  EXPECT_FALSE(error.has_value()) << error.value_or("");
  if (checked.none())
    checked.set();
  WorldModel model(std::make_shared<const Cluster>(s), checked);
  return explore_world(model, checker::Limits{max_states, std::nullopt, std::nullopt});
}

checker::Result<Action> check(const std::string& scenario, const std::vector<std::string>& args,
                              std::uint64_t max_states = 2'000'000) {
  return check_scenario(load_scenario_file(scenario_path(scenario)), args, max_states);
}

std::set<std::string> reached(const checker::Result<Action>& r) {
  std::set<std::string> out;
  for (size_t i = 0; i < r.reached.size(); ++i) {
    if (r.reached[i])
      out.insert(r.properties[i].name);
  }
  return out;
}

struct Pin {
  std::string scenario;
  std::uint64_t states;
  std::uint64_t transitions;
  std::uint32_t depth;
  std::set<std::string> witnesses;
};

std::string test_name(std::string text) {
  for (char& c : text) {
    if (c == '-')
      c = '_';
  }
  return text;
}

void PrintTo(const Pin& pin, std::ostream* os) { *os << pin.scenario; }

const std::vector<Pin>& reference_pins() {
  static const std::vector<Pin> kPins = {
      {"assume-window", 7, 10, 4, {}},
      {"binding-in-flight",
       107,
       207,
       15,
       {"victims-in-flight", "nominee-binds", "binding-beside-binding", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"default",
       8819,
       24545,
       29,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"early-gate",
       594,
       1290,
       18,
       {"victims-in-flight", "nominee-binds", "binding-beside-binding", "preemptor-retried",
        "gated-preemptor-woken"}},
      // A worker chooses the victim an equal-priority worker already chose (FIDELITY §3 F10).
      {"equal-priority-workers",
       1747,
       5180,
       22,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "binding-beside-binding",
        "preemptor-retried", "gated-preemptor-woken"}},
      {"eviction-failure",
       287,
       674,
       17,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"four-victims",
       21084,
       53947,
       22,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g1-basic",
       132,
       309,
       14,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g2-single-victim",
       33,
       64,
       10,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g3-lower-no-takeover",
       250,
       672,
       15,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"g4-higher-takeover",
       1425,
       3718,
       26,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      // TestAsyncPreemption's G5 (the case of the flake #138268) and G7 in the test's order.
      {"g5-lower-same-node",
       20790,
       68876,
       30,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"g7-higher-takes-place",
       116157,
       354745,
       35,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"in-flight-deletion",
       132,
       309,
       14,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"nomination-released",
       1169,
       3201,
       26,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"nomination-window",
       61,
       145,
       11,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"pdb",
       33,
       64,
       10,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      // Kubernetes' unit-test cases whose nodes start overcommitted (SPEC §2.3).
      {"post-filter-overcommitted",
       33,
       64,
       10,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"select-best-overcommitted",
       1133,
       2852,
       18,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"second-node",
       5013,
       14294,
       24,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "preemptor-retried", "gated-preemptor-woken"}},
      // Faults and later nodes (SPEC §2.3): `reference` survives each.
      {"user-deletes",
       1753,
       4188,
       18,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      // A binding or an eviction sent before the restart may land after it (late-bind,
      // late-evict): 271 states, 760 transitions and depth 14 before they could.
      // #130429: a second scheduler's victim that its controller re-creates; the loop is a
      // liveness matter (properties/liveness_check_test.cc), every safety property holds.
      {"returning-victim",
       119,
       270,
       19,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"returning-victim-aware",
       62,
       132,
       12,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"returning-victim-one-scheduler",
       68,
       149,
       13,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"restart",
       520,
       1434,
       16,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"node-arrives",
       9062,
       26439,
       26,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      // #134859 (SPEC §2.3): `reference` survives an external binding.
      {"external-binding",
       392,
       1072,
       14,
       {"victims-in-flight", "nominee-binds", "binding-beside-binding", "preemptor-retried",
        "gated-preemptor-woken"}},
      // #91492 (FIDELITY §3 F17): inflight=on spends victims in flight from the PDB's budget.
      {"pdb-budget-race",
       6351,
       19288,
       27,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "binding-beside-binding",
        "preemptor-retried", "gated-preemptor-woken"}},
      {"takeover-pdb",
       309399,
       977597,
       32,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"three-preemptors",
       289966,
       1000162,
       40,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
  };
  return kPins;
}

TEST(Scenarios, EveryCommittedScenarioIsPinned) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator("scenarios")) {
    if (entry.path().extension() == ".yaml")
      on_disk.insert(entry.path().stem().string());
  }
  std::set<std::string> pinned;
  for (const Pin& p : reference_pins())
    pinned.insert(p.scenario);
  EXPECT_EQ(on_disk, pinned) << "a scenario was added or removed without pinning its results";
}

class ReferenceProfile : public ::testing::TestWithParam<Pin> {};

TEST_P(ReferenceProfile, HoldsExhaustivelyWithPinnedCounts) {
  const Pin& pin = GetParam();
  auto r = check(pin.scenario, {});
  ASSERT_EQ(r.outcome, checker::Outcome::kHolds)
      << (r.violation ? r.violation->name + ": " + r.violation->message : r.limit);
  EXPECT_EQ(r.stats.states, pin.states);
  EXPECT_EQ(r.stats.transitions, pin.transitions);
  EXPECT_EQ(r.stats.depth, pin.depth);
  EXPECT_EQ(reached(r), pin.witnesses);
}

INSTANTIATE_TEST_SUITE_P(pinned, ReferenceProfile, ::testing::ValuesIn(reference_pins()),
                         [](const auto& param_info) {
                           return test_name(param_info.param.scenario);
                         });

TEST(Scenarios, EveryWitnessIsReachedSomewhere) {
  std::set<std::string> all;
  for (const Pin& p : reference_pins())
    all.insert(p.witnesses.begin(), p.witnesses.end());
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) {
      EXPECT_TRUE(all.count(std::string(d.name))) << d.name;
    }
  }
}

TEST(Scenarios, DefaultScenarioReachesEveryWitness) {
  auto r = check("default", {});
  EXPECT_TRUE(r.unreached_witnesses().empty());
}

// (scenario, switches, property, shortest length): each mechanism switched off breaks the
// property it guards, and the breadth-first search finds the shortest schedule that shows it.
struct Race {
  std::string scenario;
  std::vector<std::string> switches;
  std::string property;
  size_t length;
};

void PrintTo(const Race& race, std::ostream* os) {
  *os << race.scenario;
  for (const std::string& s : race.switches)
    *os << ' ' << s;
  *os << " -> " << race.property;
}

const std::vector<Race>& races() {
  static const std::vector<Race> kRaces = {
      {"default", {"--inflight=off"}, "no-double-victim", 4},
      {"nomination-window", {"--nomination=async"}, "no-double-claim", 2},
      {"assume-window", {"--assume=off"}, "no-overcommit", 2},
      {"g2-single-victim",
       {"--gate=hold-until-done", "--activate-on-finish=off"},
       "no-lost-wakeup",
       7},
      // #134249: on top of kube-scheduler's own in-flight set; under `reference` the
      // in-flight set already keeps the preemptor off its own victims (see SPEC.md).
      {"g2-single-victim",
       {"--profile", "kubernetes", "--gate=release-before-last"},
       "no-double-victim",
       5},
      // The case KEP-4832 accepts: a higher-priority preemptor takes the same victims.
      {"g4-higher-takeover", {"--inflight=preemptor-only"}, "no-double-victim", 4},
      {"binding-in-flight", {"--activate-on-finish=off"}, "no-lost-wakeup", 9},
      // The 1.32 gate re-admits p1 before its last delete; it preempts again elsewhere.
      {"early-gate",
       {"--profile", "kubernetes-1.32", "--property", "no-over-preemption"},
       "no-over-preemption",
       11},
      // Without assume, p-mid binds into the space p-high was preempting for.
      {"g3-lower-no-takeover",
       {"--assume=off", "--property", "expected-outcome"},
       "expected-outcome",
       17},
      // #141694: kube-scheduler's redundant second preemption of an already deleted victim;
      // the delete event is used up while the preemptor is gated and nothing activates it.
      {"g1-basic",
       {"--profile", "kubernetes", "--property", "no-lost-wakeup"},
       "no-lost-wakeup",
       16},
      // A stale informer update drops p-c's newer in-memory nomination; p-b takes its space.
      {"three-preemptors",
       {"--stale-nomination=apply", "--property", "no-double-claim"},
       "no-double-claim",
       19},
      // #141694 along its reported path (cycle=split): victim-2's deletion arrives while the
      // redundant second cycle is in flight; at its end the recorded event requeues the
      // preemptor into PreEnqueue, which gates it, and the event is used up.
      {"in-flight-deletion",
       {"--profile", "kubernetes", "--cycle=split", "--property", "no-lost-wakeup"},
       "no-lost-wakeup",
       18},
      // PR #142294 on kube-scheduler as it is: the preemptor, activated before the informer
      // shows its victim terminating, deletes the same victim again (#134249's symptom).
      // Under `reference` the in-flight set makes it wait for its own victims.
      {"g2-single-victim",
       {"--profile", "kubernetes", "--activate-on-finish=on"},
       "no-double-victim",
       5},
      // A user deletes the last victim before the preemptor's job reaches it: the gate opens
      // when its deletion shows, while victim-1's is not yet observed, and the re-admitted
      // preemptor chooses victim-1 again (only the in-flight set of `reference` prevents it).
      {"user-deletes",
       {"--profile", "kubernetes", "--property", "no-double-victim"},
       "no-double-victim",
       8},
      // #134859: p-mid fails beside p-high's nomination on node-a (p-high backing off after
      // its victim's delete moved it), another component binds p-high to node-b, and the
      // binding event drops the nomination and moves no pod, so p-mid waits for the flush.
      // (14 steps before the backoff queue, through a stale cycle's assumption instead.)
      {"external-binding",
       {"--profile", "kubernetes", "--property", "no-lost-wakeup"},
       "no-lost-wakeup",
       12},
      // Two workers of one priority: worker-2 counts worker-1's nomination beside batch-2,
      // which is not yet terminating, and chooses it again (FIDELITY §3 F10).
      {"equal-priority-workers",
       {"--profile", "kubernetes", "--property", "no-double-victim"},
       "no-double-victim",
       2},
      // TestAsyncPreemption's G7 in its order: p-mid, its nomination taken by p-high, waits for
      // the flush (the #141694 mechanism, FIDELITY §3 F4).
      {"g7-higher-takes-place",
       {"--profile", "kubernetes", "--property", "no-lost-wakeup"},
       "no-lost-wakeup",
       20},
      // #91492: p-2 reads a PDB budget that still counts p-1's victim and takes the last web
      // pod, counting no violation (FIDELITY §3 F17); the same with the budget read live.
      {"pdb-budget-race",
       {"--profile", "kubernetes", "--pdb-status=lagged", "--property", "no-pdb-overspend"},
       "no-pdb-overspend",
       2},
      {"pdb-budget-race",
       {"--inflight=preemptor-only", "--property", "no-pdb-overspend"},
       "no-pdb-overspend",
       2},
      // #140082: low, waiting at Permit or in PreBind, is preempted in memory; its binding
      // cycle wakes and its move reaches high while it is still gated, and before PR #140054
      // nothing activates it (FIDELITY §3 F16).
      {"binding-in-flight",
       {"--profile", "kubernetes-prebind", "--activate-in-memory=off", "--property",
        "no-lost-wakeup"},
       "no-lost-wakeup",
       12},
      // PR #140054's activation has PR #142294's hazard (FIDELITY §3 F18): victim-binding, the last
      // victim, went in memory, so the job's end activates p-mid before the informer shows
      // victim-1 terminating or p-mid's own nomination; it preempts on node-2 while victim-1
      // is pending (and chooses victim-1 again:
      // Scenarios.InMemoryVictimsActivationOfPR140054ClosesOneOrderOnly).
      {"g7-higher-takes-place",
       {"--profile", "kubernetes-prebind", "--property", "no-over-preemption"},
       "no-over-preemption",
       10},
      // The same under `reference` without wake-on-release: nothing else wakes p-mid.
      {"external-binding",
       {"--wake-on-release=off", "--property", "no-lost-wakeup"},
       "no-lost-wakeup",
       13},
  };
  return kRaces;
}

class Switches : public ::testing::TestWithParam<Race> {};

TEST_P(Switches, BreakTheGuardedPropertyAtThePinnedDepth) {
  const Race& race = GetParam();
  auto r = check(race.scenario, race.switches);
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  std::set<std::string> broken{r.violation->name};
  for (const auto& m : r.violation->also_violated)
    broken.insert(m.name);
  EXPECT_TRUE(broken.count(race.property)) << r.violation->name << ": " << r.violation->message;
  EXPECT_EQ(r.violation->path.size(), race.length);
  EXPECT_EQ(r.stats.depth, race.length) << "breadth-first: the violation is at the last level";
}

// "g2_single_victim__kubernetes_gate_release_before_last": the scenario and the switches.
std::string race_name(const Race& race) {
  std::string out = race.scenario + "_";
  for (size_t i = 0; i < race.switches.size(); ++i) {
    const std::string& w = race.switches[i];
    if (w == "--property") {
      ++i;
      continue;
    }
    if (w == "--profile")
      continue;
    out += "_" + w.substr(w.rfind('-', 1) == 1 ? 2 : 0);
  }
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(pinned, Switches, ::testing::ValuesIn(races()),
                         [](const auto& param_info) { return race_name(param_info.param); });

// Kubernetes' TestAsyncPreemption cases assert one interleaving; here their outcomes hold over
// every interleaving, under kube-scheduler's profile as under the reference.
TEST(Scenarios, IntegrationOutcomesHoldOverEveryInterleaving) {
  for (const std::string scenario : {"g1-basic", "g2-single-victim", "g3-lower-no-takeover",
                                     "g4-higher-takeover", "g7-higher-takes-place"}) {
    for (const std::string p : {"reference", "kubernetes"}) {
      auto r = check(scenario, {"--profile", p, "--property", "expected-outcome"});
      EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << scenario << " " << p;
    }
  }
}

// A higher-priority takeover revokes the lower preemptor's nomination when it is decided,
// whatever the executor has patched yet: p-mid preempting again on node-a after p-high took
// node-b over is not over-preemption (the property is judged on decisions).
TEST(Scenarios, TakeoverIsNotOverPreemptionUnderKubernetes) {
  // 2,795,458 states since the backoff queue (1,927,228 before).
  auto r = check("takeover-pdb", {"--profile", "kubernetes", "--property", "no-over-preemption"},
                 4'000'000);
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << (r.violation ? r.violation->message : r.limit);
  EXPECT_TRUE(reached(r).count("takeover"));
}

// PR #142294's fix for #141694 closes the race exhaustively on the same scenario.
TEST(Scenarios, ActivateOnFinishClosesTheStuckPreemptor) {
  auto r = check("g1-basic", {"--profile", "kubernetes", "--activate-on-finish=on", "--property",
                              "no-lost-wakeup"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
}

// The same fix closes #141694 when the deletion is consumed as an in-flight event.
TEST(Scenarios, ActivateOnFinishClosesTheInFlightEventPath) {
  auto r = check("in-flight-deletion", {"--profile", "kubernetes", "--cycle=split",
                                        "--activate-on-finish=on", "--property", "no-lost-wakeup"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 877u);
  EXPECT_EQ(r.stats.depth, 23u);
}

// Whether a victim's binding cycle preempted in memory wakes (binding-preempted) in a schedule.
bool wakes(const std::vector<Action>& path) {
  return std::any_of(path.begin(), path.end(),
                     [](const Action& a) { return a.kind == ActionKind::kBindingPreempted; });
}

// FIDELITY §3 F16 and F19: a victim waiting at Permit or in PreBind is preempted in memory. PR
// #140054's activation closes #140082 in the order it reports (the victim's binding cycle
// wakes while the preemptor is gated: the race pin above breaks without it), but not in the
// other: the activated preemptor's next cycle runs before the binding cycle has woken, while
// the cache still holds the victim assumed, and chooses it again (no-double-victim); its
// second job then deletes the victim, now pending, through the API, and no event wakes the
// preemptor (no-lost-wakeup). This project's in-flight set closes both. `kubernetes`, whose
// binding victim is deleted through the API (its binding past PreBind), strands the
// preemptor by F5's path.
TEST(Scenarios, InMemoryVictimsActivationOfPR140054ClosesOneOrderOnly) {
  auto r = check("binding-in-flight",
                 {"--profile", "kubernetes-prebind", "--property", "no-double-victim"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 8u);
  EXPECT_EQ(r.violation->path.back().kind, ActionKind::kSchedule);
  EXPECT_FALSE(wakes(r.violation->path));
  for (const std::string scenario : {"binding-in-flight", "early-gate"}) {
    r = check(scenario, {"--profile", "kubernetes-prebind", "--property", "no-lost-wakeup"});
    ASSERT_EQ(r.outcome, checker::Outcome::kViolated) << scenario;
    EXPECT_EQ(r.violation->path.size(), scenario == "early-gate" ? 19u : 15u) << scenario;
    EXPECT_TRUE(wakes(r.violation->path)) << scenario;
  }
  // 14 steps without the binding cycle's own nomination.
  r = check("binding-in-flight", {"--profile", "kubernetes-prebind", "--binding-nomination=off",
                                  "--property", "no-lost-wakeup"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 14u);
  // The in-flight set closes both orders: every property holds.
  r = check("binding-in-flight", {"--profile", "kubernetes-prebind", "--inflight=on"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << (r.violation ? r.violation->message : r.limit);
  EXPECT_EQ(r.stats.states, 192u);
  for (const std::string scenario : {"binding-in-flight", "early-gate"}) {
    r = check(scenario, {"--profile", "kubernetes", "--property", "no-lost-wakeup"});
    ASSERT_EQ(r.outcome, checker::Outcome::kViolated) << scenario;
    EXPECT_EQ(r.violation->path.size(), scenario == "early-gate" ? 13u : 10u);
  }
  // F18: the activation runs p-mid before the informer shows victim-1 terminating.
  r = check("g7-higher-takes-place",
            {"--profile", "kubernetes-prebind", "--property", "no-double-victim"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 9u);
  EXPECT_EQ(r.violation->path.back().kind, ActionKind::kSchedule);
}

// SPEC §2.7: `reference` with victims preempted in memory holds every property (measured on
// every committed scenario; pinned on three). Its in-flight set lets the victim go at once,
// and its preemptor waits for its own victims still in flight (F18 under kubernetes-prebind).
TEST(Scenarios, ReferenceHoldsWithVictimsPreemptedInMemory) {
  const std::vector<std::pair<std::string, std::uint64_t>> pins = {
      {"binding-in-flight", 97}, {"early-gate", 537}, {"g4-higher-takeover", 1411}};
  for (const auto& [scenario, states] : pins) {
    auto r = check(scenario, {"--binding-victims=in-memory"});
    EXPECT_EQ(r.outcome, checker::Outcome::kHolds)
        << scenario << ": " << (r.violation ? r.violation->message : r.limit);
    EXPECT_EQ(r.stats.states, states) << scenario;
  }
}

// The split cycle under `reference`: every property holds.
TEST(Scenarios, SplitCycleHoldsUnderReference) {
  auto r = check("in-flight-deletion", {"--cycle=split"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 194u);
  EXPECT_EQ(r.stats.transitions, 468u);
  EXPECT_EQ(r.stats.depth, 16u);
}

// #134859 under kube-scheduler: of the safety properties only no-lost-wakeup breaks, and only
// because of the external binding — with its budget at 0 the scenario holds everything
// (no-pdb-overspend holds vacuously: the scenario has no PDB).
TEST(Scenarios, ExternalBindingBreaksOnlyNoLostWakeupUnderKubernetes) {
  for (const std::string p : {"no-double-victim", "no-double-claim", "no-overcommit",
                              "no-over-preemption", "expected-outcome"}) {
    auto r = check("external-binding", {"--profile", "kubernetes", "--property", p});
    EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << p;
    EXPECT_EQ(r.stats.states, 472u) << p;
    EXPECT_EQ(r.stats.transitions, 1420u) << p;
  }
  Scenario s = load_scenario_file(scenario_path("external-binding"));
  s.faults.external_bindings = 0;
  s.profile = "kubernetes";
  s.mechanisms = profile("kubernetes").value();
  WorldModel model(std::make_shared<const Cluster>(s), std::bitset<spec::kPropertyCount>().set());
  auto r = explore_world(model, checker::Limits{2'000'000, std::nullopt, std::nullopt});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 222u);
  EXPECT_EQ(r.stats.transitions, 621u);
}

// FIDELITY §1.2: with SchedulerPopFromBackoffQ on (kubernetes) #141694's strand needs no timing;
// with it off the preemptor enters backoffQ ungated and is stranded only when its backoff
// expires while its redundant NotFound job still runs — a longer schedule through
// `backoff-expires`; without backoffQ the shortest schedule is the one F4 was found with.
TEST(Scenarios, BackoffGateDecidesHowF4Strands) {
  auto length_and_expiry = [](const std::string& backoff) {
    auto r = check("g1-basic", {"--profile", "kubernetes", "--backoff=" + backoff, "--property",
                                "no-lost-wakeup"});
    EXPECT_EQ(r.outcome, checker::Outcome::kViolated) << backoff;
    bool expiry = false;
    for (const Action& a : r.violation->path)
      expiry = expiry || a.kind == ActionKind::kBackoffExpires;
    return std::make_pair(r.violation->path.size(), expiry);
  };
  EXPECT_EQ(length_and_expiry("pop-when-idle"), std::make_pair(std::size_t{16}, false));
  EXPECT_EQ(length_and_expiry("expiry-only"), std::make_pair(std::size_t{18}, true));
  EXPECT_EQ(length_and_expiry("none"), std::make_pair(std::size_t{16}, false));
}

// SPEC §2.4, FIDELITY §2: with patch-diff=view h's takeover job skips p, whose copy does not
// yet show its own nomination, so no clear is delivered and no PR #129058 move wakes p — the
// strand comes a step sooner than when the patch is diffed against the API server's value.
TEST(Scenarios, PatchDiffViewSkipsTheClearOnSecondNode) {
  auto length = [](const std::string& patch_diff) {
    auto r = check("second-node", {"--profile", "kubernetes", "--patch-diff=" + patch_diff,
                                   "--property", "no-lost-wakeup"});
    EXPECT_EQ(r.outcome, checker::Outcome::kViolated) << patch_diff;
    return r.violation->path.size();
  };
  EXPECT_EQ(length("view"), 18u);
  EXPECT_EQ(length("truth"), 19u);
}

// SPEC §2.5, FIDELITY §3 F12: with the API dispatcher (kubernetes-1.35) a preemptor is back in the
// queue before its nomination patch is sent. On g7-higher-takes-place p-mid's first patch
// (node-1) is sent late, after p-high took node-1 and p-mid re-nominated itself to node-2,
// whose patch is still queued; the informer delivers the older nomination and the nominator
// follows it (F1), so node-2 looks free and victim-binding is assumed there. Nothing in the
// event queue is newer than the update, so --stale-nomination=ignore does not close it. Under
// kubernetes (direct patches) the scenario holds no-double-claim. On early-gate p1, re-admitted
// by the flush before its patch is sent, is eligible to preempt again (its copy names no
// nominated node whose victim is terminating) and preempts on n2 while p3 is pending.
TEST(Scenarios, TheDispatcherSendsANominationAfterThePodIsBackInTheQueue) {
  auto r =
      check("g7-higher-takes-place", {"--profile", "kubernetes", "--property", "no-double-claim"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 815'099u);
  r = check("g7-higher-takes-place",
            {"--profile", "kubernetes-1.35", "--property", "no-double-claim"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 17u);
  EXPECT_EQ(r.stats.states, 104'256u);
  r = check("g7-higher-takes-place", {"--profile", "kubernetes-1.35", "--stale-nomination=ignore",
                                      "--property", "no-double-claim"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 22u);
  bool late_patch = false;
  for (const Action& a : r.violation->path)
    late_patch = late_patch || a.kind == ActionKind::kStatusPatch;
  EXPECT_TRUE(late_patch);

  r = check("early-gate", {"--profile", "kubernetes", "--property", "no-over-preemption"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 601u);
  r = check("early-gate", {"--profile", "kubernetes-1.35", "--property", "no-over-preemption"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 12u);
  EXPECT_EQ(r.stats.states, 623u);
  r = check("node-arrives", {"--profile", "kubernetes", "--property", "no-over-preemption"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
  EXPECT_EQ(r.stats.states, 92'898u);
  r = check("node-arrives", {"--profile", "kubernetes-1.35", "--property", "no-over-preemption"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 7u);
}

// SPEC §2.5: the API dispatcher sends every call it holds, so a state with a queued status
// patch is not quiescent: no-lost-wakeup is judged only once the patches are sent (g1-basic's
// #141694 strand, 17 steps under kubernetes-1.35, 16 under kubernetes).
TEST(Scenarios, AQueuedStatusPatchKeepsTheWorldFromSettling) {
  auto r = check("g1-basic", {"--profile", "kubernetes-1.35", "--property", "no-lost-wakeup"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 17u);
  Scenario s = load_scenario_file(scenario_path("g1-basic"));
  MechanismChoice choice;
  choice.profile = "kubernetes-1.35";
  ASSERT_FALSE(apply_choice(s, choice).has_value());
  const Cluster cluster(std::move(s));
  World w(cluster);
  for (const Action& a : r.violation->path)
    w.apply(a);
  EXPECT_EQ(w.queued_patches(), PodSet{0});
  EXPECT_TRUE(w.is_quiescent());
}

// FIDELITY §3 F14: with the API dispatcher p-big's nomination is dropped before its patch is
// sent (its clear is a no-op that removes the queued patch), so node-a never reaches the API
// and no PR #129058 move wakes p-small, which failed beside the in-memory nomination. Under
// kubernetes the scenario strands a pod only through F4, in 22 steps.
TEST(Scenarios, ANominationDroppedBeforeItsPatchIsSentWakesNobody) {
  auto r =
      check("nomination-released", {"--profile", "kubernetes", "--property", "no-lost-wakeup"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 22u);
  r = check("nomination-released",
            {"--profile", "kubernetes-1.35", "--property", "no-lost-wakeup"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(r.violation->path.size(), 14u);
  bool patch_sent = false;
  for (const Action& a : r.violation->path)
    patch_sent = patch_sent || a.kind == ActionKind::kStatusPatch;
  EXPECT_FALSE(patch_sent);
}

// SPEC §2.3: a binding sent before a restart lands after the relist. The new process, which
// knows nothing of it, gives the same space to a pod that arrived meanwhile: the API server
// binds both (the kubelet's admission, not modelled, would refuse one). Under `reference` too:
// no switch of the scheduler's can close it. Before late bindings, the lost binding was simply
// dropped and the scenario held.
TEST(Scenarios, ABindingSentBeforeARestartCanLandBesideTheNewProcesssChoice) {
  Scenario s;
  s.name = "late-binding";
  s.nodes = {NodeSpec{"node", 4000, 4}};
  PodSpec p;
  p.name = "p";
  p.priority = 1;
  p.cpu = 3000;
  p.memory = 3;
  PodSpec q = p;
  q.name = "q";
  q.priority = 10;
  q.arrives_later = true;
  s.pods = {p, q};
  s.faults.restarts = 1;
  auto r = check_scenario(s, {"--property", "no-overcommit"});
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  bool late = false;
  for (const Action& a : r.violation->path)
    late = late || a.kind == ActionKind::kLateBind;
  EXPECT_TRUE(late);
}

// pdb-status=lagged under `reference`: the published budget is state and the disruption
// controller's pdb-sync a step, and inflight=on trusts no published budget above its own
// count, so #91492's race stays closed (FIDELITY §3 F17). On takeover-pdb, kube-scheduler's
// profile holds with either status: p-high may choose web-2 after the informer shows web-1
// gone while the published budget still counts it, but web-2 is p-mid's pending victim by
// then, so no budget is spent twice.
TEST(Scenarios, ThePdbStatusLagIsClosedUnderReference) {
  auto r = check("pdb-budget-race", {"--pdb-status=lagged"});
  ASSERT_EQ(r.outcome, checker::Outcome::kHolds)
      << (r.violation ? r.violation->name + ": " + r.violation->message : r.limit);
  EXPECT_EQ(r.stats.states, 12660u);
  EXPECT_EQ(r.stats.transitions, 44753u);
  EXPECT_EQ(r.stats.depth, 28u);
  auto t = check("takeover-pdb", {"--pdb-status=lagged", "--property", "no-pdb-overspend"});
  EXPECT_EQ(t.outcome, checker::Outcome::kHolds) << (t.violation ? t.violation->message : t.limit);
  EXPECT_EQ(t.stats.states, 912949u);
}

// Best effort is allowed: on pdb.yaml with a budget of none (min-available 2) and node-b
// gone, p's only candidate evicts both web pods; kube-scheduler's rules count both as
// violations, so no-pdb-overspend holds under every profile and either status. With the
// budget allowing one (min-available 1) the rules count one violation of two victims, which
// is again exactly what happens.
TEST(Scenarios, ABudgetSpentWhereNoOtherCandidateIsLeftIsAllowed) {
  for (const int min_available : {1, 2}) {
    Scenario s = load_scenario_file(scenario_path("pdb"));
    s.nodes.pop_back();  // node-b and its batch pod
    std::erase_if(s.pods, [](const PodSpec& p) { return p.name == "batch"; });
    s.pdbs.at(0).min_available = min_available;
    for (const std::string profile : {"reference", "kubernetes"}) {
      for (const std::string status : {"--pdb-status=live", "--pdb-status=lagged"}) {
        auto r =
            check_scenario(s, {"--profile", profile, status, "--property", "no-pdb-overspend"});
        EXPECT_EQ(r.outcome, checker::Outcome::kHolds)
            << min_available << " " << profile << " " << status << ": "
            << (r.violation ? r.violation->message : r.limit);
        EXPECT_GT(r.stats.states, 3u);
      }
    }
  }
}

TEST(Scenarios, ReleaseBeforeLastIsHarmlessUnderKubernetesOnlyWithTheLastVictimGate) {
  // The same scenario under today's kube-scheduler (gate=last-victim) holds.
  auto r = check("g2-single-victim", {"--profile", "kubernetes"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
}

// Switches that break nothing on their own, on any committed scenario: the other mechanisms
// of `reference` already close their race (reported in SPEC.md as findings).
TEST(Scenarios, SwitchesCoveredByOtherMechanismsBreakNothingAlone) {
  for (const std::string sw :
       {"--gate=release-before-last", "--gate=hold-until-done", "--clear-lower=async",
        "--stale-nomination=apply", "--wake-on-release=off"}) {
    for (const Pin& pin : reference_pins()) {
      // three-preemptors is the race stale-nomination=ignore guards (pinned in races()).
      if (pin.scenario == "three-preemptors" && sw == "--stale-nomination=apply")
        continue;
      // external-binding is a race wake-on-release guards (pinned in races()).
      if (pin.scenario == "external-binding" && sw == "--wake-on-release=off")
        continue;
      auto r = check(pin.scenario, {sw});
      EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << pin.scenario << " " << sw;
    }
  }
}

// KEP-4832's throughput claim (FIDELITY §3): four victims, no lower-priority nominee. With
// synchronous deletion the scheduling thread waits for one Parallelizer wave of PATCH then
// DELETE (2) and the preemptor's own status patch (1); with asynchronous deletion only for
// the latter. The figures do not depend on the run's deletion switch.
TEST(Scenarios, FourVictimsBlockTheSchedulingThreadThreeRoundTripsSyncOneAsync) {
  for (const std::string deletion : {"async", "sync"}) {
    Scenario s = load_scenario_file(scenario_path("four-victims"));
    ASSERT_FALSE(set_mechanism(s.mechanisms, "deletion", deletion).has_value());
    WorldModel model(std::make_shared<const Cluster>(s), std::bitset<spec::kPropertyCount>().set());
    auto r = explore_world(model, checker::Limits{2'000'000, std::nullopt, std::nullopt});
    ASSERT_EQ(r.outcome, checker::Outcome::kHolds) << deletion;
    EXPECT_EQ(model.peak_round_trips().sync, 3u) << deletion;
    EXPECT_EQ(model.peak_round_trips().async, 1u) << deletion;
  }
}

TEST(Scenarios, ChecksAreDeterministic) {
  auto a = check("default", {"--profile", "kubernetes"});
  auto b = check("default", {"--profile", "kubernetes"});
  ASSERT_TRUE(a.violation && b.violation);
  EXPECT_EQ(a.violation->path, b.violation->path);
  EXPECT_EQ(a.stats.states, b.stats.states);
  EXPECT_EQ(a.stats.transitions, b.stats.transitions);
}

}  // namespace
}  // namespace preemptcheck

namespace preemptcheck {
namespace {

// Kubernetes' TestSelectBestCandidate and TestPostFilter cases whose nodes start overcommitted
// load only with `allow-overcommitted-start`, and the evaluator then decides what
// kube-scheduler's tests expect: the node and its victims.
TEST(Scenarios, OvercommittedStartsGiveKubeSchedulersDecision) {
  struct Case {
    std::string scenario;
    std::string node;
    std::set<std::string> victims;
  };
  for (const Case& c : {Case{"select-best-overcommitted", "node1", {"p1.1", "p1.2", "p1.3"}},
                        Case{"post-filter-overcommitted", "node2", {"p3"}}}) {
    Scenario s = load_scenario_file(scenario_path(c.scenario));
    ASSERT_TRUE(s.allow_overcommitted_start) << c.scenario;
    Scenario refused = s;
    refused.allow_overcommitted_start = false;
    EXPECT_THROW(load_scenario_text(scenario_to_yaml(refused), c.scenario), FileError);
    const Cluster cluster(s);
    const World w(cluster);
    const CycleDecision d = w.decide(cluster.find_pod("p").value());
    ASSERT_EQ(d.kind, CycleDecision::Kind::kPreempt) << c.scenario;
    EXPECT_EQ(cluster.node_name(d.node), c.node) << c.scenario;
    std::set<std::string> victims;
    for (PodId v : pods_in(d.victims))
      victims.insert(cluster.pod_name(v));
    EXPECT_EQ(victims, c.victims) << c.scenario;
  }
}

// A node that starts over its capacity breaks no-overcommit only once a pod is added to it:
// under `reference` nothing is (the filter counts every pod on the node), while without assume
// two pods bind into the space a deleted pod left, beside the pod that was over from the start.
TEST(Scenarios, OvercommittedStartIsJudgedOnWhatIsAdded) {
  const Scenario s = load_scenario_text(
      "name: overcommitted-start\n"
      "nodes: [{name: node-a, cpu: 2}]\n"
      "pods:\n"
      "  - {name: v1, priority: 1000, cpu: 2, node: node-a}\n"
      "  - {name: v2, priority: 1000, cpu: 1, node: node-a}\n"
      "  - {name: p1, priority: 1, cpu: 1}\n"
      "  - {name: p2, priority: 1, cpu: 1}\n"
      "faults: {deletions: 1}\n"
      "allow-overcommitted-start: true\n",
      "overcommitted-start");
  const auto holds = check_scenario(s, {"--property", "no-overcommit"});
  EXPECT_EQ(holds.outcome, checker::Outcome::kHolds)
      << (holds.violation ? holds.violation->message : holds.limit);
  const auto broken = check_scenario(s, {"--assume=off", "--property", "no-overcommit"});
  ASSERT_EQ(broken.outcome, checker::Outcome::kViolated);
  EXPECT_EQ(broken.violation->message, "node-a holds v2, p1, p2 (cpu 3/2)");
}

// expected-outcome names a pod expected bound that was deleted as deleted, not as unbound: a
// running pod the scenario expects to stay bound is preempted for a higher one.
TEST(Scenarios, ExpectedOutcomeSaysAnExpectedPodWasDeleted) {
  const Scenario s = load_scenario_text(
      "name: expected-victim\n"
      "nodes: [{name: node-a, cpu: 2}]\n"
      "pods:\n"
      "  - {name: low, priority: 1, cpu: 2, node: node-a}\n"
      "  - {name: high, priority: 1000, cpu: 2}\n"
      "expect: {bound: [low]}\n",
      "expected-victim");
  const auto broken = check_scenario(s, {"--property", "expected-outcome"});
  ASSERT_EQ(broken.outcome, checker::Outcome::kViolated) << broken.limit;
  EXPECT_EQ(broken.violation->message, "the cluster has settled and low is deleted, not bound");
}

}  // namespace
}  // namespace preemptcheck
