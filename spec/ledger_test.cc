// Ledger tests: what the monitors remember follows each step's report — victims are chosen
// by a preemption and forgotten when gone or given up, nominations stand until consumed,
// revoked or their pod is gone.
#include "spec/ledger.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "impl/action.h"
#include "impl/test_support.h"
#include "spec/monitor.h"

namespace preemptcheck::spec {
namespace {

using namespace test;  // NOLINT: the builders read as a small language in these tests

// A World and the ledger of the path to it, stepped together as the explorer steps them.
struct Path {
  World world;
  Ledger ledger;
  Findings last;

  explicit Path(Scenario s) : world(world_of(std::move(s))), ledger(world.cluster()) {}

  StepReport run(std::string_view line) {
    std::string error;
    const std::optional<Action> a = parse_action(line, world.cluster(), &error);
    if (!a)
      throw std::invalid_argument(std::string(line) + ": " + error);
    if (!world.is_enabled(*a))
      throw std::logic_error(std::string(line) + " is not enabled");
    const World before = world;
    const StepReport step = world.apply(*a);
    last = Findings{};
    check_step(before, step, world, ledger, last);
    return step;
  }
  PodId id(std::string_view name) const { return test::id(world, name); }
  PodSet bit(std::string_view name) const { return pod_bit(id(name)); }
};

Scenario one_victim(std::string_view profile_name, int eviction_failures = 0) {
  Scenario s = scenario({node("node1")}, {pod("v", kLow, kLarge, "node1"), pod("p", kHigh, kLarge)},
                        profile_name);
  s.faults.eviction_failures = eviction_failures;
  return s;
}

TEST(specLedger, APreemptionChoosesItsVictimsAndNominatesItsPreemptor) {
  Path path(one_victim("reference"));
  const PodId p = path.id("p");
  EXPECT_EQ(path.ledger.chosen_by(p), PodSet{0});
  EXPECT_EQ(path.ledger.standing_nomination(p), kNoNode);
  path.run("schedule p");
  EXPECT_EQ(path.ledger.chosen_by(p), path.bit("v"));
  EXPECT_EQ(path.ledger.standing_nomination(p), node_id(path.world, "node1"));
}

TEST(specLedger, AVictimGoneFromTheApiServerIsNoLongerChosen) {
  Path path(one_victim("reference"));
  const PodId p = path.id("p");
  path.run("schedule p");
  path.run("evict p v");
  EXPECT_EQ(path.ledger.chosen_by(p), path.bit("v"));  // terminating, not yet gone
  path.run("terminate v");
  EXPECT_EQ(path.ledger.chosen_by(p), PodSet{0});
  EXPECT_EQ(path.ledger.standing_nomination(p), node_id(path.world, "node1"));
}

TEST(specLedger, AFailedEvictionGivesItsVictimsUp) {
  Path path(one_victim("kubernetes", 1));
  const PodId p = path.id("p");
  path.run("schedule p");
  path.run("clear-nominations p");
  path.run("evict-fails p v");
  EXPECT_EQ(path.ledger.chosen_by(p), PodSet{0});
}

TEST(specLedger, BindingConsumesTheNomination) {
  Path path(one_victim("reference"));
  const PodId p = path.id("p");
  path.run("schedule p");
  path.run("evict p v");
  path.run("observe");  // p's nomination
  path.run("observe");  // v terminating
  path.run("terminate v");
  path.run("observe");  // v deleted: p moves to activeQ
  ASSERT_EQ(path.world.active_queue(), std::vector<PodId>{p}) << "p is not in activeQ";
  path.run("schedule p");
  EXPECT_EQ(path.ledger.standing_nomination(p), kNoNode);
}

// p2 is evicted while its binding is in flight, so it is deleted at once, but the scheduler
// still has it in activeQ and runs its cycle: the preemption it decides leaves no standing
// nomination, since its status patch finds no pod.
TEST(specLedger, ADeletedPodNominatesNothing) {
  Scenario s = scenario(
      {node("n1", 200), node("n2", 300)},
      {pod("v1", 0, 100, "n1"), pod("p1", 0, 100), pod("p2", 1, 200), later(pod("p3", 2, 300))});
  s.faults.binding_failures = 1;
  Path path(std::move(s));
  const PodId p2 = path.id("p2");
  path.run("schedule p2");
  path.run("create p3");
  path.run("observe");
  path.run("schedule p3");
  path.run("bind-fails p2");
  path.run("evict p3 p2");
  ASSERT_EQ(path.ledger.chosen_by(path.id("p3")), PodSet{0});  // p2 is gone
  const StepReport r = path.run("schedule p2");
  ASSERT_EQ(r.decision.kind, CycleDecision::Kind::kPreempt);
  EXPECT_EQ(path.ledger.standing_nomination(p2), kNoNode);
  EXPECT_EQ(path.ledger.chosen_by(p2), path.bit("v1"));
}

TEST(specLedger, TheFingerprintCoversTheLedger) {
  Path a(one_victim("reference"));
  Path b = a;
  b.run("schedule p");
  Ledger other = a.ledger;
  other.record(StepReport{}, a.world);  // records nothing
  EXPECT_EQ(other.fingerprint(a.world.fingerprint()), a.ledger.fingerprint(a.world.fingerprint()));
  EXPECT_NE(b.ledger.fingerprint(a.world.fingerprint()),
            a.ledger.fingerprint(a.world.fingerprint()));
}

// Every byte of every field in the ledger's list (PREEMPTCHECK_LEDGER_FIELDS) that holds state,
// the values of the cluster's pods, moves the fingerprint; and renaming pods there and back
// restores the ledger.
TEST(specLedger, EveryListedByteIsDigestedAndRenamedBack) {
  Path a(one_victim("reference"));
  a.run("schedule p");
  const Ledger& l = a.ledger;
  const std::uint64_t base = l.fingerprint(0);
  const auto n = static_cast<std::size_t>(a.world.cluster().pod_count());
  int flipped = 0;
  for (const FieldInfo& f : Ledger::Fields::kTable) {
    ASSERT_EQ(f.storage, FieldStorage::kPerPod) << f.name;
    for (std::size_t at = 0; at < n * f.element; ++at) {
      Ledger x = l;
      unsigned char& b = reinterpret_cast<unsigned char*>(&x)[f.offset + at];
      b = static_cast<unsigned char>(b ^ 1U);
      EXPECT_NE(x.fingerprint(0), base) << f.name << " byte " << at << " is not digested";
      ++flipped;
    }
  }
  EXPECT_GT(flipped, 0);
  PodRenaming to{};
  PodRenaming back{};
  for (std::size_t p = 0; p < n; ++p) {
    to[p] = static_cast<PodId>((p + 1) % n);
    back[(p + 1) % n] = static_cast<PodId>(p);
  }
  EXPECT_FALSE(l.renamed(to) == l);
  EXPECT_TRUE(l.renamed(to).renamed(back) == l);
}

// binding-victims=in-memory: a victim whose binding is in flight is preempted without an API
// call; it is pending again at once, so it is no longer anyone's pending victim, and a later
// preemption that chooses it again after it was re-bound is not a double victim.
TEST(specLedger, AVictimPreemptedInMemoryIsNoLongerPending) {
  Scenario s = scenario({node("node1")}, {pod("v", kLow, kLarge), later(pod("p", kHigh, kLarge))},
                        "kubernetes-prebind");
  Path path(std::move(s));
  path.run("schedule v");
  path.run("create p");
  while (!path.world.events().empty())
    path.run("observe");
  path.run("schedule p");
  EXPECT_EQ(path.ledger.chosen_by(path.id("p")), path.bit("v"));
  path.run("clear-nominations p");
  // The executor's step only tells v's binding cycle to fail: v is still p's pending victim
  // (a second choice of it now breaks no-double-victim), until that cycle wakes.
  const StepReport e = path.run("evict p v");
  EXPECT_EQ(e.in_memory, PodSet{0});
  EXPECT_EQ(path.ledger.chosen_by(path.id("p")), path.bit("v"));
  const StepReport r = path.run("binding-preempted v");
  ASSERT_EQ(r.in_memory, path.bit("v"));
  EXPECT_EQ(path.ledger.chosen_by(path.id("p")), PodSet{0});
  EXPECT_EQ(path.ledger.standing_nomination(path.id("v")), kNoNode);
}

}  // namespace
}  // namespace preemptcheck::spec
