// Liveness tests: the lasso search on toy models whose lassos (or their absence) are known —
// a counter with no exit, the same with a fair exit, graphs without cycles, self-loops, a loop
// that discharges its obligation, and a component whose only fair cycle must pass a state
// where the fair exit is disabled — each lasso replayed through the model to its start.
#include "checker/liveness.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "checker/model.h"

namespace preemptcheck::checker {
namespace {

// An explicit graph as a model: states are ints, actions are names, steps are listed per state
// in their enabled order.
class Toy {
 public:
  using State = int;
  using Action = std::string;

  explicit Toy(std::map<int, std::vector<std::pair<std::string, int>>> steps)
      : steps_(std::move(steps)) {}

  State initial_state() const { return 0; }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if (const auto it = steps_.find(s); it != steps_.end()) {
      for (const auto& [name, to] : it->second)
        out.push_back(name);
    }
  }
  State next_state(const State& s, const Action& a, Observation&) const {
    for (const auto& [name, to] : steps_.at(s)) {
      if (name == a)
        return to;
    }
    ADD_FAILURE() << "action " << a << " is not enabled in state " << s;
    return s;
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const { return static_cast<std::uint64_t>(s) + 1000; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  std::map<int, std::vector<std::pair<std::string, int>>> steps_;
  std::vector<PropertyInfo> properties_;
};

// A counter modulo n that only ever counts ("inc"); with an exit, "exit" leaves every value
// for the final state n.
class Counter {
 public:
  using State = int;
  enum class Action { kInc, kExit };

  Counter(int n, bool exit) : n_(n), exit_(exit) {}

  State initial_state() const { return 0; }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if (s == n_)
      return;
    out.push_back(Action::kInc);
    if (exit_)
      out.push_back(Action::kExit);
  }
  State next_state(const State& s, const Action& a, Observation&) const {
    return a == Action::kInc ? (s + 1) % n_ : n_;
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const { return static_cast<std::uint64_t>(s) * 7919; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }
  int n() const { return n_; }

 private:
  int n_;
  bool exit_;
  std::vector<PropertyInfo> properties_;
};

// The counter's one obligation: triggered from the start, discharged only at the exit.
LivenessProperty<Counter> counter_property(const Counter& counter, bool fairness) {
  LivenessProperty<Counter> p;
  p.obligations = 1;
  p.triggered = [](const int&, std::size_t) { return true; };
  p.discharged = [n = counter.n()](const int& s, std::size_t) { return s == n; };
  p.fair_class = [](const Counter::Action& a) -> std::optional<std::string> {
    return a == Counter::Action::kExit ? std::optional<std::string>("exit") : std::nullopt;
  };
  p.fairness = fairness;
  return p;
}

// One obligation over a Toy: triggered and discharged in the listed states; the actions
// named in `fair` are each their own fair class.
LivenessProperty<Toy> toy_property(std::set<int> triggered, std::set<int> discharged,
                                   std::set<std::string> fair, bool fairness = true) {
  LivenessProperty<Toy> p;
  p.obligations = 1;
  p.triggered = [triggered](const int& s, std::size_t) { return triggered.count(s) > 0; };
  p.discharged = [discharged](const int& s, std::size_t) { return discharged.count(s) > 0; };
  p.fair_class = [fair](const std::string& a) -> std::optional<std::string> {
    return fair.count(a) > 0 ? std::optional<std::string>(a) : std::nullopt;
  };
  p.fairness = fairness;
  return p;
}

// Replays `lasso` through `model`: every step enabled; the obligation is triggered at or
// before the cycle's start and never discharged after that; the cycle returns to the
// fingerprint it started from (or, when empty, starts at a state without enabled actions);
// and under fairness every fair class enabled in each cycle state is taken on the cycle.
template <Model M>
void expect_replays(const M& model, const LivenessProperty<M>& property,
                    const Lasso<typename M::Action>& lasso) {
  using Action = typename M::Action;
  auto s = model.initial_state();
  Observation obs;
  bool flag = false;
  auto enter = [&](const typename M::State& state) {
    if (property.discharged(state, lasso.obligation))
      flag = false;
    else if (property.triggered(state, lasso.obligation))
      flag = true;
  };
  auto step = [&](const Action& a) {
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    ASSERT_NE(std::find(enabled.begin(), enabled.end(), a), enabled.end());
    s = model.next_state(s, a, obs);
  };
  enter(s);
  for (const Action& a : lasso.prefix) {
    step(a);
    enter(s);
  }
  const std::uint64_t start = model.fingerprint(s);
  const bool recurring = property.form == LivenessForm::kRecurring;
  bool passes_trigger = property.triggered(s, lasso.obligation);
  if (recurring)
    EXPECT_FALSE(property.discharged(s, lasso.obligation)) << "discharged where the cycle starts";
  else
    EXPECT_TRUE(flag) << "the obligation is not pending where the cycle starts";
  if (lasso.cycle.empty()) {
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    EXPECT_TRUE(enabled.empty()) << "an empty cycle must be a state without enabled actions";
    EXPECT_TRUE(!recurring || passes_trigger) << "stuck where the obligation is not triggered";
    return;
  }
  std::set<std::string> taken;
  std::vector<std::set<std::string>> enabled_per_state;
  for (const Action& a : lasso.cycle) {
    std::vector<Action> enabled;
    model.enabled_actions(s, enabled);
    std::set<std::string> classes;
    for (const Action& e : enabled) {
      if (const auto c = property.fair_class(e))
        classes.insert(*c);
    }
    enabled_per_state.push_back(classes);
    if (const auto c = property.fair_class(a))
      taken.insert(*c);
    step(a);
    EXPECT_FALSE(property.discharged(s, lasso.obligation)) << "discharged on the cycle";
    passes_trigger = passes_trigger || property.triggered(s, lasso.obligation);
  }
  EXPECT_EQ(model.fingerprint(s), start) << "the cycle does not return to its start";
  EXPECT_TRUE(!recurring || passes_trigger) << "the cycle passes no triggered state";
  if (property.fairness) {
    for (const std::string& c : enabled_per_state.front()) {
      bool everywhere = true;
      for (const auto& classes : enabled_per_state)
        everywhere = everywhere && classes.count(c) > 0;
      EXPECT_TRUE(!everywhere || taken.count(c) > 0) << "class " << c << " is neglected";
    }
  }
}

TEST(checkerLiveness, ACounterWithoutExitLoopsThroughEveryValue) {
  const Counter counter(5, false);
  const auto property = counter_property(counter, true);
  const auto result = check_liveness(counter, property, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.states, 5U);
  EXPECT_EQ(result.transitions, 5U);
  ASSERT_TRUE(result.lasso);
  EXPECT_TRUE(result.lasso->prefix.empty());
  EXPECT_EQ(result.lasso->cycle, std::vector<Counter::Action>(5, Counter::Action::kInc));
  expect_replays(counter, property, *result.lasso);
}

TEST(checkerLiveness, AFairExitClosesTheCounterLoopAndWithoutFairnessItStays) {
  const Counter counter(4, true);
  const auto fair = check_liveness(counter, counter_property(counter, true), 100);
  EXPECT_EQ(fair.status, LivenessStatus::kHolds);
  EXPECT_EQ(fair.states, 5U);
  EXPECT_FALSE(fair.lasso);

  const auto unfair_property = counter_property(counter, false);
  const auto unfair = check_liveness(counter, unfair_property, 100);
  ASSERT_EQ(unfair.status, LivenessStatus::kViolated);
  ASSERT_TRUE(unfair.lasso);
  EXPECT_TRUE(unfair.lasso->prefix.empty());
  EXPECT_EQ(unfair.lasso->cycle, std::vector<Counter::Action>(4, Counter::Action::kInc));
  expect_replays(counter, unfair_property, *unfair.lasso);
}

TEST(checkerLiveness, AStateLimitIsReportedNeverAsHolds) {
  const Counter counter(10, true);
  const auto cut = check_liveness(counter, counter_property(counter, true), 5);
  EXPECT_EQ(cut.status, LivenessStatus::kTooManyStates);
  EXPECT_FALSE(cut.lasso);
  // Exactly as many states as allowed is a complete graph.
  EXPECT_EQ(check_liveness(counter, counter_property(counter, true), 11).status,
            LivenessStatus::kHolds);
}

// A counter whose bounded storage is full past 3.
class OverflowingCounter : public Counter {
 public:
  OverflowingCounter() : Counter(10, true) {}
  State next_state(const State& s, const Action& a, Observation& obs) const {
    if (s >= 3)
      throw std::length_error("the toy's queue is full");
    return Counter::next_state(s, a, obs);
  }
};

TEST(checkerLiveness, AFullModelQueueIsALimitNeverAHoldOrACrash) {
  const OverflowingCounter counter;
  LivenessProperty<OverflowingCounter> property;
  property.obligations = 1;
  property.triggered = [](const int&, std::size_t) { return true; };
  property.discharged = [](const int& s, std::size_t) { return s == 10; };
  property.fair_class = [](const Counter::Action&) { return std::optional<std::string>(); };
  const auto result = check_liveness(counter, property, 100);
  EXPECT_EQ(result.status, LivenessStatus::kModelCapacity);
  EXPECT_EQ(result.detail, "the toy's queue is full");
  EXPECT_FALSE(result.lasso);
}

TEST(checkerLiveness, AGraphWithoutCyclesHoldsUnlessItStopsWithTheObligationPending) {
  // A diamond to a final state that discharges the obligation.
  const Toy diamond({{0, {{"a", 1}, {"b", 2}}}, {1, {{"c", 3}}}, {2, {{"d", 3}}}});
  EXPECT_EQ(check_liveness(diamond, toy_property({0}, {3}, {}), 100).status,
            LivenessStatus::kHolds);
  // Stopped short of it: the run stays in state 2 forever, a lasso whose cycle is empty.
  const Toy stuck({{0, {{"a", 1}, {"b", 2}}}, {1, {{"c", 3}}}});
  const auto property = toy_property({0}, {3}, {});
  const auto result = check_liveness(stuck, property, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->prefix, std::vector<std::string>({"b"}));
  EXPECT_TRUE(result.lasso->cycle.empty());
  expect_replays(stuck, property, *result.lasso);
}

TEST(checkerLiveness, ASelfLoopIsALassoUnlessAFairStepLeavesIt) {
  const Toy toy({{0, {{"go", 1}}}, {1, {{"wait", 1}, {"done", 2}}}});
  const auto unfair = toy_property({1}, {2}, {});
  const auto result = check_liveness(toy, unfair, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->prefix, std::vector<std::string>({"go"}));
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"wait"}));
  expect_replays(toy, unfair, *result.lasso);
  // "done" enabled forever must be taken: weak fairness closes the self-loop.
  EXPECT_EQ(check_liveness(toy, toy_property({1}, {2}, {"done"}), 100).status,
            LivenessStatus::kHolds);
  // Fairness off: the same lasso.
  EXPECT_EQ(check_liveness(toy, toy_property({1}, {2}, {"done"}, false), 100).lasso->cycle,
            std::vector<std::string>({"wait"}));
}

