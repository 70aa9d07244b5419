// A model whose fingerprint merges different states (as a symmetry reduction does,
// checker/model.h merges_states): on every thread count the search keeps, of the states one
// level reaches under one fingerprint, the state of the smallest step — the one a sequential
// search keeps and the one its recorded path leads to — even when another thread stores a
// state of that fingerprint first.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "checker/explorer.h"
#include "checker/model.h"

namespace preemptcheck::checker {
namespace {

// The root steps to 600 states; from them, state 1 and state 301 (the first and the second
// unit of work of that level, checker/store/frontier_store.h) both step to the state 1000,
// labelled by where they came from, under one fingerprint; every other state steps to a state
// of its own. The labelled state steps to 1001 with its label, which the fingerprint covers:
// 1001 labelled by state 301 is a violation, reached only when the search keeps the state of
// the larger step. The step out of state 1 is slow, so that on several threads the step out of
// state 301 claims the fingerprint first.
class Labelled {
 public:
  struct State {
    std::uint32_t n = 0;
    std::uint32_t label = 0;
  };
  using Action = std::uint32_t;

  State initial_state() const { return {}; }
  void enabled_actions(const State& s, std::vector<Action>& out) const {
    if (s.n == 0) {
      for (Action a = 0; a < 600; ++a) {
        out.push_back(a);
      }
    } else if (s.n <= 600 || s.n == 1000) {
      out.push_back(0);
    }
  }
  State next_state(const State& s, const Action& a, Observation& obs) const {
    if (s.n == 0) {
      return {1 + a, 0};
    }
    if (s.n == 1000) {
      if (s.label == 301) {
        obs.violate(0, "the state of the larger step was kept");
      }
      return {1001, s.label};
    }
    if (s.n == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    if (s.n == 1 || s.n == 301) {
      return {1000, s.n};
    }
    return {2000 + s.n, 0};
  }
  void check_initial(const State&, Observation&) const {}
  std::uint64_t fingerprint(const State& s) const {
    const std::uint64_t label = s.n == 1000 ? 0 : s.label;
    return (std::uint64_t{s.n} << 32 | label) * 0x9E3779B97F4A7C15ULL + 1;
  }
  bool merges_states() const { return true; }
  const std::vector<PropertyInfo>& properties() const { return properties_; }

 private:
  std::vector<PropertyInfo> properties_{
      {"kept-smallest", PropertyKind::kAlways, "the smallest step's state is kept", true}};
};

TEST(checkerLevelMerge, EveryThreadCountKeepsTheStateOfTheSmallestStep) {
  const Labelled model;
  ASSERT_TRUE(merges_states(model));
  for (unsigned threads = 1; threads <= 3; ++threads) {
    ExploreOptions<Labelled::Action> opts;
    opts.threads = threads;
    const Result<Labelled::Action> r = explore(model, Limits{}, opts);
    const std::string label = "threads " + std::to_string(threads);
    EXPECT_FALSE(r.violation.has_value()) << label;
    // The root, 600 states, 599 after them (two steps meet), and 1001.
    EXPECT_EQ(r.stats.states, 1201U) << label;
    EXPECT_EQ(r.stats.transitions, 1201U) << label;
    EXPECT_EQ(r.stats.depth, 3U) << label;
    EXPECT_TRUE(r.limit.empty()) << label;
  }
}

}  // namespace
}  // namespace preemptcheck::checker
