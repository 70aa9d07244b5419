// Expectations: `check --expect-violated P`, for gating one's own scenarios in CI — which
// checked properties must be violated (the named ones) and which must hold (every other
// checked one), judged from one run's per-property verdicts. report/expectations.h prints
// them in words, in JSON and as a JUnit report.
#pragma once

#include <bitset>
#include <cstddef>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "files/counterexample_yaml.h"
#include "impl/action.h"
#include "spec/property.h"

namespace preemptcheck {

/// One checked safety property's expectation and what the run found.
struct Expectation {
  std::string property;
  bool expect_violated = false;  ///< false: it must hold
  /// "violated", "holds", or "undecided" (a limit stopped the search before it was decided).
  std::string verdict;
  std::string message;    ///< the violation's message, when violated
  std::size_t steps = 0;  ///< its shortest schedule's length, when violated

  bool is_met() const { return verdict == (expect_violated ? "violated" : "holds"); }
  bool is_decided() const { return verdict != "undecided"; }
};

/// The expectations of a per-property search `r`: each property in `checked`, violated when
/// named in `expect_violated`, holding otherwise.
std::vector<Expectation> judge_expectations(const checker::Result<Action>& r,
                                            const std::bitset<spec::kPropertyCount>& checked,
                                            const std::vector<std::string>& expect_violated);

/// The expectation of no-starvation for a gate (`check --liveness`): violated when the run
/// found a lasso (`outcome` kViolated, `lasso` the lasso), holding when it built the whole graph
/// without one, undecided when a limit stopped it.
Expectation liveness_expectation(checker::Outcome outcome, const Counterexample* lasso,
                                 bool expect_violated);

/// 0 when every expectation is met, 1 when one is contradicted (violated where it must hold,
/// or holding over the whole space where it must be violated), 3 when none is contradicted
/// but a limit left one undecided.
int expectations_exit_code(const std::vector<Expectation>& expectations);

}  // namespace preemptcheck