TEST(checkerLiveness, ThePrefixIsTheShortestPathToTheLoop) {
  // 0 -> 1 -> 2 -> 3 -> 4 -> 2, and a long way 0 -> 5 -> 6 -> 7 -> 2; triggered at 1 and 7.
  const Toy toy({{0, {{"long", 5}, {"short", 1}}},
                 {1, {{"to2", 2}}},
                 {2, {{"to3", 3}}},
                 {3, {{"to4", 4}}},
                 {4, {{"back", 2}}},
                 {5, {{"to6", 6}}},
                 {6, {{"to7", 7}}},
                 {7, {{"join", 2}}}});
  const auto property = toy_property({1, 7}, {}, {});
  const auto result = check_liveness(toy, property, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->prefix, std::vector<std::string>({"short", "to2"}));
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"to3", "to4", "back"}));
  expect_replays(toy, property, *result.lasso);
  // The same graph twice gives the same lasso.
  const auto again = check_liveness(toy, property, 100);
  EXPECT_EQ(again.lasso->prefix, result.lasso->prefix);
  EXPECT_EQ(again.lasso->cycle, result.lasso->cycle);
}

TEST(checkerLiveness, ALoopNotTriggeredOrDischargedOnEveryRoundHolds) {
  // The loop 0 <-> 1 never triggers the obligation; only the way out does, then discharges it.
  const Toy untriggered({{0, {{"ab", 1}}}, {1, {{"ba", 0}, {"out", 2}}}, {2, {{"end", 3}}}});
  EXPECT_EQ(check_liveness(untriggered, toy_property({2}, {3}, {}), 100).status,
            LivenessStatus::kHolds);
  // A counter triggered everywhere but discharged at 2: every round passes 2.
  const Counter counter(5, false);
  LivenessProperty<Counter> p = counter_property(counter, true);
  p.discharged = [](const int& s, std::size_t) { return s == 2; };
  EXPECT_EQ(check_liveness(counter, p, 100).status, LivenessStatus::kHolds);
}

