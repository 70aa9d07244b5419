// The `check` command: load, explore, and print the result for people or for machines.
#include "cli/check_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>
#include <ostream>

#include "cli/counterexample.h"
#include "cli/json.h"
#include "files/scenario_yaml.h"
#include "impl/describe.h"
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
  World w(cluster);
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

void print_json(const Scenario& scenario, const std::string& source, const Result& r,
                const std::vector<TraceStep>& steps, const std::string& written,
                std::ostream& out) {
  JsonWriter j(out);
  j.begin_object();
  j.field("scenario", scenario.name);
  j.field("source", source);
  j.field("mechanisms", describe(scenario.mechanisms));
  j.field("outcome", checker::outcome_name(r.outcome));
  j.field("limit", r.limit);
  j.key("stats");
  j.begin_object();
  j.field("states", r.stats.states);
  j.field("transitions", r.stats.transitions);
  j.field("depth", static_cast<std::uint64_t>(r.stats.depth));
  j.field("seconds", r.stats.seconds);
  j.field("states_per_second", r.stats.states_per_second);
  j.field("peak_rss_bytes", r.stats.peak_rss_bytes);
  j.end_object();
  j.key("witnesses");
  j.begin_object();
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) j.field(d.name, static_cast<bool>(r.reached[static_cast<size_t>(d.id)]));
  }
  j.end_object();
  if (r.violation) {
    j.key("violation");
    j.begin_object();
    j.field("property", r.violation->name);
    j.field("message", r.violation->message);
    j.key("also");
    j.begin_array();
    for (const auto& m : r.violation->also_violated) {
      j.begin_object();
      j.field("property", m.name);
      j.field("message", m.message);
      j.end_object();
    }
    j.end_array();
    j.key("steps");
    j.begin_array();
    for (const TraceStep& s : steps) {
      j.begin_object();
      j.field("action", s.action);
      j.field("comment", s.comment);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  if (!written.empty()) j.field("counterexample", written);
  j.end_object();
  out << '\n';
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

std::optional<std::string> apply_choice(Scenario& scenario, const MechanismChoice& choice) {
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
    if (auto error = set_mechanism(scenario.mechanisms, name, value)) return error;
  }
  return std::nullopt;
}

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  Scenario scenario;
  try {
    scenario = load_scenario(options.scenario_path);
  } catch (const ScenarioError& e) {
    fmt::print(err, "preemptcheck: {}\n", e.what());
    return kExitBadInput;
  }
  if (auto error = apply_choice(scenario, options.mechanisms)) {
    fmt::print(err, "preemptcheck: {}\n", *error);
    return kExitBadInput;
  }
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
    print_json(scenario, source, r, steps, written, out);
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
