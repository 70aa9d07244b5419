// Explorer tests on toy models whose state spaces are known by arithmetic.
#include "checker/explorer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "checker/model.h"
#include "checker/store/fingerprint_table.h"

namespace preemptcheck::checker {
namespace {

// Two independent counters a, b in 0..n: (n+1)^2 states, 2n(n+1) steps, depth 2n.
class Counters {
 public:
  struct State {
    int a = 0;
    int b = 0;
  };
  enum class Action { kIncA, kIncB };

  static constexpr std::size_t kSumBounded = 0;  // always: a + b <= 2n
  static constexpr std::size_t kAReachesN = 1;   // sometimes: a == n
  static constexpr std::size_t kAExceedsN = 2;   // sometimes, never: a > n
  static constexpr std::size_t kRejoined = 3;    // sometimes: IncA into (1, 1)

  explicit Counters(int n) : n_(n) {}

  State initial_state() const { return {}; }

  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if (s.a < n_) {
      out.push_back(Action::kIncA);
    }
    if (s.b < n_) {
      out.push_back(Action::kIncB);
    }
  }

  State next_state(const State& s, const Action& action, Observation& obs) const {
    State next = s;
    switch (action) {
      case Action::kIncA:
        ++next.a;
        break;
      case Action::kIncB:
        ++next.b;
        break;
    }
    check(next, obs);
    // Breadth first, (1, 1) is discovered by IncB from (1, 0); IncA from (0, 1) comes later
    // and enters a visited state.
    if (action == Action::kIncA && next.a == 1 && next.b == 1) {
      obs.reach(kRejoined);
    }
    return next;
  }

  void check_initial(const State& s, Observation& obs) const { check(s, obs); }

  std::uint64_t fingerprint(const State& s) const {
    return static_cast<std::uint64_t>(s.a) * 1'000'003U + static_cast<std::uint64_t>(s.b);
  }

  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  void check(const State& s, Observation& obs) const {
    if (s.a + s.b > 2 * n_) {
      obs.violate(kSumBounded, "sum too large");
    }
    if (s.a == n_) {
      obs.reach(kAReachesN);
    }
    if (s.a > n_) {
      obs.reach(kAExceedsN);
    }
  }

  int n_;
  std::vector<PropertyInfo> properties_ = {
      {"sum-bounded", PropertyKind::kAlways, "a + b never exceeds 2n"},
      {"a-reaches-n", PropertyKind::kSometimes, "a reaches n"},
      {"a-exceeds-n", PropertyKind::kSometimes, "a exceeds n"},
      {"rejoined", PropertyKind::kSometimes, "IncA enters (1, 1)"},
  };
};

// x in 0..limit, stepping by 1 or 3. x == 6 is bad: reachable at depth 2 by +3 +3, and by
// longer paths such as six +1 steps.
class Hops {
 public:
  using State = int;
  enum class Action { kAdd1, kAdd3 };

  static constexpr std::size_t kNotSix = 0;
  static constexpr std::size_t kBelowSix = 1;

  explicit Hops(int limit) : limit_(limit) {}

  State initial_state() const { return 0; }

  void enabled_actions(const State& x, std::vector<Action>& out) const {
    if (x + 1 <= limit_) {
      out.push_back(Action::kAdd1);
    }
    if (x + 3 <= limit_) {
      out.push_back(Action::kAdd3);
    }
  }

  State next_state(const State& x, const Action& action, Observation& obs) const {
    const int next = x + (action == Action::kAdd1 ? 1 : 3);
    if (next == 6) {
      obs.violate(kNotSix, "x is six");
    }
    if (next >= 6) {
      obs.violate(kBelowSix, "x is not below six");
      obs.violate(kBelowSix, "reported twice");
    }
    return next;
  }

  void check_initial(const State&, Observation&) const {}

  std::uint64_t fingerprint(const State& x) const { return static_cast<std::uint64_t>(x); }

  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  int limit_;
  std::vector<PropertyInfo> properties_ = {
      {"not-six", PropertyKind::kAlways, "x is never six"},
      {"below-six", PropertyKind::kAlways, "x stays below six"},
  };
};

// x in 0..3 on a ring, with a reset to 0 from anywhere. Resetting from 3 is a bad decision,
// although it enters the initial state, which is visited long before.
class Ring {
 public:
  using State = int;
  enum class Action { kNext, kReset };