TEST(checkerLiveness, TheFairCycleVisitsTheStateWhereTheFairExitIsDisabled) {
  // 0 <-> 1 <-> 2; the fair exit "x" (to the discharging state 3) is enabled at 0 and 1 only.
  // The loop 0 <-> 1 alone neglects it; 0 -> 1 -> 2 -> 1 -> 0 passes where it is disabled.
  const Toy toy(
      {{0, {{"ab", 1}, {"x", 3}}}, {1, {{"ba", 0}, {"bc", 2}, {"x", 3}}}, {2, {{"cb", 1}}}});
  const auto property = toy_property({0}, {3}, {"x"});
  const auto result = check_liveness(toy, property, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_TRUE(result.lasso->prefix.empty());
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"ab", "bc", "cb", "ba"}));
  expect_replays(toy, property, *result.lasso);
  // Without state 2 there is no fair cycle.
  const Toy two({{0, {{"ab", 1}, {"x", 3}}}, {1, {{"ba", 0}, {"x", 3}}}});
  EXPECT_EQ(check_liveness(two, toy_property({0}, {3}, {"x"}), 100).status, LivenessStatus::kHolds);
}

TEST(checkerLiveness, AFairClassTakenInsideTheLoopKeepsItFair) {
  // "sched-a" and "sched-b" are one class, "sched"; the loop takes sched-a, so the class is
  // not neglected although sched-b (the way out) is enabled throughout.
  const Toy toy({{0, {{"sched-a", 1}, {"sched-b", 2}}}, {1, {{"back", 0}, {"sched-b", 2}}}});
  LivenessProperty<Toy> p = toy_property({0}, {2}, {});
  p.fair_class = [](const std::string& a) -> std::optional<std::string> {
    return a.starts_with("sched") ? std::optional<std::string>("sched") : std::nullopt;
  };
  const auto result = check_liveness(toy, p, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"sched-a", "back"}));
  expect_replays(toy, p, *result.lasso);
  // Each its own class: sched-b is neglected on every cycle.
  EXPECT_EQ(check_liveness(toy, toy_property({0}, {2}, {"sched-a", "sched-b"}), 100).status,
            LivenessStatus::kHolds);
}

