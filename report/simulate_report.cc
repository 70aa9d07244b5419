// The words and the JSON document of `check --simulate N`.
#include "report/simulate_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "checker/explore_types.h"
#include "checker/peak_memory.h"
#include "report/json.h"
#include "report/print.h"

namespace preemptcheck::report {
namespace {

const SimulatedShown* shown_for(const SimulateReport& r, std::string_view property) {
  for (const SimulatedShown& s : r.shown) {
    if (s.violation->property == property)
      return &s;
  }
  return nullptr;
}

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// "no violation in 1000 walks of depth 100", or the stop's words.
std::string walks_words(const SimulateReport& r) {
  const SimulateResult& s = r.result;
  if (s.limit.empty())
    return fmt::format("no violation in {} of depth {}", plural(s.walks, "walk"), r.options.depth);
  return fmt::format("the walks stopped {} after {} of {}", stop_words(s.limit, ""),
                     plural(s.walks, "walk"), r.options.walks);
}

std::string shrink_words(const SimulatedShown& s) {
  const SimulatedViolation& v = *s.violation;
  return fmt::format(
      "walk {} cut at its first state violating it, {}, then every run of steps whose removal "
      "still breaks it removed; not necessarily the shortest",
      v.walk, plural(v.prefix.size(), "step"));
}

}  // namespace

void print_simulate_head(const SimulateReport& r, std::ostream& out) {
  report::print(out, "scenario   {} ({})\n", r.scenario.name, r.source);
  report::print(out, "mechanisms {}\n", describe(r.scenario.mechanisms));
  report::print(out,
                "simulate   {} random walks of at most {} steps from the initial state, seed {}\n",
                r.options.walks, r.options.depth, r.options.seed);
}

void print_simulate_text(const SimulateReport& r, int exit_code, std::ostream& out) {
  const SimulateResult& s = r.result;
  report::print(
      out, "walked     {}, {}, the longest {}, {:.2f} s{}\n", plural(s.walks, "walk"),
      plural(s.steps, "step"), s.longest, s.seconds,
      s.walks < r.options.walks && s.limit.empty()
          ? fmt::format(" (every checked property was violated: the walks stop after the batch "
                        "of {} that did it)",
                        kSimulateBatch)
          : "");
  report::print(out, "properties\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness)
      continue;
    std::string verdict;
    if (!r.options.checked.test(static_cast<std::size_t>(d.id))) {
      verdict = "not checked";
    } else if (const SimulatedShown* own = shown_for(r, d.name)) {
      verdict = fmt::format("VIOLATED (walk {}; {} after shrinking, from {})", own->violation->walk,
                            plural(own->steps.size(), "step"), own->violation->prefix.size());
    } else {
      verdict = "no violation in the walks (not verified)";
    }
    report::print(out, "  {:<22} {}\n", d.name, verdict);
  }
  report::print(out, "witnesses\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) {
      report::print(
          out, "  {:<22} {}\n", d.name,
          s.reached[static_cast<std::size_t>(d.id)] ? "reached" : "not reached in the walks");
    }
  }
  if (r.shown.empty()) {
    report::print(out, "result     {} — nothing is proven (exit {})\n", walks_words(r), exit_code);
    report::print(out, "reproduce  {}\n", r.command);
    return;
  }
  for (const SimulatedShown& shown : r.shown) {
    const SimulatedViolation& v = *shown.violation;
    report::print(out, "result     VIOLATED {}: {}\n", v.property, v.shrunk->message);
    report::print(out, "shrunk schedule ({}: {}):\n", plural(shown.steps.size(), "step"),
                  shrink_words(shown));
    std::size_t width = 0;
    for (const TraceStep& t : shown.steps)
      width = std::max(width, t.action.size());
    for (std::size_t i = 0; i < shown.steps.size(); ++i) {
      report::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, shown.steps[i].action, width,
                    shown.steps[i].comment);
    }
    if (!shown.written.empty())
      report::print(out, "replay     preemptcheck replay {}\n", shown.written);
  }
  if (!r.write_error.empty())
    report::print(out, "unwritten  {}\n", r.write_error);
  if (!s.limit.empty()) {
    report::print(out, "incomplete {}; the properties not violated are not verified\n",
                  walks_words(r));
  }
  report::print(out, "reproduce  {}\n", r.command);
  report::print(out, "(exit {})\n", exit_code);
}

