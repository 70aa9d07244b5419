// Expectations: `check --expect-violated P`, for gating one's own scenarios in CI — which
// checked properties must be violated (the named ones) and which must hold (every other
// checked one), judged from one run's per-property verdicts, in words, in JSON and as a JUnit
// report that CI systems read.
#pragma once

#include <bitset>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "report/json.h"
#include "spec/property.h"

namespace preemptcheck::report {

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

/// 0 when every expectation is met, 1 when one is contradicted (violated where it must hold,
/// or holding over the whole space where it must be violated), 3 when none is contradicted
/// but a limit left one undecided.
int expectations_exit_code(const std::vector<Expectation>& expectations);

/// "expected" lines: each property, what was expected, and met / NOT MET / undecided.
void print_expectations(const std::vector<Expectation>& expectations, std::ostream& out);

/// The "expected" lines, then the gate line: "gate       every expectation is met (exit 0)".
void print_gate(const std::vector<Expectation>& expectations, std::ostream& out);

/// The JSON array of the expectations: {property, expected, verdict, met}.
Json expectations_json(const std::vector<Expectation>& expectations);

/// The name a JUnit report gives its test suite and its test cases' class: "preemptcheck.",
/// then the scenario's name, its profile and each switch that differs from the profile, joined
/// by "--", and "--unfair" for an unfair liveness check
/// ("preemptcheck.g1-basic--kubernetes--inflight-off"). Every '.' of those words becomes '_'
/// ("kubernetes-1_35"): Jenkins splits a class name at its last '.', and the one it finds is
/// the one after "preemptcheck". Nothing of the machine or the directory is in it.
std::string junit_name(const Scenario& scenario, bool unfair = false);

/// A JUnit XML report: one test suite named `suite` (junit_name()), one test case per
/// expectation, a <failure> for each contradicted one and <skipped> for an undecided one.
std::string junit_xml(const std::vector<Expectation>& expectations, std::string_view suite,
                      double seconds);

}  // namespace preemptcheck::report
