// The `search` command: parse, run the RapidCheck search, print what it found and shrank.
// Under mpirun the exhaustive search spreads its clusters over the ranks (properties/search.cc
// says how); rank 0 alone prints and writes, and every rank exits with rank 0's status.
#include "cli/search_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <memory>
#include <ostream>
#include <sstream>

#include "checker/explore_failure.h"
#include "checker/mpi_world.h"
#include "cli/check_command.h"
#include "cli/json.h"
#include "files/scenario_yaml.h"
#include "properties/schedule.h"
#include "properties/rapidcheck_run.h"

namespace preemptcheck::cli {
namespace {

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Prints at most one progress line a second, on `err`.
class Progress {
 public:
  explicit Progress(std::ostream& err) : err_(err) {}

  void line(double seconds, const std::string& text) {
    if (seconds < next_) return;
    next_ = seconds + 1.0;
    fmt::print(err_, "progress   {}, {:.1f} s\n", text, seconds);
    err_.flush();
  }

 private:
  std::ostream& err_;
  double next_ = 1.0;
};

void print_scenario(const Scenario& s, std::ostream& out) {
  std::istringstream in(scenario_to_yaml(s));
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("name:") || line.starts_with("description:") ||
        line.starts_with("profile:") || line.starts_with("mechanisms:")) {
      continue;
    }
    fmt::print(out, "  {}\n", line);
  }
}

// The schedule as the counterexample holds it: each step's text and comment come from its
// replay (properties/schedule.h).
void print_steps(const Counterexample& cx, std::ostream& out) {
  std::size_t width = 0;
  for (const CounterexampleStep& s : cx.steps) width = std::max(width, s.text.size());
  for (std::size_t i = 0; i < cx.steps.size(); ++i) {
    fmt::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, cx.steps[i].text, width, cx.steps[i].comment);
  }
}

// Writes the counterexample when asked; returns false (after saying why) when it cannot.
bool write(const Counterexample& cx, const SearchCommandOptions& o, std::ostream& out,
           std::ostream& err, Json& doc) {
  if (o.out_dir.empty()) {
    fmt::print(out, "write it   add --out DIR to write it as a counterexample file\n");
    return true;
  }
  std::string error;
  const auto path = write_counterexample(cx, o.out_dir, error);
  if (!path) {
    fmt::print(err, "preemptcheck search: {}\n", error);
    return false;
  }
  doc["counterexample"] = *path;
  fmt::print(out, "counterexample {}\n", *path);
  fmt::print(out, "replay     preemptcheck replay {}\n", *path);
  return true;
}

// A found and shrunk violation for --json: the property, its message, the others broken at
// the same step, the sizes before and after shrinking, the schedule and where it was written.
Json violation_json(const Counterexample& cx, const std::string& found_cluster,
                    std::size_t found_steps, const std::string& shrunk_cluster,
                    std::size_t shrunk_steps) {
  Json also = Json::array();
  for (const auto& m : cx.also) also.push_back({{"property", m.name}, {"message", m.message}});
  Json steps = Json::array();
  for (const CounterexampleStep& s : cx.steps) {
    steps.push_back({{"action", s.text}, {"comment", s.comment}});
  }
  return {{"property", cx.property},
          {"message", cx.message},
          {"also", std::move(also)},
          {"found", {{"cluster", found_cluster}, {"steps", found_steps}}},
          {"shrunk", {{"cluster", shrunk_cluster}, {"steps", shrunk_steps}}},
          {"steps", std::move(steps)}};
}

Json search_stats(const SearchResult& r) {
  return {{"clusters", r.clusters}, {"distinct", r.distinct}, {"cut", r.cut},
          {"states", r.states},     {"transitions", r.transitions}, {"seconds", r.seconds}};
}

