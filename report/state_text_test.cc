// State text tests: the state dump tells apart every two states the fingerprint tells apart
// (every reachable state of a split-cycle scenario, under `reference` and `kubernetes`), the
// split cycle's lines appear only while a pod is in flight, and the changes of a step are
// matched by key, so a line that comes or goes is shown as such and moves no other line.
// Expected: all pass.
//
// timeline.h comes before state_text.h on purpose: report/ once had a StateLines of its own
// that hid impl/show.h's, and this order did not compile.
#include "report/timeline.h"
// (keep the order above)
#include "report/state_text.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "files/scenario_yaml.h"
#include "impl/action.h"
#include "impl/cluster.h"
#include "impl/mechanisms.h"
#include "impl/show.h"
#include "impl/world.h"

namespace preemptcheck::report {
namespace {

std::string full_text(const World& w) {
  std::ostringstream out;
  print_state(state_lines(w), 24, out);
  return out.str();
}

std::string changes_text(const World& before, const World& after) {
  std::ostringstream out;
  print_state_changes(state_lines(before), state_lines(after), 24, out);
  return out.str();
}

Scenario split_scenario(const std::string& profile_name,
                        const std::string& name = "in-flight-deletion") {
  Scenario s = load_scenario_file("scenarios/" + name + ".yaml");
  const auto m = profile(profile_name);
  EXPECT_TRUE(m.has_value()) << profile_name;
  s.profile = profile_name;
  s.mechanisms = m.value_or(Mechanisms{});
  EXPECT_FALSE(set_mechanism(s.mechanisms, "cycle", "split").has_value());
  return s;
}

// What the walk over every reachable state saw.
struct Walk {
  std::size_t states = 0;
  std::size_t in_flight = 0;         ///< states with a cycle in flight
  std::size_t in_flight_event = 0;   ///< ... and an event recorded for it
  std::size_t popped_nominated = 0;  ///< ... whose popped copy's nomination is stale
  std::size_t waiting = 0;           ///< states with a preemptor waiting for its victims
  std::size_t waiting_dumped = 0;    ///< states whose dump has the waiting preemptors' line
  std::vector<std::string> clashes;  ///< two fingerprints, one dump
  /// Two states with one dump that differ in a field of the split cycle or the waiting
  /// preemptors (as far as the fingerprint digests it).
  std::vector<std::string> split_clashes;
};

// The fields the split cycle's lines and the waiting preemptors' line show, as the
// fingerprint digests them.
std::string split_fields(const World& w) {
  if (w.in_flight() == kNoPod)
    return fmt::format("waiting {}", w.waiting_for_own_victims());
  const CycleDecision& d = w.in_flight_decision();
  const bool stale = w.mechanisms().patch_diff_view &&
                     w.in_flight_nominated() != w.lister(w.in_flight()).nominated;
  return fmt::format(
      "waiting {} in flight {} kind {} node {} victims {} to evict {} pdb violations {} "
      "event {} popped {}",
      w.waiting_for_own_victims(), w.in_flight(), static_cast<int>(d.kind), d.node, d.victims,
      d.to_evict, d.pdb_violations, w.in_flight_event(),
      stale ? static_cast<int>(w.in_flight_nominated()) : -1);
}

// Breadth-first over every state reachable from the scenario's initial World (by World
// fingerprint), collecting each state's dump.
Walk walk_every_state(const Scenario& s) {
  const auto cluster = std::make_shared<const Cluster>(s);
  Walk walk;
  std::unordered_set<std::uint64_t> seen;
  std::map<std::string, std::uint64_t> fingerprint_of_dump;
  std::map<std::string, std::string> split_fields_of_dump;
  std::deque<World> queue;
  queue.emplace_back(*cluster);
  seen.insert(queue.front().fingerprint());
  std::vector<Action> actions;
  while (!queue.empty()) {
    const World w = queue.front();
    queue.pop_front();
    ++walk.states;
    if (w.in_flight() != kNoPod) {
      ++walk.in_flight;
      walk.in_flight_event += w.in_flight_event() ? 1 : 0;
      walk.popped_nominated += w.in_flight_nominated() != w.lister(w.in_flight()).nominated &&
                                       w.mechanisms().patch_diff_view
                                   ? 1
                                   : 0;
    }
    walk.waiting += w.waiting_for_own_victims() != 0 ? 1 : 0;
    const std::uint64_t fingerprint = w.fingerprint();
    const std::string dump = full_text(w);
    walk.waiting_dumped += dump.find("    awaiting own victims ") != std::string::npos ? 1 : 0;
    const auto [it, fresh] = fingerprint_of_dump.emplace(dump, fingerprint);
    if (!fresh && it->second != fingerprint) {
      walk.clashes.push_back(
          fmt::format("{:016x} and {:016x} both dump as\n{}", it->second, fingerprint, dump));
    }
    const auto [fields, new_dump] = split_fields_of_dump.emplace(dump, split_fields(w));
    if (!new_dump && fields->second != split_fields(w)) {
      walk.split_clashes.push_back(
          fmt::format("{} and {} both dump as\n{}", fields->second, split_fields(w), dump));
    }
    actions.clear();
    w.enabled_actions(actions);
    for (const Action& a : actions) {
      World next = w;
      next.apply(a);
      if (seen.insert(next.fingerprint()).second)
        queue.push_back(next);
    }
  }
  return walk;
}

Walk expect_distinct_dumps(const std::string& profile_name) {
  Walk walk = walk_every_state(split_scenario(profile_name));
  EXPECT_TRUE(walk.clashes.empty()) << walk.clashes.size() << " clashes; the first:\n"
                                    << walk.clashes.front();
  // The walk reaches the states whose fields the split cycle's lines show.
  EXPECT_GT(walk.in_flight, 0u);
  EXPECT_GT(walk.in_flight_event, 0u);
  EXPECT_GT(walk.states, walk.in_flight);
  return walk;
}

TEST(StateText, DistinctFingerprintsDumpDistinctlyUnderASplitCycleReference) {
  // inflight=on: a preemptor found its own victims still in flight; the line shows exactly
  // then.
  const Walk walk = expect_distinct_dumps("reference");
  EXPECT_GT(walk.waiting, 0u);
  EXPECT_EQ(walk.waiting_dumped, walk.waiting);
}

TEST(StateText, DistinctFingerprintsDumpDistinctlyUnderASplitCycleKubernetes) {
  expect_distinct_dumps("kubernetes");
}

// api-calls=dispatched: states that differ only in a status patch queued in the API
// dispatcher dump differently.
TEST(StateText, DistinctFingerprintsDumpDistinctlyUnderASplitCycleKubernetes135) {
  expect_distinct_dumps("kubernetes-1.35");
}

// patch-diff=view: the informer changed the in-flight pod's nomination after the pop, which
// in-flight-deletion never does. binding-in-flight does; its deleted pods' last objects are
// digested but not dumped, so only the split cycle's fields are compared there.
TEST(StateText, ThePoppedCopysStaleNominationIsDumped) {
  const Walk walk = walk_every_state(split_scenario("kubernetes", "binding-in-flight"));
  EXPECT_GT(walk.popped_nominated, 0u);
  EXPECT_TRUE(walk.split_clashes.empty()) << walk.split_clashes.size() << " clashes; the first:\n"
                                          << walk.split_clashes.front();
}

Action action(const World& w, std::string_view line) {
  std::string error;
  auto a = parse_action(line, w.cluster(), &error);
  EXPECT_TRUE(a.has_value()) << error;
  return a.value_or(Action{});
}

TEST(StateText, TheCycleInFlightComesAndGoesAsOneLine) {
  const Cluster cluster(split_scenario("reference"));
  const World initial(cluster);
  EXPECT_EQ(full_text(initial).find("scheduling cycle"), std::string::npos);
  World started = initial;
  started.apply(action(started, "schedule preemptor"));
  EXPECT_NE(full_text(started).find("    scheduling cycle          preemptor: would preempt "
                                    "victim-1, victim-2 on node\n"),
            std::string::npos)
      << full_text(started);
  // The line comes: shown as new, and the lines after it are matched by key, not shifted.
  EXPECT_EQ(changes_text(initial, started),
            "    activeQ                   preemptor -> empty\n"
            "    scheduling cycle          - -> preemptor: would preempt victim-1, victim-2 on "
            "node\n");
  World ended = started;
  ended.apply(action(ended, "cycle-end preemptor"));
  EXPECT_EQ(full_text(ended).find("scheduling cycle"), std::string::npos);
  // ... and goes.
  EXPECT_NE(changes_text(started, ended)
                .find("    scheduling cycle          preemptor: would preempt victim-1, victim-2 "
                      "on node -> -\n"),
            std::string::npos)
      << changes_text(started, ended);
}

TEST(StateText, AnAtomicCycleKeepsItsDump) {
  Scenario s = split_scenario("reference");
  s.mechanisms.cycle = Cycle::kAtomic;
  const Cluster cluster(s);
  World w(cluster);
  w.apply(action(w, "schedule preemptor"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : state_lines(w))
    keys.push_back(key);
  // The keys of a state without a cycle in flight or a waiting preemptor, as before either
  // line existed.
  const std::vector<std::string> expected = {
      "victim-1 api",      "victim-1 informer",  "victim-1 nominator",  "victim-1 binding",
      "victim-2 api",      "victim-2 informer",  "victim-2 nominator",  "victim-2 binding",
      "preemptor api",     "preemptor informer", "preemptor nominator", "preemptor binding",
      "activeQ",           "unschedulable pool", "gated (PreEnqueue)",  "in-flight set",
      "in-flight victims", "last victims",       "pending events",      "jobs"};
  EXPECT_EQ(keys, expected);
}

TEST(StateText, ChangesMatchLinesByKey) {
  const StateLines before = {{"a", "1"}, {"gone", "x"}, {"b", "2"}, {"c", "3"}};
  const StateLines after = {{"a", "1"}, {"b", "2"}, {"new", "y"}, {"c", "4"}};
  std::ostringstream out;
  print_state_changes(before, after, 4, out);
  EXPECT_EQ(out.str(),
            "    gone  x -> -\n"
            "    new   - -> y\n"
            "    c     3 -> 4\n");
  std::ostringstream same;
  print_state_changes(before, before, 4, same);
  EXPECT_EQ(same.str(), "    (no visible change)\n");
}

}  // namespace
}  // namespace preemptcheck::report
