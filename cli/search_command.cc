// The `search` command: parse, run the RapidCheck search, print what it found and shrank.
// Under mpirun the exhaustive search spreads its clusters over the ranks (properties/search.cc
// says how); rank 0 alone prints and writes, and every rank exits with rank 0's status.
#include "cli/search_command.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <ostream>
#include <sstream>

#include "checker/explore_failure.h"
#include "cli/common.h"
#include "cli/interrupt_signals.h"
#include "files/output_file.h"
#include "files/scenario_yaml.h"
#include "properties/check_request.h"
#include "properties/ranks.h"
#include "properties/rapidcheck_run.h"
#include "properties/schedule.h"
#include "report/print.h"
#include "report/search_report.h"

namespace preemptcheck::cli {
namespace {

using report::Json;

// Writes the counterexample when asked; returns false (after saying why) when it cannot.
bool write(const Counterexample& cx, const SearchCommandOptions& o, std::ostream& out,
           std::ostream& err, Json& doc) {
  std::string path;
  if (!o.out_dir.empty()) {
    std::string error;
    bool replaced = false;
    const auto written = write_counterexample(cx, o.out_dir, error, &replaced);
    if (!written) {
      report::print(err, "preemptcheck search: {}\n", error);
      return false;
    }
    if (replaced)
      warn_replaced(*written, err);
    path = *written;
  }
  report::print_written(path, out, doc);
  return true;
}

// The signal that stopped the search: "SIGINT", "SIGTERM".
std::string signal_name(const std::atomic<int>* interrupt) {
  return InterruptSignals::signal_name(interrupt != nullptr ? interrupt->load() : 0);
}

// A violation found before a signal stopped the search: it stands, shrunk as far as it got.
void interrupted_note(const std::atomic<int>* interrupt, std::ostream& out, Json& doc) {
  report::print(out,
                "interrupted {} stopped the search while shrinking: the cluster above is the "
                "smallest it reached\n",
                signal_name(interrupt));
  doc["interrupted"] = signal_name(interrupt);
}

int run_exhaustive(const SearchCommandOptions& o, std::uint64_t seed, std::ostream& out,
                   std::ostream& err, Json& doc) {
  std::string error;
  SearchOptions s = *to_search_options(o, seed, error);  // the choice was checked already
  // SIGINT and SIGTERM stop the search after the cluster under way, with what it found.
  const InterruptSignals signals;
  s.interrupt = signals.flag();
  s.progress = report::search_progress(o.runs, err);
  report::print_search_head(s, out);
  out.flush();
  s.distributed = true;
  const SearchResult r = run_search(s);
  if (!r.lead)
    return kExitHolds;  // this rank's status is rank 0's (run_search_command)
  if (r.ranks > 1) {
    report::print(err,
                  "preemptcheck search: note: {} ranks explored the first {} generated clusters; "
                  "rank 0 explored {} of them again\n",
                  r.ranks, r.shared_cases, r.explored_again);
  }
  const std::string command = search_command_line(o, seed);
  switch (r.outcome) {
    case SearchResult::Outcome::kInterrupted:
      report::print_interrupted_end(
          signal_name(s.interrupt),
          fmt::format("{} cluster{} ({} distinct) explored completely without a violation: {} "
                      "states, {} transitions; {:.2f} s",
                      r.clusters, r.clusters == 1 ? "" : "s", r.distinct, r.states, r.transitions,
                      r.seconds),
          report::search_stats(r), command, out, doc);
      return kExitLimit;
    case SearchResult::Outcome::kHolds:
      report::print_search_end(s, r, command, out, doc);
      return kExitHolds;
    case SearchResult::Outcome::kGaveUp:
      report::print_search_end(s, r, command, out, doc);
      return kExitLimit;
    case SearchResult::Outcome::kError:
      report::print(err, "preemptcheck search: RapidCheck reported an error: {}\n", r.message);
      return kExitBadInput;
    case SearchResult::Outcome::kViolated:
      break;
  }
  const Counterexample cx = search_counterexample(*r.found, *r.shrunk, o.checked, seed, command);
  report::print_search_violation(s, r, cx, out);
  if (r.interrupted)
    interrupted_note(s.interrupt, out, doc);
  if (!write(cx, o, out, err, doc))
    return kExitBadInput;
  report::print_violation_end(cx, r.found->scenario, r.found->steps(), r.shrunk->scenario,
                              r.shrunk->steps(), report::search_stats(r), command, out, doc);
  return kExitViolated;
}

int run_stateful_search(const SearchCommandOptions& o, std::uint64_t seed, std::ostream& out,
                        std::ostream& err, Json& doc) {
  std::string error;
  StatefulOptions s = *to_stateful_options(o, seed, error);  // the choice was checked already
  const InterruptSignals signals;
  s.interrupt = signals.flag();
  s.progress = report::stateful_progress(o.runs, err);
  report::print_stateful_head(s, out);
  out.flush();
  const StatefulResult r = run_stateful(s);
  const std::string command = search_command_line(o, seed);
  switch (r.outcome) {
    case StatefulResult::Outcome::kInterrupted:
      report::print_interrupted_end(
          signal_name(s.interrupt),
          fmt::format("{} random run{} without a violation, {} steps; {:.2f} s", r.runs,
                      r.runs == 1 ? "" : "s", r.steps, r.seconds),
          report::stateful_stats(r), command, out, doc);
      return kExitLimit;
    case StatefulResult::Outcome::kHolds:
      report::print_stateful_end(r, command, out, doc);
      return kExitHolds;
    case StatefulResult::Outcome::kGaveUp:
    case StatefulResult::Outcome::kError:
      report::print(err, "preemptcheck search: RapidCheck reported an error: {}\n", r.message);
      return kExitBadInput;
    case StatefulResult::Outcome::kViolated:
      break;
  }
  const Counterexample cx = stateful_counterexample(*r.found, *r.reduced, o.checked, seed, command);
  report::print_stateful_violation(r, shortest_on_cluster(*r.reduced, o.max_states), cx, out);
  if (r.interrupted)
    interrupted_note(s.interrupt, out, doc);
  if (!write(cx, o, out, err, doc))
    return kExitBadInput;
  report::print_violation_end(cx, r.found->scenario, r.found->steps.size(), r.reduced->scenario,
                              r.reduced->steps.size(), report::stateful_stats(r), command, out,
                              doc);
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
  if (o.max_faults != 1)
    out += fmt::format(" --max-faults {}", o.max_faults);
  if (o.differential)
    out += " --differential";
  if (o.max_states != kDefaultClusterMaxStates)
    out += fmt::format(" --max-states {}", o.max_states);
  if (o.mechanisms.profile)
    out += " --profile " + *o.mechanisms.profile;
  for (const auto& [name, value] : o.mechanisms.switches)
    out += fmt::format(" --{}={}", name, value);
  if (!o.checked.all()) {
    for (const spec::PropertyDef& d : spec::property_table()) {
      if (!d.is_witness && o.checked.test(static_cast<size_t>(d.id))) {
        out += fmt::format(" --property {}", d.name);
      }
    }
  }
  // The directory as recorded_path() gives it: the line is written into the counterexample
  // (and its scenario's description), which must not depend on the machine.
  if (!o.out_dir.empty())
    out += " --out " + recorded_path(o.out_dir);
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
int run_search_here(const SearchCommandOptions& o, std::uint64_t seed, const Ranks& ranks,
                    std::ostream& out, std::ostream& err) {
  Scenario base;  // only its profile and mechanisms are used
  if (!choose_mechanisms(base, o.mechanisms, "search", "preemptcheck search", err))
    return kExitBadInput;
  if (o.stateful && ranks.distributed()) {
    if (!ranks.is_lead())
      return kExitHolds;  // rank 0's status follows
    report::print(err,
                  "preemptcheck search: note: --stateful is not distributed; rank 0 of {} "
                  "runs it alone\n",
                  ranks.size());
  }
  Json doc =
      report::search_document(o.stateful, seed, search_command_line(o, seed), base, o.checked);
  std::ostringstream text;  // under --json the text is not printed
  std::ostream& shown = o.json ? text : out;
  const int rc = o.stateful ? run_stateful_search(o, seed, shown, err, doc)
                            : run_exhaustive(o, seed, shown, err, doc);
  if (o.json && rc != kExitBadInput) {
    doc["exit_code"] = rc;
    report::write_json(doc, out);
  }
  return rc;
}

}  // namespace

int run_search_command(const SearchCommandOptions& o, std::ostream& out, std::ostream& err) {
  const Ranks ranks = Ranks::of_this_process();
  if (!ranks.distributed())
    return run_search_here(o, o.seed.value_or(random_seed()), ranks, out, err);
  // Distributed: every rank searches with rank 0's seed; only rank 0 prints. The ranks settle
  // the generated clusters together, so one cannot stop alone at a safe point: a signal ends
  // the run as it did before (the launcher passes it on).
  InterruptSignals::give_back();
  const bool lead = ranks.is_lead();
  const auto drawn = static_cast<int>(static_cast<std::uint32_t>(random_seed()));
  const std::uint64_t seed = o.seed.value_or(static_cast<std::uint32_t>(ranks.from_lead(drawn)));
  std::ostream silent(nullptr);
  int rc = kExitBadInput;
  try {
    rc = run_search_here(o, seed, ranks, lead ? out : silent, lead ? err : silent);
  } catch (const checker::RankFailure& e) {
    // Raised on every rank alike, so no rank waits for the others' status.
    if (lead)
      report::print(err, "preemptcheck search: {}\n", e.what());
    return kExitBadInput;
  }
  return ranks.from_lead(rc);
}

}  // namespace preemptcheck::cli