int run_exhaustive(const SearchCommandOptions& o, const Scenario& base, std::uint64_t seed,
                   std::ostream& out, std::ostream& err, Json& doc) {
  std::string error;
  SearchOptions s = *to_search_options(o, seed, error);  // the choice was checked already
  Progress progress(err);
  s.progress = [&](const SearchProgress& p) {
    if (p.shrinking) {
      progress.line(p.seconds, fmt::format("shrinking: {} of {} shrinks kept", p.shrinks_accepted,
                                           p.shrinks_tried));
    } else {
      progress.line(p.seconds, fmt::format("{}/{} clusters, {} cut, {} states", p.clusters,
                                           o.runs, p.cut, p.states));
    }
  };
  fmt::print(out, "search     seed {}, {} of at most {} and {}, at most {} each\n", seed,
             plural(static_cast<std::uint64_t>(o.runs), "cluster"),
             plural(static_cast<std::uint64_t>(s.bounds.max_nodes), "node"),
             plural(static_cast<std::uint64_t>(s.bounds.max_pods()), "pod"),
             plural(o.max_states, "state"));
  fmt::print(out, "mechanisms {} (profile {})\n", describe(base.mechanisms), base.profile);
  fmt::print(out, "properties {}\n", checked_names(o.checked));
  if (s.baseline) {
    fmt::print(out, "differential a cluster fails only if profile {} alone ({}) holds on it\n",
               s.baseline_profile, describe(*s.baseline));
  }
  out.flush();
  s.distributed = true;
  const SearchResult r = run_search(s);
  if (!r.lead) return kExitHolds;  // this rank's status is rank 0's (run_search_command)
  if (r.ranks > 1) {
    fmt::print(err,
               "preemptcheck search: note: {} ranks explored the first {} generated clusters; "
               "rank 0 explored {} of them again\n",
               r.ranks, r.shared_cases, r.explored_again);
  }
  const std::string command = search_command_line(o, seed);
  const std::string cut =
      r.cut == 0 ? std::string()
                 : fmt::format("; {} more {} cut by the limit of {} and not counted", r.cut,
                               r.cut == 1 ? "cluster was" : "clusters were",
                               plural(o.max_states, "state"));
  switch (r.outcome) {
    case SearchResult::Outcome::kHolds:
      if (o.differential) {
        fmt::print(out,
                   "result     no difference in {} ({} distinct): {} hold under both, {} violate "
                   "under profile {} alone as well; {} states, {} transitions{}; {:.2f} s\n",
                   plural(static_cast<std::uint64_t>(r.clusters), "cluster"), r.distinct,
                   r.clusters - r.baseline_violated, r.baseline_violated, s.baseline_profile,
                   r.states, r.transitions, cut, r.seconds);
      } else {
        fmt::print(out,
                   "result     no violation in {} ({} distinct) and all of their schedules, "
                   "explored exhaustively: {} states, {} transitions{}; {:.2f} s\n",
                   plural(static_cast<std::uint64_t>(r.clusters), "cluster"), r.distinct,
                   r.states, r.transitions, cut, r.seconds);
      }
      fmt::print(out, "reproduce  {}\n(exit 0)\n", command);
      doc["outcome"] = "holds";
      doc["stats"] = search_stats(r);
      return kExitHolds;
    case SearchResult::Outcome::kGaveUp:
      fmt::print(out,
                 "result     INCOMPLETE: only {} of the {} clusters asked for {} explored "
                 "completely{}; {} more were cut by the limit of {} and RapidCheck gave up "
                 "(raise --max-states or lower --max-pods); {:.2f} s\n",
                 r.clusters, o.runs, r.clusters == 1 ? "was" : "were",
                 r.clusters == 0 ? "" : r.clusters == 1 ? " (no violation in it)"
                                                         : " (no violation in them)",
                 r.cut, plural(o.max_states, "state"), r.seconds);
      fmt::print(out, "reproduce  {}\n(exit 3)\n", command);
      doc["outcome"] = "limit-reached";
      doc["stats"] = search_stats(r);
      return kExitLimit;
    case SearchResult::Outcome::kError:
      fmt::print(err, "preemptcheck search: RapidCheck reported an error: {}\n", r.message);
      return kExitBadInput;
    case SearchResult::Outcome::kViolated:
      break;
  }
  const FailingCluster& found = *r.found;
  const FailingCluster& shrunk = *r.shrunk;
  const auto& v = *shrunk.result.violation;
  fmt::print(out, "found      {} in cluster {} (after {} without): {}, shortest schedule {}\n",
             found.result.violation->name, r.clusters + 1, r.clusters,
             cluster_size(found.scenario), plural(found.steps(), "step"));
  fmt::print(out, "shrunk     to {}, shortest schedule {} ({} of {} shrinks kept)\n",
             cluster_size(shrunk.scenario), plural(shrunk.steps(), "step"), r.shrinks_accepted,
             r.shrinks_tried);
  fmt::print(out, "VIOLATED   {}: {}\n", v.name, v.message);
  for (const auto& m : v.also_violated) fmt::print(out, "  also     {}: {}\n", m.name, m.message);
  if (shrunk.baseline) {
    fmt::print(out, "baseline   profile {} alone holds on this cluster: {} states, {} transitions\n",
               s.baseline_profile, shrunk.baseline->states, shrunk.baseline->transitions);
  }
  fmt::print(out, "cluster\n");
  print_scenario(shrunk.scenario, out);
  fmt::print(out, "schedule   (breadth-first, shortest for this cluster)\n");
  const Counterexample cx = search_counterexample(found, shrunk, o.checked, seed, command);
  print_steps(cx, out);
  if (!write(cx, o, out, err, doc)) return kExitBadInput;
  doc["outcome"] = "violated";
  doc["stats"] = search_stats(r);
  doc["violation"] = violation_json(cx, cluster_size(found.scenario), found.steps(),
                                    cluster_size(shrunk.scenario), shrunk.steps());
  fmt::print(out, "reproduce  {}\n(exit 1)\n", command);
  return kExitViolated;
}

