// The `check` command: load, explore, and print the result for people or for machines.
#include "cli/check_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <unistd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <ostream>
#include <thread>

#include "checker/explore_auto.h"
#include "cli/json.h"
#include "files/counterexample_yaml.h"
#include "files/scenario_yaml.h"
#include "properties/schedule.h"
#include "properties/world_model.h"

namespace preemptcheck::cli {
namespace {

using Result = checker::Result<Action>;

struct TraceStep {
  std::string action;
  std::string comment;
};

// A violated property other than the first one reported, with its own shortest schedule.
struct OtherViolation {
  const checker::Violation<Action>* violation = nullptr;
  std::vector<TraceStep> steps;
  std::string written;  // its counterexample file under --out
};

void print_schedule(const std::vector<TraceStep>& steps, std::ostream& out) {
  size_t width = 0;
  for (const TraceStep& s : steps) width = std::max(width, s.action.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    fmt::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, steps[i].action, width, steps[i].comment);
  }
}

// The steps of a replayed schedule as the output prints them.
std::vector<TraceStep> trace(const Schedule& schedule) {
  std::vector<TraceStep> out;
  for (const ScheduleStep& s : schedule.steps) out.push_back({s.text, s.comment});
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

// Why the search stopped: "at its max-states limit", "at the memory limit", "out of memory".
std::string stop_words(std::string_view limit) {
  if (limit == checker::kMemoryLimit) return "at the memory limit (--max-memory)";
  if (limit == checker::kOutOfMemory) return "out of memory (an allocation failed)";
  return fmt::format("at its {} limit", limit);
}

// The fingerprint-collision estimates of a run, as TLC words them.
std::string collision_line(const checker::Stats& s) {
  return fmt::format("fingerprint collision probability {:.1e} (optimistic {:.1e})",
                     s.collision_probability, s.collision_probability_optimistic);
}

// The progress line on stderr: states, depth, rate, queue, memory, elapsed.
std::string progress_line(const checker::Stats& s) {
  return fmt::format("progress   {} states, depth {}, {:.0f} states/s, queue {}, memory {}, {:.0f} s",
                     s.states, s.depth, s.states_per_second, s.queue, human_bytes(s.memory_bytes),
                     s.seconds);
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
                 const spec::BlockingRoundTrips& trips,
                 const std::vector<TraceStep>& steps, const std::bitset<spec::kPropertyCount>& checked,
                 const std::string& written, const std::vector<OtherViolation>& others,
                 std::ostream& out) {
  fmt::print(out, "scenario   {} ({})\n", scenario.name, source);
  fmt::print(out, "mechanisms {}\n", describe(scenario.mechanisms));
  fmt::print(out, "explored   {}\n", stats_line(r.stats));
  fmt::print(out, "           {}\n", collision_line(r.stats));
  fmt::print(out,
             "blocking   the most any preemption cycle{} keeps kube-scheduler's scheduling thread "
             "waiting: {} API round trip{} with deletion=sync, {} with deletion=async\n",
             r.outcome == checker::Outcome::kHolds ? "" : " explored", trips.sync,
             trips.sync == 1 ? "" : "s", trips.async);
  const bool violated = r.outcome == checker::Outcome::kViolated;
  const bool complete = r.outcome == checker::Outcome::kHolds;
  fmt::print(out, "properties\n");
  for (const spec::PropertyDef& d : spec::property_table()) {
    if (d.is_witness) continue;
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
                 "result     INCOMPLETE: the search stopped {} after {} states; "
                 "nothing is proven (exit 3)\n",
                 stop_words(r.limit), r.stats.states);
      return;
    case checker::Outcome::kViolated:
      break;
  }
  const auto& v = *r.violation;
  fmt::print(out, "result     VIOLATED {}: {}\n", v.name, v.message);
  for (const auto& m : v.also_violated) fmt::print(out, "           also {}: {}\n", m.name, m.message);
  fmt::print(out, "shortest schedule ({} step{}, found breadth-first):\n", steps.size(),
             steps.size() == 1 ? "" : "s");
  print_schedule(steps, out);
  if (!written.empty()) fmt::print(out, "replay     preemptcheck replay {}\n", written);
  for (const OtherViolation& o : others) {
    fmt::print(out, "result     VIOLATED {}: {}\n", o.violation->name, o.violation->message);
    fmt::print(out, "its own shortest schedule ({} step{}, found breadth-first):\n", o.steps.size(),
               o.steps.size() == 1 ? "" : "s");
    print_schedule(o.steps, out);
    if (!o.written.empty()) fmt::print(out, "replay     preemptcheck replay {}\n", o.written);
  }
  if (!r.limit.empty()) {
    fmt::print(out,
               "incomplete the search stopped {} after {} states; the properties not violated "
               "are not verified\n",
               stop_words(r.limit), r.stats.states);
  }
  fmt::print(out, "(exit 1)\n");
}

// A property's verdict in one word, and its message when violated.
std::pair<std::string_view, std::string> json_verdict(const spec::PropertyDef& d, const Result& r,
                                                      const std::bitset<spec::kPropertyCount>& checked) {
  if (!checked.test(static_cast<size_t>(d.id))) return {"not-checked", ""};
  if (const auto* own = own_violation(r, d.name)) return {"violated", own->message};
  if (!r.property_results.empty()) {
    return {r.limit.empty() ? "holds" : "incomplete", ""};
  }
  if (r.violation) {
    if (r.violation->name == d.name) return {"violated", r.violation->message};
    for (const auto& m : r.violation->also_violated) {
      if (m.name == d.name) return {"violated", m.message};
    }
  }
  if (r.outcome == checker::Outcome::kHolds) return {"holds", ""};
  return {"incomplete", ""};
}

Json steps_json(const std::vector<TraceStep>& steps) {
  Json path = Json::array();
  for (const TraceStep& s : steps) path.push_back({{"action", s.action}, {"comment", s.comment}});
  return path;
}

void print_json(const Scenario& scenario, const std::string& source, const Result& r,
                const spec::BlockingRoundTrips& trips, const std::vector<TraceStep>& steps,
                const std::bitset<spec::kPropertyCount>& checked, const std::string& written,
                const std::vector<OtherViolation>& others, std::ostream& out) {
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
                {"peak_rss_bytes", r.stats.peak_rss_bytes},
                {"collision_probability", r.stats.collision_probability},
                {"collision_probability_optimistic", r.stats.collision_probability_optimistic},
                {"blocking_round_trips", {{"sync", trips.sync}, {"async", trips.async}}}};
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
      Json property = {{"name", d.name}, {"kind", "safety"}, {"verdict", verdict}, {"message", message}};
      if (r.violation && r.violation->name == d.name) {
        property["steps"] = steps_json(steps);
        if (!written.empty()) property["counterexample"] = written;
      }
      for (const OtherViolation& o : others) {
        if (o.violation->name == d.name) {
          property["steps"] = steps_json(o.steps);
          if (!o.written.empty()) property["counterexample"] = o.written;
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
  if (!o.scenario_of.empty()) out += " --scenario-of " + o.scenario_of;
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
  if (o.stop_at_first) out += " --stop-at-first";
  return out;
}

}  // namespace

const char* default_scenario_yaml();

unsigned effective_threads(unsigned threads) {
  if (threads != 0) return threads;
  return std::max(1U, std::thread::hardware_concurrency());
}

std::uint64_t default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size) / 5 * 4;
}

