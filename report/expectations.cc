// Expectations printed, and written as JSON and JUnit XML (expectations.h).
#include "report/expectations.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "impl/mechanisms.h"
#include "report/print.h"
#include "report/swimlanes_html.h"

namespace preemptcheck::report {
namespace {

std::string_view expected_word(const Expectation& e) {
  return e.expect_violated ? "violated" : "holds";
}

// What a contradicted expectation says.
std::string failure_text(const Expectation& e) {
  if (e.expect_violated) {
    return fmt::format("{} was expected to be violated, but it holds in every state", e.property);
  }
  return fmt::format("{} was expected to hold, but it is violated ({} step{}): {}", e.property,
                     e.steps, e.steps == 1 ? "" : "s", e.message);
}

}  // namespace

void print_expectations(const std::vector<Expectation>& expectations, std::ostream& out) {
  report::print(out, "expected\n");
  for (const Expectation& e : expectations) {
    const std::string_view state = !e.is_decided() ? "undecided (a limit stopped the search)"
                                   : e.is_met()    ? "met"
                                                   : "NOT MET";
    report::print(out, "  {:<22} {:<9} {}\n", e.property, expected_word(e), state);
  }
}

void print_gate(const std::vector<Expectation>& expectations, std::ostream& out) {
  print_expectations(expectations, out);
  const int code = expectations_exit_code(expectations);
  report::print(out, "gate       {} (exit {})\n",
                code == 0   ? "every expectation is met"
                : code == 1 ? "an expectation is NOT MET"
                            : "a limit left an expectation undecided: nothing is proven",
                code);
}

Json expectations_json(const std::vector<Expectation>& expectations) {
  Json out = Json::array();
  for (const Expectation& e : expectations) {
    out.push_back({{"property", e.property},
                   {"expected", expected_word(e)},
                   {"verdict", e.verdict},
                   {"met", e.is_met()}});
  }
  return out;
}

std::string junit_name(const Scenario& scenario, bool unfair) {
  std::string words = scenario.name + "--" + scenario.profile;
  const Mechanisms base = profile(scenario.profile).value_or(Mechanisms{});
  for (const std::string& d : differences(scenario.mechanisms, base)) {
    // "--gate=release-before-last" -> "gate-release-before-last"
    std::string word = d.starts_with("--") ? d.substr(2) : d;
    std::replace(word.begin(), word.end(), '=', '-');
    words += "--" + word;
  }
  if (unfair)
    words += "--unfair";
  std::replace(words.begin(), words.end(), '.', '_');
  return "preemptcheck." + words;
}

std::string junit_xml(const std::vector<Expectation>& expectations, std::string_view suite,
                      double seconds) {
  std::size_t failures = 0;
  std::size_t skipped = 0;
  for (const Expectation& e : expectations) {
    failures += e.is_decided() && !e.is_met() ? 1 : 0;
    skipped += e.is_decided() ? 0 : 1;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"preemptcheck\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
      expectations.size(), failures, skipped);
  out += fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
      html_escape(suite), expectations.size(), failures, skipped, seconds);
  for (const Expectation& e : expectations) {
    out += fmt::format("    <testcase classname=\"{}\" name=\"{} {}\"", html_escape(suite),
                       html_escape(e.property), expected_word(e));
    if (e.is_decided() && e.is_met()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (!e.is_decided()) {
      out += "      <skipped message=\"a limit stopped the search before it was decided\"/>\n";
    } else {
      out += fmt::format("      <failure message=\"{}\"/>\n", html_escape(failure_text(e)));
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace preemptcheck::report
