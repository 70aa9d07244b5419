// The words and the JSON document of a `check` result.
#include "report/check_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "report/json.h"
#include "report/print.h"

namespace preemptcheck::report {
namespace {

using Result = checker::Result<Action>;

void print_schedule(const std::vector<TraceStep>& steps, std::ostream& out) {
  size_t width = 0;
  for (const TraceStep& s : steps)
    width = std::max(width, s.action.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    report::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, steps[i].action, width, steps[i].comment);
  }
}

std::string stats_line(const checker::Stats& s) {
  return fmt::format(
      "{} states, {} transitions, depth {}, {:.2f} s, {:.0f} states/s, peak memory {}", s.states,
      s.transitions, s.depth, s.seconds, s.states_per_second, human_bytes(s.peak_rss_bytes));
}

}  // namespace

std::string human_bytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

std::string stop_words(std::string_view limit, std::string_view detail) {
  if (limit == checker::kInterrupted)
    return fmt::format("because it was interrupted ({})", detail);
  if (limit == checker::kTempFileLimit)
    return fmt::format("because a temporary file failed ({})", detail);
  if (limit == checker::kModelCapacityLimit)
    return fmt::format("because the model's bounded storage is full ({})", detail);
  if (limit == checker::kMemoryLimit)
    return "at the memory limit (--max-memory)";
  if (limit == checker::kOutOfMemory)
    return "out of memory (an allocation failed)";
  if (limit == checker::kTimeLimit)
    return "at the time limit (--time-limit)";
  return fmt::format("at the {} limit (--{})", limit, limit);
}