std::optional<std::uint64_t> parse_memory_size(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
  }
  const std::string_view suffix = text.substr(digits);
  static constexpr std::pair<std::string_view, std::uint64_t> kUnits[] = {
      {"", 1},
      {"K", 1000ULL},
      {"M", 1000ULL * 1000},
      {"G", 1000ULL * 1000 * 1000},
      {"T", 1000ULL * 1000 * 1000 * 1000},
      {"Ki", 1ULL << 10},
      {"Mi", 1ULL << 20},
      {"Gi", 1ULL << 30},
      {"Ti", 1ULL << 40}};
  for (const auto& [unit, factor] : kUnits) {
    if (suffix == unit) {
      if (value == 0 || value > std::numeric_limits<std::uint64_t>::max() / factor) {
        return std::nullopt;
      }
      return value * factor;
    }
  }
  return std::nullopt;
}

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
    scenario = options.scenario_of.empty()
                   ? load_scenario(options.scenario_path)
                   : load_counterexample_file(options.scenario_of).scenario;
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
      !options.scenario_of.empty()     ? "the scenario of " + options.scenario_of
      : options.scenario_path.empty() ? std::string("embedded default")
                                      : options.scenario_path;
  auto cluster = std::make_shared<const Cluster>(scenario);
  WorldModel model(cluster, options.checked);
  checker::Limits limits = options.limits;
  limits.max_memory_bytes = options.max_memory ? *options.max_memory : default_max_memory();
  if (limits.max_memory_bytes == std::optional<std::uint64_t>(0)) limits.max_memory_bytes.reset();
  checker::ExploreOptions<Action> explore_options;
  explore_options.threads = effective_threads(options.threads);
  // The distributed search stops at the first violation (checker/explore_auto.h).
  const bool distributed = checker::mpi::size() > 1;
  if (distributed && !options.stop_at_first && checker::mpi::is_lead_rank()) {
    fmt::print(err,
               "preemptcheck check: note: under mpirun the search stops at the first violation, "
               "as with --stop-at-first\n");
  }
  explore_options.per_property = !options.stop_at_first && !distributed;
  if (!options.quiet) {
    explore_options.progress = [&err](const checker::Stats& s) {
      fmt::print(err, "{}\n", progress_line(s));
      err.flush();
    };
  }
  // Distributed check (docs/mpi.md): under mpirun every rank searches its part; rank 0 alone
  // prints and writes the counterexample, the others return the same exit status.
  Result r;
  try {
    r = checker::explore_auto(model, limits, explore_options);
  } catch (const checker::RankFailure& e) {
    fmt::print(err, "preemptcheck: {}\n", e.what());
    return kExitBadInput;
  }
  // Each rank saw the cycles of the states it expanded: the peaks are the largest of all.
  spec::BlockingRoundTrips trips = model.peak_round_trips();
  trips.sync = checker::mpi::max_over_ranks(trips.sync);
  trips.async = checker::mpi::max_over_ranks(trips.async);
  if (!checker::mpi::is_lead_rank()) {
    return r.outcome == checker::Outcome::kHolds      ? kExitHolds
           : r.outcome == checker::Outcome::kViolated ? kExitViolated
                                                      : kExitLimit;
  }
  // Every counterexample is the schedule's replay of a violation's path; with per-property
  // results each violated property has its own.
  std::optional<Schedule> schedule;
  if (r.violation) schedule = replay_schedule(scenario, r.violation->path, options.checked);
  std::vector<TraceStep> steps;
  if (schedule) steps = trace(*schedule);
  std::vector<OtherViolation> others;
  std::vector<Schedule> other_schedules;
  for (const auto& entry : r.property_results) {
    if (entry.status == checker::PropertyStatus::kViolated && entry.violation &&
        !(r.violation && entry.violation->name == r.violation->name)) {
      other_schedules.push_back(replay_schedule(scenario, entry.violation->path, options.checked));
      others.push_back({&*entry.violation, trace(other_schedules.back()), ""});
    }
  }
  std::string written;
  if (r.violation && !options.out_dir.empty()) {
    // One file per violated property, each with that property's own counterexample.
    const auto write = [&](const Schedule& s,
                           const checker::Violation<Action>& v) -> std::optional<std::string> {
      std::string error;
      FoundBy found_by;
      found_by.states = r.stats.states;
      auto path = write_counterexample(
          to_counterexample(s, scenario, v.name, found_by, command_line(options)),
          options.out_dir, error);
      if (!path) fmt::print(err, "preemptcheck: {}\n", error);
      return path;
    };
    const auto path = write(*schedule, *r.violation);
    if (!path) return kExitBadInput;
    written = *path;
    for (std::size_t i = 0; i < others.size(); ++i) {
      const auto other = write(other_schedules[i], *others[i].violation);
      if (!other) return kExitBadInput;
      others[i].written = *other;
    }
  }
  if (options.json) {
    print_json(scenario, source, r, trips, steps, options.checked, written,
               others, out);
  } else {
    print_human(scenario, source, r, trips, steps, options.checked, written,
                others, out);
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
