// Expectations judged from one run's per-property verdicts (expectations.h).
#include "properties/expectations.h"

#include <algorithm>

#include "spec/liveness.h"

namespace preemptcheck {

std::vector<Expectation> judge_expectations(const checker::Result<Action>& r,
                                            const std::bitset<spec::kPropertyCount>& checked,
                                            const std::vector<std::string>& expect_violated) {
  std::vector<Expectation> out;
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness || !checked.test(static_cast<std::size_t>(d.id)))
      continue;
    Expectation e;
    e.property = d.name;
    e.expect_violated =
        std::find(expect_violated.begin(), expect_violated.end(), d.name) != expect_violated.end();
    e.verdict = "undecided";
    for (std::size_t p = 0; p < r.properties.size() && p < r.property_results.size(); ++p) {
      if (r.properties[p].name != d.name)
        continue;
      const auto& result = r.property_results[p];
      if (result.status == checker::PropertyStatus::kViolated && result.violation) {
        e.verdict = "violated";
        e.message = result.violation->message;
        e.steps = result.violation->path.size();
      } else if (result.status == checker::PropertyStatus::kHolds) {
        e.verdict = "holds";
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

Expectation liveness_expectation(checker::Outcome outcome, const Counterexample* lasso,
                                 bool expect_violated) {
  Expectation e;
  e.property = std::string(spec::kNoStarvation);
  e.expect_violated = expect_violated;
  e.verdict = outcome == checker::Outcome::kViolated ? "violated"
              : outcome == checker::Outcome::kHolds  ? "holds"
                                                     : "undecided";
  if (lasso != nullptr) {
    e.message = lasso->message;
    e.steps = lasso->steps.size();
  }
  return e;
}

int expectations_exit_code(const std::vector<Expectation>& expectations) {
  bool undecided = false;
  for (const Expectation& e : expectations) {
    if (e.is_decided() && !e.is_met())
      return 1;
    undecided = undecided || !e.is_decided();
  }
  return undecided ? 3 : 0;
}

}  // namespace preemptcheck