  explicit Ring(bool bad_start = false) : bad_start_(bad_start) {}

  State initial_state() const { return 0; }

  void enabled_actions(const State&, std::vector<Action>& out) const {
    out.push_back(Action::kNext);
    out.push_back(Action::kReset);
  }

  State next_state(const State& x, const Action& action, Observation& obs) const {
    switch (action) {
      case Action::kNext:
        return (x + 1) % 4;
      case Action::kReset:
        if (x == 3) {
          obs.violate(0, "reset from three");
        }
        return 0;
    }
    return x;
  }

  void check_initial(const State&, Observation& obs) const {
    if (bad_start_) {
      obs.violate(1, "bad start");
      obs.violate(0, "also bad");
    }
  }

  std::uint64_t fingerprint(const State& x) const { return static_cast<std::uint64_t>(x); }

  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  bool bad_start_;
  std::vector<PropertyInfo> properties_ = {
      {"no-reset-from-three", PropertyKind::kAlways, "never reset from three"},
      {"good-start", PropertyKind::kAlways, "the start is good"},
  };
};

static_assert(Model<Counters>);
static_assert(Model<Hops>);
static_assert(Model<Ring>);

Limits max_states(std::uint64_t n) {
  Limits limits;
  limits.max_states = n;
  return limits;
}

Limits max_depth(std::uint32_t depth) {
  Limits limits;
  limits.max_depth = depth;
  return limits;
}

Limits time_limit(double seconds) {
  Limits limits;
  limits.time_limit_seconds = seconds;
  return limits;
}

using CountersAction = Counters::Action;
using HopsAction = Hops::Action;
using RingAction = Ring::Action;

TEST(checkerExplorer, IndependentCountersHaveKnownCounts) {
  for (const int n : {0, 1, 3, 10}) {
    const auto result = explore(Counters(n), Limits{});
    const auto states = static_cast<std::uint64_t>((n + 1) * (n + 1));
    EXPECT_EQ(result.outcome, Outcome::kHolds) << n;
    EXPECT_EQ(result.limit, "") << n;
    EXPECT_EQ(result.stats.states, states) << n;
    EXPECT_EQ(result.stats.transitions, static_cast<std::uint64_t>(2 * n * (n + 1))) << n;
    EXPECT_EQ(result.stats.depth, static_cast<std::uint32_t>(2 * n)) << n;
    EXPECT_FALSE(result.violation.has_value());
    EXPECT_TRUE(result.violating_states.empty());
    EXPECT_GT(result.stats.peak_rss_bytes, 0U);
    // Level d holds the states with a + b == d.
    ASSERT_EQ(result.level_starts.size(), static_cast<std::size_t>(2 * n + 1));
    EXPECT_EQ(result.level_starts[0], 0U);
    EXPECT_EQ(result.depth_of(0), 0U);
    EXPECT_EQ(result.depth_of(static_cast<std::uint32_t>(states - 1)),
              static_cast<std::uint32_t>(2 * n));
  }
}

TEST(checkerExplorer, InvariantThatHoldsReportsEveryCount) {
  const auto result = explore(Counters(3), Limits{});
  EXPECT_EQ(result.outcome, Outcome::kHolds);
  EXPECT_EQ(result.stats.states, 16U);
  EXPECT_EQ(result.stats.transitions, 24U);
  EXPECT_EQ(result.stats.depth, 6U);
  EXPECT_EQ(result.level_starts, (std::vector<std::uint32_t>{0, 1, 3, 6, 10, 13, 15}));
  EXPECT_EQ(result.depth_of(5), 2U);
  EXPECT_EQ(result.depth_of(6), 3U);
  EXPECT_EQ(result.depth_of(15), 6U);
}

TEST(checkerExplorer, ReportsWitnessesReachedAndUnreached) {
  const auto result = explore(Counters(2), Limits{});
  EXPECT_EQ(result.outcome, Outcome::kHolds);
  EXPECT_EQ(result.reached, (std::vector<bool>{false, true, false, true}));
  EXPECT_EQ(result.unreached_witnesses(), std::vector<std::string>{"a-exceeds-n"});
}

TEST(checkerExplorer, WitnessOnStepIntoVisitedStateCounts) {
  std::vector<std::tuple<std::uint32_t, std::uint32_t, CountersAction, bool>> edges;
  ExploreOptions<CountersAction> opts;
  opts.on_edge = [&](std::uint32_t from, std::uint32_t to, const CountersAction& a, bool is_new) {
    edges.emplace_back(from, to, a, is_new);
  };
  const auto result = explore(Counters(1), Limits{}, opts);
  // (0,0)=0 -> (1,0)=1, (0,1)=2; (1,0) -> (1,1)=3 new; (0,1) -> (1,1) visited.
  using E = std::tuple<std::uint32_t, std::uint32_t, CountersAction, bool>;
  EXPECT_EQ(edges, (std::vector<E>{{0, 1, CountersAction::kIncA, true},
                                   {0, 2, CountersAction::kIncB, true},
                                   {1, 3, CountersAction::kIncB, true},
                                   {2, 3, CountersAction::kIncA, false}}));
  EXPECT_TRUE(result.reached[Counters::kRejoined]);
}

TEST(checkerExplorer, FindsTheShortestCounterexample) {
  const auto result = explore(Hops(12), Limits{});
  ASSERT_EQ(result.outcome, Outcome::kViolated);
  ASSERT_TRUE(result.violation.has_value());
  const auto& v = *result.violation;
  EXPECT_EQ(v.path, (std::vector<HopsAction>{HopsAction::kAdd3, HopsAction::kAdd3}));
  EXPECT_EQ(v.property, Hops::kNotSix);
  EXPECT_EQ(v.name, "not-six");
  EXPECT_EQ(v.message, "x is six");
  // The same step also broke below-six; it is listed once, with its first message.
  EXPECT_EQ(v.also_violated, (std::vector<PropertyMessage>{{"below-six", "x is not below six"}}));
  // Discovered: 0, 1, 3 (depth 1), 2, 4 from 1, then 4 again and 6 from 3.
  EXPECT_EQ(v.state, 5U);
  EXPECT_EQ(v.transition, std::optional<std::uint64_t>(5));
  EXPECT_EQ(result.violating_states, std::vector<std::uint32_t>{5});
  EXPECT_EQ(result.stats.states, 6U);
  EXPECT_EQ(result.stats.transitions, 6U);
  EXPECT_EQ(result.stats.depth, 2U);
  EXPECT_EQ(result.limit, "");
}

TEST(checkerExplorer, ExploresOnPastViolationsWhenAsked) {
  ExploreOptions<HopsAction> opts;
  opts.stop_at_violation = false;
  std::uint64_t edges = 0;
  std::uint64_t new_edges = 0;
  opts.on_edge = [&](std::uint32_t, std::uint32_t, const HopsAction&, bool is_new) {
    ++edges;
    new_edges += is_new ? 1 : 0;
  };
  const auto result = explore(Hops(12), Limits{}, opts);
  ASSERT_EQ(result.outcome, Outcome::kViolated);
  EXPECT_EQ(result.limit, "");
  // 0..12: Add1 from 0..11, Add3 from 0..9; the deepest is 11 = 3+3+3+1+1.
  EXPECT_EQ(result.stats.states, 13U);
  EXPECT_EQ(result.stats.transitions, 22U);
  EXPECT_EQ(result.stats.depth, 5U);
  EXPECT_EQ(edges, 22U);
  EXPECT_EQ(new_edges, 12U);
  // Still the shallowest counterexample; every state x >= 6 is entered by a violating step.
  EXPECT_EQ(result.violation->path,
            (std::vector<HopsAction>{HopsAction::kAdd3, HopsAction::kAdd3}));
  EXPECT_EQ(result.violating_states.size(), 7U);
  for (const std::uint32_t id : result.violating_states) {
    EXPECT_GE(result.depth_of(id), 2U);
  }
}

TEST(checkerExplorer, FindsDecisionTimeViolationIntoVisitedState) {
  const auto result = explore(Ring(), Limits{});
  ASSERT_EQ(result.outcome, Outcome::kViolated);
  const auto& v = *result.violation;
  EXPECT_EQ(v.path, (std::vector<RingAction>{RingAction::kNext, RingAction::kNext,
                                             RingAction::kNext, RingAction::kReset}));
  EXPECT_EQ(v.name, "no-reset-from-three");
  EXPECT_EQ(v.message, "reset from three");
  EXPECT_TRUE(v.also_violated.empty());
  EXPECT_EQ(v.state, 0U);
  EXPECT_EQ(v.transition, std::optional<std::uint64_t>(7));
  EXPECT_EQ(result.stats.states, 4U);
  EXPECT_EQ(result.stats.transitions, 8U);
  EXPECT_EQ(result.stats.depth, 3U);
}

TEST(checkerExplorer, ReportsViolatingInitialState) {
  const auto result = explore(Ring(/*bad_start=*/true), Limits{});
  ASSERT_EQ(result.outcome, Outcome::kViolated);
  const auto& v = *result.violation;
  EXPECT_TRUE(v.path.empty());
  EXPECT_EQ(v.property, 1U);
  EXPECT_EQ(v.name, "good-start");
  EXPECT_EQ(v.also_violated, (std::vector<PropertyMessage>{{"no-reset-from-three", "also bad"}}));
  EXPECT_EQ(v.state, 0U);
  EXPECT_FALSE(v.transition.has_value());
  EXPECT_EQ(result.stats.states, 1U);
  EXPECT_EQ(result.stats.transitions, 0U);
}

TEST(checkerExplorer, MaxStatesStopsOnlyWhenMoreStatesExist) {
  const auto cut = explore(Counters(3), max_states(5));
  EXPECT_EQ(cut.outcome, Outcome::kLimitReached);
  EXPECT_EQ(cut.limit, "max-states");
  EXPECT_EQ(cut.stats.states, 5U);

  const auto one_short = explore(Counters(3), max_states(15));
  EXPECT_EQ(one_short.outcome, Outcome::kLimitReached);
  EXPECT_EQ(one_short.stats.states, 15U);

  const auto exact = explore(Counters(3), max_states(16));
  EXPECT_EQ(exact.outcome, Outcome::kHolds);
  EXPECT_EQ(exact.limit, "");
  EXPECT_EQ(exact.stats.states, 16U);
  EXPECT_EQ(exact.stats.transitions, 24U);

  const auto none = explore(Counters(3), max_states(0));
  EXPECT_EQ(none.outcome, Outcome::kLimitReached);
  EXPECT_EQ(none.stats.states, 0U);
}

TEST(checkerExplorer, MaxStatesBoundaryStepIsNotChecked) {
  // States 0, 1, 3, 2, 4 fill the table; the step to 6 would be the sixth state.
  const auto cut = explore(Hops(12), max_states(5));
  EXPECT_EQ(cut.outcome, Outcome::kLimitReached);
  EXPECT_EQ(cut.limit, "max-states");
  EXPECT_FALSE(cut.violation.has_value());
  EXPECT_EQ(cut.stats.transitions, 5U);

  const auto found = explore(Hops(12), max_states(6));
  EXPECT_EQ(found.outcome, Outcome::kViolated);
  EXPECT_EQ(found.limit, "");
}

TEST(checkerExplorer, MaxDepthCutsOnlyWhenDeeperStatesExist) {
  const auto cut = explore(Counters(3), max_depth(3));
  EXPECT_EQ(cut.outcome, Outcome::kLimitReached);
  EXPECT_EQ(cut.limit, "max-depth");
  EXPECT_EQ(cut.stats.states, 10U);  // a + b <= 3
  EXPECT_EQ(cut.stats.transitions, 12U);
  EXPECT_EQ(cut.stats.depth, 3U);

  const auto only_start = explore(Counters(3), max_depth(0));
  EXPECT_EQ(only_start.outcome, Outcome::kLimitReached);
  EXPECT_EQ(only_start.stats.states, 1U);

  for (const std::uint32_t depth : {6U, 7U}) {
    const auto complete = explore(Counters(3), max_depth(depth));
    EXPECT_EQ(complete.outcome, Outcome::kHolds) << depth;
    EXPECT_EQ(complete.limit, "") << depth;
    EXPECT_EQ(complete.stats.states, 16U) << depth;
  }

  // The violation is at depth 2: not seen with depth 1, found with depth 2.
  EXPECT_EQ(explore(Hops(12), max_depth(1)).outcome, Outcome::kLimitReached);
  EXPECT_EQ(explore(Hops(12), max_depth(2)).outcome, Outcome::kViolated);
}

TEST(checkerExplorer, TimeLimitZeroNeverHolds) {
  const auto result = explore(Counters(3), time_limit(0.0));
  EXPECT_EQ(result.outcome, Outcome::kLimitReached);
  EXPECT_EQ(result.limit, "time-limit");
}

TEST(checkerExplorer, ViolationBeforeLimitsIsReported) {
  Limits limits;
  limits.max_states = 100;
  limits.max_depth = 10;
  limits.time_limit_seconds = 60.0;
  const auto result = explore(Hops(12), limits);
  EXPECT_EQ(result.outcome, Outcome::kViolated);
  EXPECT_EQ(result.limit, "");
}

TEST(checkerExplorer, IsDeterministic) {
  const auto run = [](const auto& model, bool stop) {
    using Action = typename std::decay_t<decltype(model)>::Action;
    std::vector<std::tuple<std::uint32_t, std::uint32_t, Action, bool>> edges;
    ExploreOptions<Action> opts;
    opts.stop_at_violation = stop;
    opts.on_edge = [&](std::uint32_t from, std::uint32_t to, const Action& a, bool is_new) {
      edges.emplace_back(from, to, a, is_new);
    };
    auto result = explore(model, Limits{}, opts);
    return std::pair(std::move(result), std::move(edges));
  };
  const auto [first, first_edges] = run(Counters(40), true);
  const auto [second, second_edges] = run(Counters(40), true);
  EXPECT_EQ(first.stats.states, 41U * 41U);
  EXPECT_EQ(first.stats.states, second.stats.states);
  EXPECT_EQ(first.stats.transitions, second.stats.transitions);
  EXPECT_EQ(first.level_starts, second.level_starts);
  EXPECT_EQ(first_edges, second_edges);

  const auto [hops, hops_edges] = run(Hops(30), false);
  const auto [hops_again, hops_again_edges] = run(Hops(30), false);
  EXPECT_EQ(hops.violation->path, hops_again.violation->path);
  EXPECT_EQ(hops.violating_states, hops_again.violating_states);
  EXPECT_EQ(hops_edges, hops_again_edges);
}

TEST(checkerExplorer, OutcomeNames) {
  EXPECT_EQ(outcome_name(Outcome::kHolds), "holds");
  EXPECT_EQ(outcome_name(Outcome::kViolated), "violated");
  EXPECT_EQ(outcome_name(Outcome::kLimitReached), "limit-reached");
}

TEST(checkerFingerprintTable, StoresAndFindsAcrossGrowth) {
  FingerprintTable table;
  constexpr std::uint32_t kCount = 100'000;
  // Fingerprints that differ only in their high bits, and zero.
  for (std::uint32_t i = 0; i < kCount; ++i) {
    const auto [id, inserted] = table.insert(static_cast<std::uint64_t>(i) << 32, i);
    EXPECT_TRUE(inserted);
    EXPECT_EQ(id, i);
  }
  EXPECT_EQ(table.size(), kCount);
  EXPECT_EQ(table.insert(0, 7), std::pair(0U, false));
  for (std::uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(table.find(static_cast<std::uint64_t>(i) << 32), i);
  }
  EXPECT_EQ(table.find(1), FingerprintTable::kNoId);
  EXPECT_EQ(table.find(~0ULL), FingerprintTable::kNoId);
}

}  // namespace
}  // namespace preemptcheck::checker