TEST(checkerLiveness, ObligationsAreSearchedInOrderAndTheFirstViolatedOneIsReported) {
  const Toy toy({{0, {{"spin", 0}, {"done", 1}}}, {1, {{"rest", 1}}}});
  LivenessProperty<Toy> p;
  p.obligations = 2;
  // Obligation 0 is discharged at 0 and 1 (holds); obligation 1 is discharged nowhere, so
  // even the final loop at 1 violates it.
  p.triggered = [](const int&, std::size_t) { return true; };
  p.discharged = [](const int&, std::size_t k) { return k == 0; };
  p.fair_class = [](const std::string& a) -> std::optional<std::string> { return a; };
  const auto result = check_liveness(toy, p, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->obligation, 1U);
  EXPECT_EQ(result.lasso->prefix, std::vector<std::string>({"done"}));
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"rest"}));
  expect_replays(toy, p, *result.lasso);
}

TEST(checkerLiveness, TheRecurringFormAsksTheCycleToPassATriggeredState) {
  // Triggered once at 0, then the loop 1 <-> 2 where it never arises again: a violation of
  // the leads-to form, not of the recurring one.
  const Toy once({{0, {{"to1", 1}}}, {1, {{"to2", 2}}}, {2, {{"to1", 1}}}});
  auto leads_to = toy_property({0}, {}, {});
  EXPECT_EQ(check_liveness(once, leads_to, 100).lasso->cycle,
            std::vector<std::string>({"to2", "to1"}));
  auto recurring = toy_property({0}, {}, {});
  recurring.form = LivenessForm::kRecurring;
  EXPECT_EQ(check_liveness(once, recurring, 100).status, LivenessStatus::kHolds);
  // Triggered at 2 on the loop: the recurring form's cycle from 1 passes 2.
  recurring = toy_property({2}, {}, {});
  recurring.form = LivenessForm::kRecurring;
  const auto result = check_liveness(once, recurring, 100);
  ASSERT_EQ(result.status, LivenessStatus::kViolated);
  EXPECT_EQ(result.lasso->prefix, std::vector<std::string>({"to1"}));
  EXPECT_EQ(result.lasso->cycle, std::vector<std::string>({"to2", "to1"}));
  expect_replays(once, recurring, *result.lasso);
  // The shortest cycle from 1 is its self-loop, which passes no triggered state.
  const Toy looping({{0, {{"to1", 1}}}, {1, {{"stay", 1}, {"to2", 2}}}, {2, {{"to1", 1}}}});
  const auto passing = check_liveness(looping, recurring, 100);
  ASSERT_EQ(passing.status, LivenessStatus::kViolated);
  EXPECT_EQ(passing.lasso->cycle, std::vector<std::string>({"to2", "to1"}));
  expect_replays(looping, recurring, *passing.lasso);
}

