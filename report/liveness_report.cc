// The words and the JSON document of a `check --liveness` result (liveness_report.h).
#include "report/liveness_report.h"

#include <fmt/format.h>

#include <ostream>

#include "impl/mechanisms.h"
#include "report/check_report.h"
#include "report/json.h"
#include "report/print.h"
#include "spec/liveness.h"

namespace preemptcheck::report {
namespace {

// What fairness the lasso search assumed, after "no-starvation, ".
std::string_view fairness_words(bool unfair) {
  return unfair ? "without fairness: every loop counts, even one that neglects the scheduler's "
                  "own steps"
                : "under weak fairness of the scheduler's, the informer's and the kubelet's "
                  "steps (faults, arrivals and other components may stop)";
}

// Why the liveness graph's state count is not the safety check's (SPEC §4a).
constexpr std::string_view kStatesNote =
    "a liveness state is the cluster alone: the safety monitors' memory (the ledger) is not part "
    "of it, so the graph has at most the safety check's states (SPEC §4a)";

// The result line's words when a limit stopped the graph build.
std::string limit_words(const LivenessReport& r) {
  if (r.limit == checker::kMaxStatesLimit) {
    return fmt::format("limit reached: the graph has more than {} states; nothing is proven",
                       r.max_states);
  }
  if (r.limit == checker::kModelCapacityLimit) {
    return fmt::format("limit reached: the model's bounded storage is full ({}); nothing is proven",
                       r.limit_detail);
  }
  return fmt::format("INCOMPLETE: the search stopped {} after {} states; nothing is proven",
                     stop_words(r.limit, r.limit_detail), r.stats.states);
}

Json lasso_steps_json(const Counterexample& cx) {
  Json steps = Json::array();
  for (const CounterexampleStep& s : cx.steps)
    steps.push_back({{"action", s.text}, {"comment", s.comment}});
  return steps;
}

}  // namespace

void print_liveness_text(const LivenessReport& r, std::ostream& out) {
  const bool gated = r.expectations != nullptr;
  const auto exit_mark = [gated](int code) {
    return gated ? std::string() : fmt::format(" (exit {})", code);
  };
  report::print(out, "scenario   {} ({})\n", r.scenario.name, r.source);
  report::print(out, "mechanisms {}\n", describe(r.scenario.mechanisms));
  report::print(out, "liveness   {}, {}\n", spec::kNoStarvation, fairness_words(r.unfair));
  if (r.limit != checker::kMaxStatesLimit && r.limit != checker::kModelCapacityLimit) {
    report::print(out,
                  "explored   {} states, {} transitions, {:.2f} s, {:.0f} states/s, peak "
                  "memory {}: {}\n",
                  r.stats.states, r.stats.transitions, r.stats.seconds, r.stats.states_per_second,
                  human_bytes(r.stats.peak_rss_bytes),
                  r.limit.empty() ? "the whole graph" : "the part built before the limit");
    report::print(out, "states     {}\n", kStatesNote);
  }
  if (r.outcome == checker::Outcome::kLimitReached) {
    report::print(out, "result     {}{}\n", limit_words(r), exit_mark(3));
  } else if (r.lasso == nullptr) {
    report::print(out, "result     no-starvation holds: no {}loop of the graph starves a pod{}\n",
                  r.unfair ? "" : "fair ", exit_mark(0));
  } else {
    const Counterexample& cx = *r.lasso;
    const std::size_t loop = cx.loop.value_or(cx.steps.size());
    report::print(out, "result     VIOLATED {}: {}\n", cx.property, cx.message);
    report::print(out,
                  "{}lasso ({} steps: a shortest prefix of {}, then a loop of {} that repeats "
                  "forever):\n",
                  r.unfair ? "unfair " : "", cx.steps.size(), loop, cx.steps.size() - loop);
    if (r.unfair) {
      report::print(out,
                    "unfair     found with --unfair: its loop may neglect a step of the scheduler, "
                    "the informer or the kubelet that weak fairness would take\n");
    }
    for (std::size_t i = 0; i <= cx.steps.size(); ++i) {
      if (i == loop) {
        report::print(out, "  {}\n",
                      i == cx.steps.size() ? "the run stops here for good: nothing is enabled"
                                           : "---- the loop: the steps below repeat forever");
      }
      if (i < cx.steps.size())
        report::print(out, "  {:>3}. {}  # {}\n", i + 1, cx.steps[i].text, cx.steps[i].comment);
    }
    if (!r.written.empty())
      report::print(out, "replay     preemptcheck replay {}\n", r.written);
    if (!r.write_error.empty())
      report::print(out, "unwritten  {}\n", r.write_error);
    if (!gated)
      report::print(out, "(exit 1)\n");
  }
  if (gated)
    print_gate(*r.expectations, out);
}

void print_liveness_json(const LivenessReport& r, int exit_code, std::ostream& out) {
  Json j = json_document("check");
  j["scenario"] = r.scenario.name;
  j["source"] = r.source;
  j["profile"] = r.scenario.profile;
  j["mechanisms"] = mechanisms_json(r.scenario.mechanisms);
  j["liveness"] = {{"property", spec::kNoStarvation},
                   {"fairness", r.unfair ? "none" : "weak"},
                   {"states_note", kStatesNote}};
  j["outcome"] = checker::outcome_name(r.outcome);
  j["limit"] = r.limit.empty() ? Json(nullptr) : Json(r.limit);
  if (!r.limit_detail.empty())
    j["limit_detail"] = r.limit_detail;
  j["stats"] = {{"states", r.stats.states},
                {"transitions", r.stats.transitions},
                {"seconds", r.stats.seconds},
                {"states_per_second", r.stats.states_per_second},
                {"peak_rss_bytes", r.stats.peak_rss_bytes},
                {"whole_graph", r.limit.empty()}};
  Json property = {{"name", spec::kNoStarvation},
                   {"kind", "liveness"},
                   {"verdict", r.outcome == checker::Outcome::kViolated ? "violated"
                               : r.outcome == checker::Outcome::kHolds  ? "holds"
                                                                        : "incomplete"},
                   {"message", r.lasso != nullptr ? r.lasso->message : std::string()}};
  if (r.lasso != nullptr) {
    property["steps"] = lasso_steps_json(*r.lasso);
    if (!r.written.empty())
      property["counterexample"] = r.written;
    j["lasso"] = {{"property", r.lasso->property},
                  {"message", r.lasso->message},
                  {"unfair", r.unfair},
                  {"loop", r.lasso->loop.value_or(r.lasso->steps.size())},
                  {"steps", lasso_steps_json(*r.lasso)}};
  }
  j["properties"] = Json::array({std::move(property)});
  if (!r.written.empty()) {
    j["counterexample"] = r.written;
    j["counterexamples"] = Json::array({{{"property", spec::kNoStarvation}, {"file", r.written}}});
  }
  if (!r.write_error.empty())
    j["write_error"] = r.write_error;
  if (r.expectations != nullptr)
    j["expectations"] = expectations_json(*r.expectations);
  j["exit_code"] = exit_code;
  write_json(j, out);
}

}  // namespace preemptcheck::report
