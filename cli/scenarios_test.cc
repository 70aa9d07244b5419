// Regression data for every committed scenario: under `reference` every property holds over
// every interleaving, with its distinct-state count and witnesses pinned; each mechanism
// switch breaks the property it guards with a pinned shortest counterexample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/explorer.h"
#include "cli/args.h"
#include "cli/check_command.h"
#include "properties/world_model.h"
#include "spec/property.h"

namespace preemptcheck::cli {
namespace {

std::string scenario_path(const std::string& name) { return "scenarios/" + name + ".yaml"; }

// Parses `args` as `check` would and explores the result.
checker::Result<Action> check(const std::string& scenario, std::vector<std::string> args,
                              std::uint64_t max_states = 2'000'000) {
  args.insert(args.begin(), scenario_path(scenario));
  std::string error;
  auto options = parse_check_args(args, error);
  EXPECT_TRUE(options.has_value()) << error;
  Scenario s = load_scenario(options->scenario_path);
  EXPECT_FALSE(apply_choice(s, options->mechanisms).has_value());
  WorldModel model(std::make_shared<const Cluster>(s), options->checked);
  return checker::explore(model, checker::Limits{max_states, std::nullopt, std::nullopt});
}

std::set<std::string> reached(const checker::Result<Action>& r) {
  std::set<std::string> out;
  for (size_t i = 0; i < r.reached.size(); ++i) {
    if (r.reached[i]) out.insert(r.properties[i].name);
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
    if (c == '-') c = '_';
  }
  return text;
}

void PrintTo(const Pin& pin, std::ostream* os) { *os << pin.scenario; }

const std::vector<Pin>& reference_pins() {
  static const std::vector<Pin> kPins = {
      {"assume-window", 7, 10, 4, {}},
      {"binding-in-flight", 107, 207, 15,
       {"victims-in-flight", "nominee-binds", "binding-beside-binding", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"default", 8889, 24757, 29,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"eviction-failure", 287, 674, 17,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g1-basic", 132, 309, 14,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g2-single-victim", 33, 64, 10,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"g3-lower-no-takeover", 250, 672, 15,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"g4-higher-takeover", 1439, 3756, 26,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"nomination-released", 1041, 2848, 26,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "binding-beside-binding", "preemptor-retried", "gated-preemptor-woken"}},
      {"nomination-window", 61, 145, 11,
       {"victims-in-flight", "busy-node-evaluated", "nominee-binds", "preemptor-retried",
        "gated-preemptor-woken"}},
      {"pdb", 33, 64, 10,
       {"victims-in-flight", "nominee-binds", "preemptor-retried", "gated-preemptor-woken"}},
      {"second-node", 5027, 14314, 25,
       {"victims-in-flight", "busy-node-evaluated", "takeover", "nominee-binds",
        "preemptor-retried", "gated-preemptor-woken"}},
  };
  return kPins;
}

TEST(cliScenarios, EveryCommittedScenarioIsPinned) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator("scenarios")) {
    if (entry.path().extension() == ".yaml") on_disk.insert(entry.path().stem().string());
  }
  std::set<std::string> pinned;
  for (const Pin& p : reference_pins()) pinned.insert(p.scenario);
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

INSTANTIATE_TEST_SUITE_P(cli, ReferenceProfile, ::testing::ValuesIn(reference_pins()),
                         [](const auto& param_info) { return test_name(param_info.param.scenario); });

TEST(cliScenarios, EveryWitnessIsReachedSomewhere) {
  std::set<std::string> all;
  for (const Pin& p : reference_pins()) all.insert(p.witnesses.begin(), p.witnesses.end());
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) {
      EXPECT_TRUE(all.count(std::string(d.name))) << d.name;
    }
  }
}

TEST(cliScenarios, DefaultScenarioReachesEveryWitness) {
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
  for (const std::string& s : race.switches) *os << ' ' << s;
  *os << " -> " << race.property;
}