int run_stateful_search(const SearchCommandOptions& o, const Scenario& base, std::uint64_t seed,
                        std::ostream& out, std::ostream& err, Json& doc) {
  std::string error;
  StatefulOptions s = *to_stateful_options(o, seed, error);  // the choice was checked already
  Progress progress(err);
  s.progress = [&](const StatefulProgress& p) {
    if (p.shrinking) {
      progress.line(p.seconds, fmt::format("shrinking: {} of {} shrinks kept", p.shrinks_accepted,
                                           p.shrinks_tried));
    } else {
      progress.line(p.seconds, fmt::format("{}/{} runs, {} steps", p.runs, o.runs, p.steps));
    }
  };
  fmt::print(out,
             "search     stateful, seed {}, {} of at most {} random steps on clusters of {}-{} "
             "nodes and {}-{} pods\n",
             seed, plural(static_cast<std::uint64_t>(o.runs), "run"), o.max_steps,
             s.bounds.min_nodes, s.bounds.max_nodes, s.bounds.min_running + s.bounds.min_pending,
             s.bounds.max_pods());
  fmt::print(out, "mechanisms {} (profile {})\n", describe(base.mechanisms), base.profile);
  fmt::print(out, "properties {}\n", checked_names(o.checked));
  out.flush();
  const StatefulResult r = run_stateful(s);
  const std::string command = search_command_line(o, seed);
  switch (r.outcome) {
    case StatefulResult::Outcome::kHolds:
      fmt::print(out, "result     no violation in {}, {}; {:.2f} s\nreproduce  {}\n(exit 0)\n",
                 plural(static_cast<std::uint64_t>(r.runs), "random run"),
                 plural(r.steps, "step"), r.seconds, command);
      doc["outcome"] = "holds";
      doc["stats"] = {{"runs", r.runs}, {"steps", r.steps}, {"seconds", r.seconds}};
      return kExitHolds;
    case StatefulResult::Outcome::kGaveUp:
    case StatefulResult::Outcome::kError:
      fmt::print(err, "preemptcheck search: RapidCheck reported an error: {}\n", r.message);
      return kExitBadInput;
    case StatefulResult::Outcome::kViolated:
      break;
  }
  const BrokenSchedule& found = *r.found;
  const BrokenSchedule& shrunk = *r.shrunk;
  const BrokenSchedule& reduced = *r.reduced;
  fmt::print(out, "found      {} in run {} (after {} without): {}\n", found.property, r.runs + 1,
             r.runs, figures(found.scenario, found.steps.size()));
  fmt::print(out, "shrunk     to {} ({} of {} shrinks kept)\n",
             figures(shrunk.scenario, shrunk.steps.size()), r.shrinks_accepted, r.shrinks_tried);
  fmt::print(out, "reduced    to {} (steps, pods and nodes it does not need removed)\n",
             figures(reduced.scenario, reduced.steps.size()));
  const auto bfs = shortest_on_cluster(reduced, o.max_states);
  if (bfs.violation) {
    fmt::print(out, "shortest   {} breaks {} in {} on this cluster (breadth-first)\n",
               plural(bfs.stats.states, "state"), reduced.property,
               plural(bfs.violation->path.size(), "step"));
  } else {
    fmt::print(out, "shortest   breadth-first search ended without it ({})\n",
               std::string(checker::outcome_name(bfs.outcome)));
  }
  fmt::print(out, "VIOLATED   {}: {}\n", reduced.property, reduced.message);
  for (const auto& [name, message] : reduced.also) {
    fmt::print(out, "  also     {}: {}\n", name, message);
  }
  fmt::print(out, "cluster\n");
  print_scenario(reduced.scenario, out);
  fmt::print(out, "schedule   (random, shrunk)\n");
  const Counterexample cx = stateful_counterexample(found, reduced, o.checked, seed, command);
  print_steps(cx, out);
  if (!write(cx, o, out, err, doc)) return kExitBadInput;
  doc["outcome"] = "violated";
  doc["stats"] = {{"runs", r.runs}, {"steps", r.steps}, {"seconds", r.seconds}};
  doc["violation"] = violation_json(cx, cluster_size(found.scenario), found.steps.size(),
                                    cluster_size(reduced.scenario), reduced.steps.size());
  fmt::print(out, "reproduce  {}\n(exit 1)\n", command);
  return kExitViolated;
}

}  // namespace