namespace {

// The fingerprint-collision estimates of a run, as TLC words them.
std::string collision_line(const checker::Stats& s) {
  return fmt::format("fingerprint collision probability {:.1e} (optimistic {:.1e})",
                     s.collision_probability, s.collision_probability_optimistic);
}

// The violation of property `name` in a per-property result, if it has one.
const checker::Violation<Action>* own_violation(const Result& r, std::string_view name) {
  for (std::size_t p = 0; p < r.property_results.size(); ++p) {
    if (r.properties[p].name == name &&
        r.property_results[p].status == checker::PropertyStatus::kViolated &&
        r.property_results[p].violation) {
      return &*r.property_results[p].violation;
    }
  }
  return nullptr;
}

// Whether `name` is the violation's property or among the ones the same step also broke.
bool names_property(const checker::Violation<Action>& v, std::string_view name) {
  return v.name == name || std::any_of(v.also_violated.begin(), v.also_violated.end(),
                                       [&](const auto& m) { return m.name == name; });
}

void print_human(const Scenario& scenario, const std::string& source, const Result& r,
                 const spec::BlockingRoundTrips& trips, const std::vector<TraceStep>& steps,
                 const std::bitset<spec::kPropertyCount>& checked, const std::string& written,
                 const std::vector<OtherViolation>& others, const std::string& write_error,
                 bool gated, const std::string& reduction,
                 const std::vector<std::pair<std::string, std::string>>& advice,
                 std::ostream& out) {
  // Under a gate the exit code is the gate's, printed after the expectations.
  const auto exit_mark = [gated](int code) {
    return gated ? std::string() : fmt::format(" (exit {})", code);
  };
  report::print(out, "scenario   {} ({})\n", scenario.name, source);
  report::print(out, "mechanisms {}\n", describe(scenario.mechanisms));
  report::print(out, "explored   {}\n", stats_line(r.stats));
  if (reduction == "symmetry")
    report::print(out, "reduction  {}: the states are counted once per renaming\n", reduction);
  if (reduction == "watch-order") {
    report::print(out,
                  "reduction  {}: the states are counted once per serialization of concurrent "
                  "writes; counterexamples are FIFO schedules\n",
                  reduction);
  }
  if (reduction == "watch-order,symmetry") {
    report::print(out,
                  "reduction  {}: the states are counted once per serialization of concurrent "
                  "writes and renaming of interchangeable pods; counterexamples are FIFO "
                  "schedules\n",
                  reduction);
  }
  report::print(out, "           {}\n", collision_line(r.stats));
  report::print(
      out,
      "blocking   the most any preemption cycle{} keeps kube-scheduler's scheduling thread "
      "waiting: {} API round trip{} with deletion=sync, {} with deletion=async\n",
      r.outcome == checker::Outcome::kHolds ? "" : " explored", trips.sync,
      trips.sync == 1 ? "" : "s", trips.async);
  const bool violated = r.outcome == checker::Outcome::kViolated;
  const bool complete = r.outcome == checker::Outcome::kHolds;
  report::print(out, "properties\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness)
      continue;
    std::string verdict;
    if (!checked.test(static_cast<size_t>(d.id))) {
      verdict = "not checked";
    } else if (own_violation(r, d.name) != nullptr) {
      verdict = fmt::format("VIOLATED ({} step{})", own_violation(r, d.name)->path.size(),
                            own_violation(r, d.name)->path.size() == 1 ? "" : "s");
    } else if (violated && names_property(*r.violation, d.name)) {
      verdict = "VIOLATED";
    } else if (!r.property_results.empty() && r.limit.empty()) {
      verdict = "holds";
    } else if (complete) {
      verdict = "holds";
    } else if (violated) {
      verdict = "no violation before the search stopped";
    } else {
      verdict = "not verified (search incomplete)";
    }
    report::print(out, "  {:<22} {}\n", d.name, verdict);
  }
  report::print(out, "witnesses\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness)
      continue;
    // A search that stopped at its verdicts or a limit may not have come to a witness.
    report::print(out, "  {:<22} {}\n", d.name,
                  r.reached[static_cast<size_t>(d.id)] ? "reached"
                  : complete                           ? "not reached"
                                                       : "not reached in the states explored");
  }
  for (const auto& [label, words] : advice)
    report::print(out, "{:<10} {}\n", label, words);
  switch (r.outcome) {
    case checker::Outcome::kHolds:
      report::print(out, "result     every checked property holds in all {} states{}\n",
                    r.stats.states, exit_mark(0));
      return;
    case checker::Outcome::kLimitReached:
      if (r.limit == checker::kInterrupted) {
        report::print(
            out,
            "result     interrupted: nothing is proven; the search stopped at {} after {} "
            "states{}\n",
            r.limit_detail, r.stats.states, exit_mark(3));
        return;
      }
      report::print(out,
                    "result     INCOMPLETE: the search stopped {} after {} states; "
                    "nothing is proven{}\n",
                    stop_words(r.limit, r.limit_detail), r.stats.states, exit_mark(3));
      return;
    case checker::Outcome::kViolated:
      break;
  }
  const auto& v = *r.violation;
  report::print(out, "result     VIOLATED {}: {}\n", v.name, v.message);
  for (const auto& m : v.also_violated)
    report::print(out, "           also {}: {}\n", m.name, m.message);
  report::print(out, "shortest schedule ({} step{}, found breadth-first):\n", steps.size(),
                steps.size() == 1 ? "" : "s");
  print_schedule(steps, out);
  if (!written.empty())
    report::print(out, "replay     preemptcheck replay {}\n", written);
  for (const OtherViolation& o : others) {
    report::print(out, "result     VIOLATED {}: {}\n", o.violation->name, o.violation->message);
    report::print(out, "its own shortest schedule ({} step{}, found breadth-first):\n",
                  o.steps.size(), o.steps.size() == 1 ? "" : "s");
    print_schedule(o.steps, out);
    if (!o.written.empty())
      report::print(out, "replay     preemptcheck replay {}\n", o.written);
  }
  if (!write_error.empty())
    report::print(out, "unwritten  {}\n", write_error);
  if (!r.limit.empty()) {
    report::print(out,
                  "incomplete the search stopped {} after {} states; the properties not violated "
                  "are not verified\n",
                  stop_words(r.limit, r.limit_detail), r.stats.states);
  }
  if (!gated)
    report::print(out, "(exit 1)\n");
}

// A property's verdict in one word, and its message when violated.
std::pair<std::string_view, std::string> json_verdict(
    const spec::PropertyDef& d, const Result& r, const std::bitset<spec::kPropertyCount>& checked) {
  if (!checked.test(static_cast<size_t>(d.id)))
    return {"not-checked", ""};
  if (const auto* own = own_violation(r, d.name))
    return {"violated", own->message};
  if (!r.property_results.empty()) {
    return {r.limit.empty() ? "holds" : "incomplete", ""};
  }
  if (r.violation) {
    if (r.violation->name == d.name)
      return {"violated", r.violation->message};
    for (const auto& m : r.violation->also_violated) {
      if (m.name == d.name)
        return {"violated", m.message};
    }
  }
  if (r.outcome == checker::Outcome::kHolds)
    return {"holds", ""};
  return {"incomplete", ""};
}

Json steps_json(const std::vector<TraceStep>& steps) {
  Json path = Json::array();
  for (const TraceStep& s : steps)
    path.push_back({{"action", s.action}, {"comment", s.comment}});
  return path;
}

void print_json(const Scenario& scenario, const std::string& source, const Result& r,
                const spec::BlockingRoundTrips& trips, const std::vector<TraceStep>& steps,
                const std::bitset<spec::kPropertyCount>& checked, const std::string& written,
                const std::vector<OtherViolation>& others, const std::string& write_error,
                const std::vector<Expectation>* expectations, int exit_code,
                const std::string& reduction,
                const std::vector<std::pair<std::string, std::string>>& advice, std::ostream& out) {
  Json j = json_document("check");
  j["scenario"] = scenario.name;
  j["source"] = source;
  j["profile"] = scenario.profile;
  j["mechanisms"] = mechanisms_json(scenario.mechanisms);
  j["outcome"] = checker::outcome_name(r.outcome);
  j["limit"] = r.limit.empty() ? Json(nullptr) : Json(r.limit);
  if (!r.limit_detail.empty())
    j["limit_detail"] = r.limit_detail;
  if (r.limit == checker::kInterrupted) {
    j["interrupted"] = r.violation ? "interrupted: the violations found stand; the properties not "
                                     "violated are not verified"
                                   : "interrupted: nothing is proven";
  }
  j["stats"] = {{"states", r.stats.states},
                {"transitions", r.stats.transitions},
                {"depth", r.stats.depth},
                {"seconds", r.stats.seconds},
                {"states_per_second", r.stats.states_per_second},
                {"peak_rss_bytes", r.stats.peak_rss_bytes},
                {"collision_probability", r.stats.collision_probability},
                {"collision_probability_optimistic", r.stats.collision_probability_optimistic},
                {"blocking_round_trips", {{"sync", trips.sync}, {"async", trips.async}}},
                {"reduction", reduction}};
  Json properties = Json::array();
  Json witnesses = Json::object();
  for (const spec::PropertyDef& d : spec::property_table()) {
    const bool reached = r.reached[static_cast<size_t>(d.id)];
    if (d.is_witness) {
      witnesses[std::string(d.name)] = reached;
      properties.push_back({{"name", d.name},
                            {"kind", "witness"},
                            {"verdict", reached ? "reached" : "not-reached"},
                            {"message", ""}});
    } else {
      const auto [verdict, message] = json_verdict(d, r, checked);
      Json property = {
          {"name", d.name}, {"kind", "safety"}, {"verdict", verdict}, {"message", message}};
      if (r.violation && r.violation->name == d.name) {
        property["steps"] = steps_json(steps);
        if (!written.empty())
          property["counterexample"] = written;
      }
      for (const OtherViolation& o : others) {
        if (o.violation->name == d.name) {
          property["steps"] = steps_json(o.steps);
          if (!o.written.empty())
            property["counterexample"] = o.written;
        }
      }
      properties.push_back(std::move(property));
    }
  }
  j["properties"] = std::move(properties);
  j["witnesses"] = std::move(witnesses);
  if (r.violation) {
    Json also = Json::array();
    for (const auto& m : r.violation->also_violated) {
      also.push_back({{"property", m.name}, {"message", m.message}});
    }
    j["violation"] = {{"property", r.violation->name},
                      {"message", r.violation->message},
                      {"also", std::move(also)},
                      {"steps", steps_json(steps)}};
  }
  if (!written.empty()) {
    j["counterexample"] = written;
    Json files = Json::array({{{"property", r.violation->name}, {"file", written}}});
    for (const OtherViolation& o : others) {
      if (!o.written.empty())
        files.push_back({{"property", o.violation->name}, {"file", o.written}});
    }
    j["counterexamples"] = std::move(files);
  }
  if (!write_error.empty())
    j["write_error"] = write_error;
  if (expectations != nullptr)
    j["expectations"] = expectations_json(*expectations);
  if (!advice.empty()) {
    Json lines = Json::array();
    for (const auto& [label, words] : advice)
      lines.push_back({{"kind", label}, {"text", words}});
    j["advice"] = std::move(lines);
  }
  j["exit_code"] = exit_code;
  write_json(j, out);
}
}  // namespace

std::vector<TraceStep> trace(const Schedule& schedule) {
  std::vector<TraceStep> out;
  for (const ScheduleStep& s : schedule.steps)
    out.push_back({s.text, s.comment});
  return out;
}

std::string progress_line(const checker::Stats& s) {
  return fmt::format(
      "progress   {} states, depth {}, {:.0f} states/s, queue {}, memory {}, {:.0f} s", s.states,
      s.depth, s.states_per_second, s.queue, human_bytes(s.memory_bytes), s.seconds);
}

void print_check_text(const CheckReport& c, std::ostream& out) {
  print_human(c.scenario, c.source, c.result, c.trips, c.steps, c.checked, c.written, c.others,
              c.write_error, c.expectations != nullptr, c.reduction, c.advice, out);
  if (c.expectations == nullptr)
    return;
  print_gate(*c.expectations, out);
}

void print_check_json(const CheckReport& c, int exit_code, std::ostream& out) {
  print_json(c.scenario, c.source, c.result, c.trips, c.steps, c.checked, c.written, c.others,
             c.write_error, c.expectations, exit_code, c.reduction, c.advice, out);
}

}  // namespace preemptcheck::report
