// The `check` command: load, explore, and print the result for people or for machines.
#include "cli/check_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>
#include <ostream>

#include "cli/counterexample.h"
#include "cli/json.h"
#include "files/scenario_yaml.h"
#include "impl/show.h"
#include "properties/world_model.h"

namespace preemptcheck::cli {
namespace {

using Result = checker::Result<Action>;

struct TraceStep {
  std::string action;
  std::string comment;
};

// Replays a path from the initial world to say what each step did.
std::vector<TraceStep> trace(const std::shared_ptr<const Cluster>& cluster,
                             const std::vector<Action>& path) {
  std::vector<TraceStep> out;
  World w(*cluster);
  for (const Action& a : path) {
    World before = w;
    StepReport step = w.apply(a);
    out.push_back({format_action(a, *cluster), describe_step(before, step, w)});
  }
  return out;
}

std::string human_bytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

std::string stats_line(const checker::Stats& s) {
  return fmt::format("{} states, {} transitions, depth {}, {:.2f} s, {:.0f} states/s, peak memory {}",
                     s.states, s.transitions, s.depth, s.seconds, s.states_per_second,
                     human_bytes(s.peak_rss_bytes));
}

void print_human(const Scenario& scenario, const std::string& source, const Result& r,
                 const std::vector<TraceStep>& steps, const std::bitset<spec::kPropertyCount>& checked,
                 const std::string& written, std::ostream& out) {
  fmt::print(out, "scenario   {} ({})\n", scenario.name, source);
  fmt::print(out, "mechanisms {}\n", describe(scenario.mechanisms));
  fmt::print(out, "explored   {}\n", stats_line(r.stats));
  const bool violated = r.outcome == checker::Outcome::kViolated;
  const bool complete = r.outcome == checker::Outcome::kHolds;
  fmt::print(out, "properties\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) continue;
    std::string verdict;
    if (!checked.test(static_cast<size_t>(d.id))) {
      verdict = "not checked";
    } else if (violated && (r.violation->name == d.name ||
                            std::any_of(r.violation->also_violated.begin(),
                                        r.violation->also_violated.end(),
                                        [&](const auto& m) { return m.name == d.name; }))) {
      verdict = "VIOLATED";
    } else if (complete) {
      verdict = "holds";
    } else if (violated) {
      verdict = "no violation before the search stopped";
    } else {
      verdict = "not verified (search incomplete)";
    }
    fmt::print(out, "  {:<22} {}\n", d.name, verdict);
  }
  fmt::print(out, "witnesses\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (!d.is_witness) continue;
    fmt::print(out, "  {:<22} {}\n", d.name,
               r.reached[static_cast<size_t>(d.id)] ? "reached" : "not reached");
  }
  switch (r.outcome) {
    case checker::Outcome::kHolds:
      fmt::print(out, "result     every checked property holds in all {} states (exit 0)\n",
                 r.stats.states);
      return;
    case checker::Outcome::kLimitReached:
      fmt::print(out,
                 "result     INCOMPLETE: the search stopped at its {} limit after {} states; "
                 "nothing is proven (exit 3)\n",
                 r.limit, r.stats.states);
      return;
    case checker::Outcome::kViolated:
      break;
  }
  const auto& v = *r.violation;
  fmt::print(out, "result     VIOLATED {}: {}\n", v.name, v.message);
  for (const auto& m : v.also_violated) fmt::print(out, "           also {}: {}\n", m.name, m.message);
  fmt::print(out, "shortest schedule ({} step{}, found breadth-first):\n", steps.size(),
             steps.size() == 1 ? "" : "s");
  size_t width = 0;
  for (const TraceStep& s : steps) width = std::max(width, s.action.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    fmt::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, steps[i].action, width, steps[i].comment);
  }
  if (!written.empty()) fmt::print(out, "replay     preemptcheck replay {}\n", written);
  fmt::print(out, "(exit 1)\n");
}

// A property's verdict in one word, and its message when violated.
std::pair<std::string_view, std::string> json_verdict(const spec::PropertyDef& d, const Result& r,
                                                      const std::bitset<spec::kPropertyCount>& checked) {
  if (!checked.test(static_cast<size_t>(d.id))) return {"not-checked", ""};
  if (r.violation) {
    if (r.violation->name == d.name) return {"violated", r.violation->message};
    for (const auto& m : r.violation->also_violated) {
      if (m.name == d.name) return {"violated", m.message};
    }
  }
  if (r.outcome == checker::Outcome::kHolds) return {"holds", ""};
  return {"incomplete", ""};
}

void print_json(const Scenario& scenario, const std::string& source, const Result& r,
                const std::vector<TraceStep>& steps, const std::bitset<spec::kPropertyCount>& checked,
                const std::string& written, std::ostream& out) {
  Json j = json_document("check");
  j["scenario"] = scenario.name;
  j["source"] = source;
  j["profile"] = scenario.profile;
  j["mechanisms"] = describe(scenario.mechanisms);
  j["outcome"] = checker::outcome_name(r.outcome);
  j["limit"] = r.limit;
  j["stats"] = {{"states", r.stats.states},
                {"transitions", r.stats.transitions},
                {"depth", r.stats.depth},
                {"seconds", r.stats.seconds},
                {"states_per_second", r.stats.states_per_second},
                {"peak_rss_bytes", r.stats.peak_rss_bytes}};
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
      properties.push_back(
          {{"name", d.name}, {"kind", "safety"}, {"verdict", verdict}, {"message", message}});
    }
  }
  j["properties"] = std::move(properties);
  j["witnesses"] = std::move(witnesses);
  if (r.violation) {
    Json also = Json::array();
    for (const auto& m : r.violation->also_violated) {
      also.push_back({{"property", m.name}, {"message", m.message}});
    }
    Json path = Json::array();
    for (const TraceStep& s : steps) path.push_back({{"action", s.action}, {"comment", s.comment}});
    j["violation"] = {{"property", r.violation->name},
                      {"message", r.violation->message},
                      {"also", std::move(also)},
                      {"steps", std::move(path)}};
  }
  if (!written.empty()) j["counterexample"] = written;
  j["exit_code"] = r.outcome == checker::Outcome::kHolds      ? kExitHolds
                   : r.outcome == checker::Outcome::kViolated ? kExitViolated
                                                              : kExitLimit;
  write_json(j, out);
}

