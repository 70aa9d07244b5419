// Expectations (properties/expectations.h, `check --expect-violated P`) in words, in JSON and
// as a JUnit report that CI systems read.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "impl/scenario.h"
#include "properties/expectations.h"
#include "report/json.h"

namespace preemptcheck::report {

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