std::string search_command_line(const SearchCommandOptions& o, std::uint64_t seed) {
  std::string out = fmt::format("preemptcheck search --seed {} --runs {}", seed, o.runs);
  if (o.stateful) {
    out += fmt::format(" --stateful --max-steps {}", o.max_steps);
  } else {
    out += fmt::format(" --max-nodes {} --max-pods {}", o.max_nodes, o.max_pods);
  }
  if (o.max_faults != 1) out += fmt::format(" --max-faults {}", o.max_faults);
  if (o.differential) out += " --differential";
  if (o.max_states != kDefaultClusterMaxStates) out += fmt::format(" --max-states {}", o.max_states);
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

std::optional<SearchOptions> to_search_options(const SearchCommandOptions& o, std::uint64_t seed,
                                               std::string& error) {
  Scenario base;  // only its profile and mechanisms are used
  if (auto e = apply_choice(base, o.mechanisms)) {
    error = *e;
    return std::nullopt;
  }
  SearchOptions s;
  s.seed = seed;
  s.runs = o.runs;
  s.bounds = ClusterBounds::limited(o.max_nodes, o.max_pods);
  s.bounds.max_eviction_failures = o.max_faults;
  s.bounds.max_binding_failures = o.max_faults;
  s.profile = base.profile;
  s.mechanisms = base.mechanisms;
  s.checked = o.checked;
  s.max_states = o.max_states;
  s.threads = effective_threads(o.threads);
  if (o.differential) {
    Scenario alone;
    MechanismChoice choice;
    choice.profile = o.mechanisms.profile;
    apply_choice(alone, choice);  // checked above
    s.baseline = alone.mechanisms;
    s.baseline_profile = alone.profile;
  }
  return s;
}

std::optional<StatefulOptions> to_stateful_options(const SearchCommandOptions& o,
                                                   std::uint64_t seed, std::string& error) {
  Scenario base;
  if (auto e = apply_choice(base, o.mechanisms)) {
    error = *e;
    return std::nullopt;
  }
  StatefulOptions s;
  s.seed = seed;
  s.runs = o.runs;
  s.bounds = ClusterBounds::large();
  s.bounds.max_eviction_failures = o.max_faults;
  s.bounds.max_binding_failures = o.max_faults;
  s.profile = base.profile;
  s.mechanisms = base.mechanisms;
  s.checked = o.checked;
  s.max_steps = o.max_steps;
  return s;
}

namespace {

// The command on this process; `seed` is the one given or drawn on rank 0.
int run_search_here(const SearchCommandOptions& o, std::uint64_t seed, std::ostream& out,
                    std::ostream& err) {
  Scenario base;  // only its profile and mechanisms are used
  std::vector<std::string> notes;
  if (auto error = apply_choice(base, o.mechanisms, &notes)) {
    fmt::print(err, "preemptcheck search: {}\n", *error);
    return kExitBadInput;
  }
  print_notes(notes, "search", err);
  if (o.stateful && checker::mpi::size() > 1) {
    if (!checker::mpi::is_lead_rank()) return kExitHolds;  // rank 0's status follows
    fmt::print(err, "preemptcheck search: note: --stateful is not distributed; rank 0 of {} "
                    "runs it alone\n", checker::mpi::size());
  }
  Json doc = json_document("search");
  doc["mode"] = o.stateful ? "stateful" : "exhaustive";
  doc["seed"] = seed;
  doc["reproduce"] = search_command_line(o, seed);
  doc["profile"] = base.profile;
  doc["mechanisms"] = describe(base.mechanisms);
  doc["properties"] = checked_names(o.checked);
  std::ostringstream text;  // under --json the text is not printed
  std::ostream& shown = o.json ? text : out;
  const int rc = o.stateful ? run_stateful_search(o, base, seed, shown, err, doc)
                            : run_exhaustive(o, base, seed, shown, err, doc);
  if (o.json && rc != kExitBadInput) {
    doc["exit_code"] = rc;
    write_json(doc, out);
  }
  return rc;
}

}  // namespace

int run_search_command(const SearchCommandOptions& o, std::ostream& out, std::ostream& err) {
  if (checker::mpi::init_if_launched() == 1) {
    return run_search_here(o, o.seed.value_or(random_seed()), out, err);
  }
  // Distributed: every rank searches with rank 0's seed; only rank 0 prints.
  const bool lead = checker::mpi::is_lead_rank();
  const auto drawn = static_cast<int>(static_cast<std::uint32_t>(random_seed()));
  const std::uint64_t seed =
      o.seed.value_or(static_cast<std::uint32_t>(checker::mpi::from_lead_rank(drawn)));
  std::ostream silent(nullptr);
  int rc = kExitBadInput;
  try {
    rc = run_search_here(o, seed, lead ? out : silent, lead ? err : silent);
  } catch (const checker::RankFailure& e) {
    // Raised on every rank alike, so no rank waits for the others' status.
    if (lead) fmt::print(err, "preemptcheck search: {}\n", e.what());
    return kExitBadInput;
  }
  return checker::mpi::from_lead_rank(rc);
}

}  // namespace preemptcheck::cli