const std::vector<Race>& races() {
  static const std::vector<Race> kRaces = {
      {"default", {"--inflight=off"}, "no-double-victim", 4},
      {"nomination-window", {"--nomination=async"}, "no-double-claim", 2},
      {"assume-window", {"--assume=off"}, "no-overcommit", 2},
      {"g2-single-victim", {"--gate=hold-until-done", "--activate-on-finish=off"}, "no-lost-wakeup", 7},
      // #134249: on top of kube-scheduler's own in-flight set; under `reference` the
      // in-flight set already keeps the preemptor off its own victims (see SPEC.md).
      {"g2-single-victim", {"--profile", "kubernetes", "--gate=release-before-last"}, "no-double-victim", 5},
      // The case KEP-4832 accepts: a higher-priority preemptor takes the same victims.
      {"g4-higher-takeover", {"--inflight=preemptor-only"}, "no-double-victim", 4},
      {"binding-in-flight", {"--activate-on-finish=off"}, "no-lost-wakeup", 9},
      {"second-node", {"--profile", "kubernetes-1.32", "--property", "no-over-preemption"}, "no-over-preemption", 8},
      // Without assume, p-mid binds into the space p-high was preempting for.
      {"g3-lower-no-takeover", {"--assume=off", "--property", "expected-outcome"}, "expected-outcome", 17},
      // #141694: kube-scheduler's redundant second preemption of an already deleted victim;
      // the delete event is used up while the preemptor is gated and nothing activates it.
      {"g1-basic", {"--profile", "kubernetes", "--property", "no-lost-wakeup"}, "no-lost-wakeup", 16},
      // A dropped nomination wakes nobody: p-small waits for the flush.
      {"nomination-released", {"--wake-on-release=off"}, "no-lost-wakeup", 15},
      // PR #142294 on kube-scheduler as it is: the preemptor, activated before the informer
      // shows its victim terminating, deletes the same victim again (#134249's symptom).
      // Under `reference` the in-flight set makes it wait for its own victims.
      {"g2-single-victim", {"--profile", "kubernetes", "--activate-on-finish=on"}, "no-double-victim", 5},
  };
  return kRaces;
}

class Switches : public ::testing::TestWithParam<Race> {};

TEST_P(Switches, BreakTheGuardedPropertyAtThePinnedDepth) {
  const Race& race = GetParam();
  auto r = check(race.scenario, race.switches);
  ASSERT_EQ(r.outcome, checker::Outcome::kViolated);
  std::set<std::string> broken{r.violation->name};
  for (const auto& m : r.violation->also_violated) broken.insert(m.name);
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
    if (w == "--profile") continue;
    out += "_" + w.substr(w.rfind('-', 1) == 1 ? 2 : 0);
  }
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(cli, Switches, ::testing::ValuesIn(races()),
                         [](const auto& param_info) { return race_name(param_info.param); });

// Kubernetes' TestAsyncPreemption cases assert one interleaving; here their outcomes hold over
// every interleaving, under kube-scheduler's profile as under the reference.
TEST(cliScenarios, IntegrationOutcomesHoldOverEveryInterleaving) {
  for (const std::string scenario :
       {"g1-basic", "g2-single-victim", "g3-lower-no-takeover", "g4-higher-takeover"}) {
    for (const std::string p : {"reference", "kubernetes"}) {
      auto r = check(scenario, {"--profile", p, "--property", "expected-outcome"});
      EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << scenario << " " << p;
    }
  }
}