// The command line that runs this check, for the counterexample's header.
std::string command_line(const CheckOptions& o) {
  std::string out = "preemptcheck check";
  if (!o.scenario_path.empty()) out += " " + o.scenario_path;
  if (o.mechanisms.profile) out += " --profile " + *o.mechanisms.profile;
  for (const auto& [name, value] : o.mechanisms.switches) out += fmt::format(" --{}={}", name, value);
  if (!o.checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && o.checked.test(static_cast<size_t>(d.id))) {
        out += fmt::format(" --property {}", d.name);
      }
    }
  }
  if (!o.out_dir.empty()) out += " --out " + o.out_dir;
  return out;
}

}  // namespace

const char* default_scenario_yaml();

Scenario load_scenario(const std::string& path) {
  if (path.empty()) return load_scenario_text(default_scenario_yaml(), "<embedded default>");
  return load_scenario_file(path);
}

std::optional<std::string> apply_choice(Scenario& scenario, const MechanismChoice& choice,
                                        std::vector<std::string>* notes) {
  if (choice.profile) {
    auto m = profile(*choice.profile);
    if (!m) {
      std::string names;
      for (auto n : profile_names()) names += (names.empty() ? "" : ", ") + std::string(n);
      return fmt::format("unknown profile '{}'; expected one of: {}", *choice.profile, names);
    }
    scenario.profile = *choice.profile;
    scenario.mechanisms = *m;
  }
  for (const auto& [name, value] : choice.switches) {
    const Mechanisms before = scenario.mechanisms;
    if (auto error = set_mechanism(scenario.mechanisms, name, value)) return error;
    if (notes != nullptr && scenario.mechanisms == before) {
      notes->push_back(fmt::format("--{}={} changes nothing: {} already sets it", name, value,
                                   choice.profile ? "profile " + *choice.profile
                                                  : std::string("the input")));
    }
  }
  return std::nullopt;
}

void print_notes(const std::vector<std::string>& notes, std::string_view command,
                 std::ostream& err) {
  for (const std::string& n : notes) fmt::print(err, "preemptcheck {}: note: {}\n", command, n);
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  Scenario scenario;
  try {
    scenario = load_scenario(options.scenario_path);
  } catch (const ScenarioError& e) {
    fmt::print(err, "preemptcheck: {}\n", e.what());
    return kExitBadInput;
  }
  std::vector<std::string> notes;
  if (auto error = apply_choice(scenario, options.mechanisms, &notes)) {
    fmt::print(err, "preemptcheck: {}\n", *error);
    return kExitBadInput;
  }
  print_notes(notes, "check", err);
  const std::string source =
      options.scenario_path.empty() ? "embedded default" : options.scenario_path;
  auto cluster = std::make_shared<const Cluster>(scenario);
  WorldModel model(cluster, options.checked);
  Result r = checker::explore(model, options.limits);
  std::vector<TraceStep> steps;
  if (r.violation) steps = trace(cluster, r.violation->path);
  std::string written;
  if (r.violation && !options.out_dir.empty()) {
    std::string error;
    const auto path = write_counterexample(
        make_counterexample(scenario, r, options.checked, command_line(options)), options.out_dir,
        error);
    if (!path) {
      fmt::print(err, "preemptcheck: {}\n", error);
      return kExitBadInput;
    }
    written = *path;
  }
  if (options.json) {
    print_json(scenario, source, r, steps, options.checked, written, out);
  } else {
    print_human(scenario, source, r, steps, options.checked, written, out);
  }
  switch (r.outcome) {
    case checker::Outcome::kHolds:
      return kExitHolds;
    case checker::Outcome::kViolated:
      return kExitViolated;
    case checker::Outcome::kLimitReached:
      return kExitLimit;
  }
  return kExitLimit;
}

}  // namespace preemptcheck::cli