// ---- cross-check against enumeration -------------------------------------------------

// Whether a fair lasso exists, by enumerating walks: every prefix of up to 2n steps (the
// monitor product has 2n states), then every closed walk of up to (classes + 1) n + 1 steps
// from where it ends, judged by the definition (flag set at the cycle's start, nothing
// discharged on it, every fair class enabled in all its states taken on it). Returns the
// shortest prefix length of a fair lasso.
std::optional<std::size_t> enumerate_lassos(const Toy& toy, const LivenessProperty<Toy>& p, int n,
                                            int classes) {
  const bool recurring = p.form == LivenessForm::kRecurring;
  std::optional<std::size_t> best;
  std::vector<std::string> enabled;
  auto steps_of = [&](int s) {
    enabled.clear();
    toy.enabled_actions(s, enabled);
    return enabled;
  };
  auto flag_after = [&](bool flag, int s) {
    return !p.discharged(s, 0) && (p.triggered(s, 0) || flag);
  };
  auto enabled_classes = [&](int s) {
    std::set<std::string> out;
    for (const std::string& a : steps_of(s)) {
      if (const auto c = p.fair_class(a))
        out.insert(*c);
    }
    return out;
  };
  const std::size_t max_cycle = static_cast<std::size_t>((classes + 1) * n + 1);
  // Closed walks from x back to x over undischarged states.
  std::function<bool(int, int, std::size_t, std::set<std::string>, std::vector<int>&)> cycle =
      [&](int x, int at, std::size_t length, std::set<std::string> taken,
          std::vector<int>& visited) -> bool {
    bool passes_trigger = !recurring;
    for (const int v : visited)
      passes_trigger = passes_trigger || p.triggered(v, 0);
    if (length > 0 && at == x && passes_trigger) {
      if (!p.fairness)
        return true;
      std::set<std::string> always = enabled_classes(visited.front());
      for (const int v : visited) {
        const std::set<std::string> here = enabled_classes(v);
        std::erase_if(always, [&](const std::string& c) { return here.count(c) == 0; });
      }
      bool fair = true;
      for (const std::string& c : always)
        fair = fair && taken.count(c) > 0;
      if (fair)
        return true;
    }
    if (length == max_cycle)
      return false;
    for (const std::string& a : steps_of(at)) {
      Observation obs;
      const int to = toy.next_state(at, a, obs);
      if (p.discharged(to, 0))
        continue;
      std::set<std::string> t = taken;
      if (const auto c = p.fair_class(a))
        t.insert(*c);
      visited.push_back(to);
      const bool found = cycle(x, to, length + 1, t, visited);
      visited.pop_back();
      if (found)
        return true;
    }
    return false;
  };
  std::function<void(int, bool, std::size_t)> prefix = [&](int at, bool flag, std::size_t length) {
    if ((recurring ? !p.discharged(at, 0) : flag) && (!best || length < *best)) {
      std::vector<int> visited{at};
      const bool stuck = steps_of(at).empty() && (!recurring || p.triggered(at, 0));
      if (stuck || cycle(at, at, 0, {}, visited))
        best = length;
    }
    if (length == static_cast<std::size_t>(2 * n))
      return;
    for (const std::string& a : steps_of(at)) {
      Observation obs;
      const int to = toy.next_state(at, a, obs);
      prefix(to, flag_after(flag, to), length + 1);
    }
  };
  prefix(0, flag_after(false, 0), 0);
  return best;
}