// PR #142294's fix for #141694 closes the race exhaustively on the same scenario.
TEST(cliScenarios, ActivateOnFinishClosesTheStuckPreemptor) {
  auto r = check("g1-basic", {"--profile", "kubernetes", "--activate-on-finish=on", "--property",
                              "no-lost-wakeup"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
}

TEST(cliScenarios, ReleaseBeforeLastIsHarmlessUnderKubernetesOnlyWithTheLastVictimGate) {
  // The same scenario under today's kube-scheduler (gate=last-victim) holds.
  auto r = check("g2-single-victim", {"--profile", "kubernetes"});
  EXPECT_EQ(r.outcome, checker::Outcome::kHolds);
}

// Switches that break nothing on their own, on any committed scenario: the other mechanisms
// of `reference` already close their race (reported in SPEC.md as findings).
TEST(cliScenarios, SwitchesCoveredByOtherMechanismsBreakNothingAlone) {
  for (const std::string sw : {"--gate=release-before-last", "--gate=hold-until-done",
                               "--clear-lower=async", "--stale-nomination=apply"}) {
    for (const Pin& pin : reference_pins()) {
      auto r = check(pin.scenario, {sw});
      EXPECT_EQ(r.outcome, checker::Outcome::kHolds) << pin.scenario << " " << sw;
    }
  }
}

TEST(cliScenarios, ChecksAreDeterministic) {
  auto a = check("default", {"--profile", "kubernetes"});
  auto b = check("default", {"--profile", "kubernetes"});
  ASSERT_TRUE(a.violation && b.violation);
  EXPECT_EQ(a.violation->path, b.violation->path);
  EXPECT_EQ(a.stats.states, b.stats.states);
  EXPECT_EQ(a.stats.transitions, b.stats.transitions);
}

// --- Limits: an honest partial report, never a pass ------------------------------------------

// Runs `preemptcheck check ARGS` as the command does.
int run(std::vector<std::string> args, std::string& out) {
  args.insert(args.begin(), "check");
  std::ostringstream o;
  std::ostringstream e;
  int code = run_main(args, o, e);
  out = o.str() + e.str();
  return code;
}

TEST(cliLimits, MaxStatesStopsWithExitThreeAndNoPass) {
  std::string out;
  EXPECT_EQ(run({"--max-states", "100"}, out), kExitLimit);
  EXPECT_NE(out.find("INCOMPLETE"), std::string::npos) << out;
  EXPECT_NE(out.find("max-states"), std::string::npos) << out;
  EXPECT_EQ(out.find(" holds\n"), std::string::npos) << out;
  EXPECT_NE(out.find("100 states"), std::string::npos) << out;
}

TEST(cliLimits, MaxDepthStopsWithExitThree) {
  std::string out;
  EXPECT_EQ(run({"--max-depth", "5"}, out), kExitLimit);
  EXPECT_NE(out.find("max-depth"), std::string::npos) << out;
  EXPECT_EQ(out.find(" holds\n"), std::string::npos) << out;
}

TEST(cliLimits, TimeLimitStopsWithExitThree) {
  std::string out;
  EXPECT_EQ(run({"--time-limit", "0"}, out), kExitLimit);
  EXPECT_NE(out.find("time-limit"), std::string::npos) << out;
}

TEST(cliLimits, JsonReportsTheLimit) {
  std::string out;
  EXPECT_EQ(run({"--max-states", "10", "--json"}, out), kExitLimit);
  EXPECT_NE(out.find("\"outcome\":\"limit-reached\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"limit\":\"max-states\""), std::string::npos) << out;
}

TEST(cliLimits, AViolationFoundWithinTheLimitStillExitsOne) {
  std::string out;
  EXPECT_EQ(run({"--inflight=off", "--max-depth", "4"}, out), kExitViolated);
}

TEST(cliCheck, DefaultHoldsAndPrintsStatistics) {
  std::string out;
  EXPECT_EQ(run({}, out), kExitHolds);
  EXPECT_NE(out.find("8889 states"), std::string::npos) << out;
  EXPECT_NE(out.find("states/s"), std::string::npos) << out;
  EXPECT_NE(out.find("peak memory"), std::string::npos) << out;
}

TEST(cliCheck, ViolationPrintsEveryStepWithItsComment) {
  std::string out;
  EXPECT_EQ(run({"--inflight=off"}, out), kExitViolated);
  EXPECT_NE(out.find("VIOLATED no-double-victim"), std::string::npos) << out;
  EXPECT_NE(out.find("1. schedule p-high"), std::string::npos) << out;
  EXPECT_NE(out.find("4. schedule p-high"), std::string::npos) << out;
}

TEST(cliCheck, UnknownMechanismValueIsUsageError) {
  std::string error;
  EXPECT_FALSE(parse_check_args({"--inflight=maybe"}, error).has_value());
  EXPECT_NE(error.find("on, preemptor-only, off"), std::string::npos) << error;
  EXPECT_FALSE(parse_check_args({"--bogus"}, error).has_value());
  EXPECT_FALSE(parse_check_args({"--max-states", "lots"}, error).has_value());
  EXPECT_FALSE(parse_check_args({"--property", "takeover"}, error).has_value());
}

TEST(cliCheck, UnknownProfileExitsTwo) {
  std::string out;
  EXPECT_EQ(run({"--profile", "nonsense"}, out), kExitBadInput);
  EXPECT_NE(out.find("unknown profile"), std::string::npos) << out;
}

TEST(cliCheck, BadScenarioExitsTwoNamingFileLineAndColumn) {
  const auto path = std::filesystem::temp_directory_path() / "preemptcheck-bad-scenario.yaml";
  {
    std::ofstream f(path);
    f << "name: bad\ndescription: a pod on a node that does not exist\nnodes:\n"
         "  - {name: node-a, cpu: 4}\npods:\n  - {name: v1, cpu: 1, node: node-z}\n";
  }
  std::string out;
  EXPECT_EQ(run({path.string()}, out), kExitBadInput);
  EXPECT_NE(out.find(path.string() + ":6:"), std::string::npos) << out;
  EXPECT_NE(out.find("node-z"), std::string::npos) << out;
  std::filesystem::remove(path);
}

TEST(cliCheck, MissingScenarioFileExitsTwo) {
  std::string out;
  EXPECT_EQ(run({"scenarios/does-not-exist.yaml"}, out), kExitBadInput);
}

// The committed scenarios, by file name.
std::vector<std::string> committed_scenarios() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator("scenarios")) {
    if (entry.path().extension() == ".yaml") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// `check ARGS --quiet --json` as a JSON document, without the figures that depend on the
// machine (time, rates, memory).
nlohmann::json check_json(std::vector<std::string> args, int& code) {
  args.insert(args.begin(), "check");
  args.insert(args.end(), {"--quiet", "--json"});
  std::ostringstream o;
  std::ostringstream e;
  code = run_main(args, o, e);
  nlohmann::json j = nlohmann::json::parse(o.str());
  for (const char* key : {"seconds", "states_per_second", "peak_rss_bytes"}) j["stats"].erase(key);
  return j;
}

TEST(cliCheck, OneAndTwoThreadsPrintTheSameForEveryCommittedScenario) {
  for (const std::string& path : committed_scenarios()) {
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{}, std::vector<std::string>{"--profile", "kubernetes"},
          std::vector<std::string>{"--profile", "kubernetes", "--stop-at-first"}}) {
      std::vector<std::string> args{path};
      args.insert(args.end(), extra.begin(), extra.end());
      int one_code = 0;
      int two_code = 0;
      std::vector<std::string> one_args = args;
      one_args.insert(one_args.end(), {"--threads", "1"});
      std::vector<std::string> two_args = args;
      two_args.insert(two_args.end(), {"--threads", "2"});
      const nlohmann::json one = check_json(one_args, one_code);
      const nlohmann::json two = check_json(two_args, two_code);
      EXPECT_EQ(one_code, two_code) << path;
      EXPECT_EQ(one.dump(1), two.dump(1)) << path << " " << (extra.empty() ? "" : extra[1]);
    }
  }
}

