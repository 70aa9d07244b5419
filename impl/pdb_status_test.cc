// The disruption controller's published PDB status (pdb-status=lagged): what the scheduler's
// victim selection reads, when `pdb-sync` is enabled and what it writes (SPEC §2.6).
//
// Suite names start with "impl" so that `ctest -R impl` selects them.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/action.h"
#include "impl/evaluator.h"
#include "impl/test_support.h"
#include "impl/world.h"

namespace preemptcheck {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// pdb-budget-race: web-1 and web-2 (PDB web, minAvailable 1) beside a batch pod each.
Scenario budget_race(std::string_view profile_name, bool lagged) {
  PodSpec web_1 = pod("web-1", kLow, 2, "node-a");
  PodSpec web_2 = pod("web-2", kLow, 2, "node-b");
  web_1.labels = web_2.labels = {{"app", "web"}};
  Scenario s =
      scenario({node("node-a", 4), node("node-b", 4)},
               {web_1, pod("batch-a", kMid, 2, "node-a"), web_2, pod("batch-b", kMid, 2, "node-b"),
                pod("p-1", kHigh, 2), pod("p-2", kHigh, 2)},
               profile_name);
  s.pdbs.push_back(PdbSpec{"web", {{"app", "web"}}, 1});
  s.mechanisms.pdb_status_lagged = lagged;
  return s;
}

// p-1 preempts web-2 on node-b; its job evicts web-2 and the informer shows it terminating.
void first_preemption_observed(World& w) {
  run(w, "schedule p-1");
  if (enabled(w, "clear-nominations p-1"))  // clear-lower=async
    run(w, "clear-nominations p-1");
  run(w, "evict p-1 web-2");
  observe_all(w);
  ASSERT_TRUE(w.lister(id(w, "web-2")).terminating);
}

TEST(ImplPdbStatus, TheControllerHasPublishedEveryBudgetAtTheStart) {
  World w = world_of(budget_race("reference", true));
  EXPECT_EQ(w.published_disruptions_allowed(0), 1);
  EXPECT_EQ(w.pdb_counted(), bit_of(w, "web-1") | bit_of(w, "web-2"));
  EXPECT_FALSE(enabled(w, "pdb-sync web"));
}

TEST(ImplPdbStatus, LiveStatusIsNotStateAndHasNoSyncStep) {
  World w = world_of(budget_race("reference", false));
  EXPECT_EQ(w.pdb_counted(), 0u);
  first_preemption_observed(w);
  EXPECT_FALSE(enabled(w, "pdb-sync web"));
  EXPECT_NE(w.why_not_enabled(*parse_action("pdb-sync web", w.cluster())).find("lagged"),
            std::string::npos);
}

TEST(ImplPdbStatus, TheSyncIsEnabledOnlyWhileThePublishedCountIsStale) {
  World w = world_of(budget_race("reference", true));
  first_preemption_observed(w);
  // The published status still counts web-2, which the API server shows terminating.
  EXPECT_EQ(w.published_disruptions_allowed(0), 1);
  ASSERT_TRUE(enabled(w, "pdb-sync web"));
  run(w, "pdb-sync web");
  EXPECT_EQ(w.published_disruptions_allowed(0), 0);
  EXPECT_EQ(w.pdb_counted(), bit_of(w, "web-1"));
  EXPECT_FALSE(enabled(w, "pdb-sync web"));
}

// kube-scheduler reads the published budget: web-1 still looks free to take, and p-2's
// candidate on node-a counts no violation. inflight=on does not trust a published budget
// above the scheduler's own count, so web-1 counts as a violation there and batch-a goes.
TEST(ImplPdbStatus, ALaggedBudgetLetsTheSecondPreemptionTakeTheLastPod) {
  World kube = world_of(budget_race("kubernetes", true));
  first_preemption_observed(kube);
  std::optional<Candidate> k =
      select_victims_on_node(kube, id(kube, "p-2"), node_id(kube, "node-a"));
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->pdb_violations, 0);
  ASSERT_EQ(k->victims.size(), 1u);
  EXPECT_EQ(k->victims[0], id(kube, "web-1"));

  World ref = world_of(budget_race("reference", true));
  first_preemption_observed(ref);
  std::optional<Candidate> r = select_victims_on_node(ref, id(ref, "p-2"), node_id(ref, "node-a"));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->victims.size(), 1u);
  EXPECT_EQ(r->victims[0], id(ref, "batch-a"));
  EXPECT_EQ(r->pdb_violations, 0);
}

// Before the informer shows web-2 terminating, the scheduler's own count still has it
// running; inflight=on spends another preemptor's victims in flight from the budget.
TEST(ImplPdbStatus, VictimsInFlightAreSpentFromTheBudgetUnderInflightOn) {
  for (bool lagged : {false, true}) {
    World ref = world_of(budget_race("reference", lagged));
    run(ref, "schedule p-1");
    std::optional<Candidate> r =
        select_victims_on_node(ref, id(ref, "p-2"), node_id(ref, "node-a"));
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->victims.size(), 1u);
    EXPECT_EQ(r->victims[0], id(ref, "batch-a")) << "lagged " << lagged;

    World kube = world_of(budget_race("kubernetes", lagged));
    run(kube, "schedule p-1");
    std::optional<Candidate> k =
        select_victims_on_node(kube, id(kube, "p-2"), node_id(kube, "node-a"));
    ASSERT_TRUE(k.has_value());
    ASSERT_EQ(k->victims.size(), 1u);
    EXPECT_EQ(k->victims[0], id(kube, "web-1")) << "lagged " << lagged;
  }
}

TEST(ImplPdbStatus, PdbSyncRoundTripsThroughItsWords) {
  World w = world_of(budget_race("reference", true));
  std::string error;
  std::optional<Action> a = parse_action("pdb-sync web", w.cluster(), &error);
  ASSERT_TRUE(a.has_value()) << error;
  EXPECT_EQ(format_action(*a, w.cluster()), "pdb-sync web");
  EXPECT_FALSE(parse_action("pdb-sync nope", w.cluster(), &error).has_value());
  EXPECT_EQ(error, "unknown PDB 'nope'");
  EXPECT_FALSE(parse_action("pdb-sync", w.cluster(), &error).has_value());
  EXPECT_EQ(error, "expected 'pdb-sync' followed by a PDB name");
}

}  // namespace
}  // namespace preemptcheck