TEST(checkerLiveness, AgreesWithEnumerationOnRandomSmallGraphs) {
  std::mt19937_64 rng(20261206);  // fixed: the same graphs on every run
  auto below = [&](int k) { return static_cast<int>(rng() % static_cast<std::uint64_t>(k)); };
  int violated = 0;
  int holds = 0;
  for (int round = 0; round < 400; ++round) {
    const int n = 2 + below(3);  // 2..4 states
    std::map<int, std::vector<std::pair<std::string, int>>> steps;
    std::set<int> triggered;
    std::set<int> discharged;
    for (int s = 0; s < n; ++s) {
      const int out = below(3);  // 0..2 steps, named a, b, c without repeats
      const int first = below(3);
      for (int i = 0; i < out; ++i)
        steps[s].emplace_back(std::string(1, static_cast<char>('a' + (first + i) % 3)), below(n));
      if (below(3) == 0)
        triggered.insert(s);
      if (below(4) == 0)
        discharged.insert(s);
    }
    const bool fairness = below(4) != 0;
    const Toy toy(steps);
    auto property = toy_property(triggered, discharged, {"a", "b"}, fairness);
    if (below(2) == 0)
      property.form = LivenessForm::kRecurring;
    const auto result = check_liveness(toy, property, 100);
    const auto expected = enumerate_lassos(toy, property, n, 2);
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_EQ(result.status == LivenessStatus::kViolated, expected.has_value());
    if (expected) {
      ++violated;
      EXPECT_EQ(result.lasso->prefix.size(), *expected);
      expect_replays(toy, property, *result.lasso);
    } else {
      ++holds;
    }
  }
  // Both verdicts are exercised.
  EXPECT_GT(violated, 50);
  EXPECT_GT(holds, 50);
}

}  // namespace
}  // namespace preemptcheck::checker