TEST(cliCheck, EachViolatedPropertysCounterexampleIsAsShortAsItsOwnCheck) {
  std::size_t compared = 0;
  for (const std::string& path : committed_scenarios()) {
    int code = 0;
    const nlohmann::json all = check_json({path, "--profile", "kubernetes", "--threads", "2"}, code);
    for (const nlohmann::json& p : all["properties"]) {
      if (p["verdict"] != "violated") continue;
      ASSERT_TRUE(p.contains("steps")) << path << " " << p["name"];
      int alone_code = 0;
      const nlohmann::json alone =
          check_json({path, "--profile", "kubernetes", "--property", p["name"].get<std::string>(),
                      "--stop-at-first", "--threads", "1"},
                     alone_code);
      EXPECT_EQ(alone_code, kExitViolated) << path << " " << p["name"];
      ASSERT_TRUE(alone.contains("violation")) << path << " " << p["name"];
      EXPECT_EQ(p["steps"].size(), alone["violation"]["steps"].size()) << path << " " << p["name"];
      ++compared;
    }
  }
  EXPECT_GT(compared, 0U) << "no committed scenario violates a property under kubernetes";
}

TEST(cliCheck, MemorySizesParse) {
  EXPECT_EQ(parse_memory_size("200M"), 200'000'000U);
  EXPECT_EQ(parse_memory_size("2G"), 2'000'000'000U);
  EXPECT_EQ(parse_memory_size("512Mi"), 512U << 20);
  EXPECT_EQ(parse_memory_size("4096"), 4096U);
  EXPECT_FALSE(parse_memory_size("0").has_value());
  EXPECT_FALSE(parse_memory_size("2GB").has_value());
  EXPECT_FALSE(parse_memory_size("-1M").has_value());
  EXPECT_FALSE(parse_memory_size("").has_value());
}

TEST(cliCheck, MemoryLimitExitsThreeNamingIt) {
  std::string out;
  EXPECT_EQ(run({"--max-memory", "1K", "--quiet"}, out), kExitLimit);
  EXPECT_NE(out.find("memory limit"), std::string::npos) << out;
}

}  // namespace
}  // namespace preemptcheck::cli