void print_simulate_json(const SimulateReport& r, int exit_code, std::ostream& out) {
  const SimulateResult& s = r.result;
  Json j = json_document("check");
  j["scenario"] = r.scenario.name;
  j["source"] = r.source;
  j["profile"] = r.scenario.profile;
  j["mechanisms"] = mechanisms_json(r.scenario.mechanisms);
  j["outcome"] = r.shown.empty()
                     ? (s.limit == checker::kInterrupted ? "interrupted" : "limit-reached")
                     : "violated";
  j["limit"] =
      s.limit.empty() ? (r.shown.empty() ? Json("simulation") : Json(nullptr)) : Json(s.limit);
  const double rate = s.seconds > 0 ? static_cast<double>(s.steps) / s.seconds : 0.0;
  j["stats"] = {{"states", s.steps + s.walks},
                {"transitions", s.steps},
                {"depth", s.longest},
                {"seconds", s.seconds},
                {"states_per_second", rate},
                {"peak_rss_bytes", checker::peak_rss_bytes()},
                {"blocking_round_trips", {{"sync", s.trips.sync}, {"async", s.trips.async}}}};
  Json properties = Json::array();
  Json witnesses = Json::object();
  Json files = Json::array();
  for (const spec::PropertyDef& d : spec::property_table()) {
    const bool reached = s.reached[static_cast<std::size_t>(d.id)];
    if (d.is_witness) {
      witnesses[std::string(d.name)] = reached;
      properties.push_back({{"name", d.name},
                            {"kind", "witness"},
                            {"verdict", reached ? "reached" : "not-reached"},
                            {"message", ""}});
      continue;
    }
    Json p = {{"name", d.name}, {"kind", "safety"}, {"verdict", "incomplete"}, {"message", ""}};
    if (!r.options.checked.test(static_cast<std::size_t>(d.id))) {
      p["verdict"] = "not-checked";
    } else if (const SimulatedShown* own = shown_for(r, d.name)) {
      p["verdict"] = "violated";
      p["message"] = own->violation->shrunk->message;
      Json steps = Json::array();
      for (const TraceStep& t : own->steps)
        steps.push_back({{"action", t.action}, {"comment", t.comment}});
      p["steps"] = std::move(steps);
      if (!own->written.empty()) {
        p["counterexample"] = own->written;
        files.push_back({{"property", d.name}, {"file", own->written}});
      }
    }
    properties.push_back(std::move(p));
  }
  j["properties"] = std::move(properties);
  j["witnesses"] = std::move(witnesses);
  if (!files.empty()) {
    j["counterexample"] = files.front()["file"];
    j["counterexamples"] = std::move(files);
  }
  Json found = Json::array();
  for (const SimulatedShown& shown : r.shown) {
    found.push_back({{"property", shown.violation->property},
                     {"walk", shown.violation->walk},
                     {"walk_steps", shown.violation->prefix.size()},
                     {"shrunk_steps", shown.steps.size()}});
  }
  j["simulation"] = {{"seed", r.options.seed},
                     {"walks", r.options.walks},
                     {"depth", r.options.depth},
                     {"walks_run", s.walks},
                     {"steps", s.steps},
                     {"longest", s.longest},
                     {"shrinking",
                      "each walk cut at its first state violating the property, "
                      "then every run of steps whose removal still breaks it "
                      "removed"},
                     {"violations", std::move(found)},
                     {"reproduce", r.command}};
  if (!r.write_error.empty())
    j["write_error"] = r.write_error;
  j["exit_code"] = exit_code;
  write_json(j, out);
}

}  // namespace preemptcheck::report
