// The words and the JSON of a `search` result.
#include "report/search_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>

#include "files/scenario_yaml.h"
#include "properties/generators.h"
#include "properties/search_counterexample.h"
#include "report/print.h"

namespace preemptcheck::report {
namespace {

std::string plural(std::uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Prints at most one progress line a second, on `err`.
class Progress {
 public:
  explicit Progress(std::ostream& err) : err_(err) {}

  void line(double seconds, const std::string& text) {
    if (seconds < next_)
      return;
    next_ = seconds + 1.0;
    report::print(err_, "progress   {}, {:.1f} s\n", text, seconds);
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
    report::print(out, "  {}\n", line);
  }
}

// The schedule as the counterexample holds it: each step's text and comment come from its
// replay (properties/schedule.h).
void print_steps(const Counterexample& cx, std::ostream& out) {
  std::size_t width = 0;
  for (const CounterexampleStep& s : cx.steps)
    width = std::max(width, s.text.size());
  for (std::size_t i = 0; i < cx.steps.size(); ++i) {
    report::print(out, "  {:>2}. {:<{}}  # {}\n", i + 1, cx.steps[i].text, width,
                  cx.steps[i].comment);
  }
}

// A found and shrunk violation for --json: the property, its message, the others broken at
// the same step, the sizes before and after shrinking, the schedule and where it was written.
Json violation_json(const Counterexample& cx, const std::string& found_cluster,
                    std::size_t found_steps, const std::string& shrunk_cluster,
                    std::size_t shrunk_steps) {
  Json also = Json::array();
  for (const auto& m : cx.also)
    also.push_back({{"property", m.name}, {"message", m.message}});
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

}  // namespace

Json search_document(bool stateful, std::uint64_t seed, std::string_view reproduce,
                     const Scenario& base, const std::bitset<spec::kPropertyCount>& checked) {
  Json doc = json_document("search");
  doc["mode"] = stateful ? "stateful" : "exhaustive";
  doc["seed"] = seed;
  doc["reproduce"] = reproduce;
  doc["profile"] = base.profile;
  doc["mechanisms"] = mechanisms_json(base.mechanisms);
  doc["properties"] = checked_names(checked);
  return doc;
}

std::function<void(const SearchProgress&)> search_progress(int runs, std::ostream& err) {
  auto progress = std::make_shared<Progress>(err);
  return [progress, runs](const SearchProgress& p) {
    if (p.shrinking) {
      progress->line(p.seconds, fmt::format("shrinking: {} of {} shrinks kept", p.shrinks_accepted,
                                            p.shrinks_tried));
    } else {
      progress->line(p.seconds, fmt::format("{}/{} clusters, {} cut, {} states", p.clusters, runs,
                                            p.cut, p.states));
    }
  };
}

std::function<void(const StatefulProgress&)> stateful_progress(int runs, std::ostream& err) {
  auto progress = std::make_shared<Progress>(err);
  return [progress, runs](const StatefulProgress& p) {
    if (p.shrinking) {
      progress->line(p.seconds, fmt::format("shrinking: {} of {} shrinks kept", p.shrinks_accepted,
                                            p.shrinks_tried));
    } else {
      progress->line(p.seconds, fmt::format("{}/{} runs, {} steps", p.runs, runs, p.steps));
    }
  };
}

void print_search_head(const SearchOptions& s, std::ostream& out) {
  report::print(out, "search     seed {}, {} of at most {} and {}, at most {} each\n", s.seed,
                plural(static_cast<std::uint64_t>(s.runs), "cluster"),
                plural(static_cast<std::uint64_t>(s.bounds.max_nodes), "node"),
                plural(static_cast<std::uint64_t>(s.bounds.max_pods()), "pod"),
                plural(s.max_states, "state"));
  report::print(out, "mechanisms {} (profile {})\n", describe(s.mechanisms), s.profile);
  report::print(out, "properties {}\n", checked_names(s.checked));
  if (s.baseline) {
    report::print(out, "differential a cluster fails only if profile {} alone ({}) holds on it\n",
                  s.baseline_profile, describe(*s.baseline));
  }
}

void print_stateful_head(const StatefulOptions& s, std::ostream& out) {
  report::print(out,
                "search     stateful, seed {}, {} of at most {} random steps on clusters of {}-{} "
                "nodes and {}-{} pods\n",
                s.seed, plural(static_cast<std::uint64_t>(s.runs), "run"), s.max_steps,
                s.bounds.min_nodes, s.bounds.max_nodes, s.bounds.min_running + s.bounds.min_pending,
                s.bounds.max_pods());
  report::print(out, "mechanisms {} (profile {})\n", describe(s.mechanisms), s.profile);
  report::print(out, "properties {}\n", checked_names(s.checked));
}

Json search_stats(const SearchResult& r) {
  return {{"clusters", r.clusters}, {"distinct", r.distinct},       {"cut", r.cut},
          {"states", r.states},     {"transitions", r.transitions}, {"seconds", r.seconds}};
}

Json stateful_stats(const StatefulResult& r) {
  return {{"runs", r.runs}, {"steps", r.steps}, {"seconds", r.seconds}};
}

void print_search_end(const SearchOptions& s, const SearchResult& r, std::string_view command,
                      std::ostream& out, Json& doc) {
  const std::string cut = r.cut == 0
                              ? std::string()
                              : fmt::format("; {} more {} cut by the limit of {} and not counted",
                                            r.cut, r.cut == 1 ? "cluster was" : "clusters were",
                                            plural(s.max_states, "state"));
  if (r.outcome == SearchResult::Outcome::kGaveUp) {
    report::print(out,
                  "result     INCOMPLETE: only {} of the {} clusters asked for {} explored "
                  "completely{}; {} more were cut by the limit of {} and RapidCheck gave up "
                  "(raise --max-states or lower --max-pods); {:.2f} s\n",
                  r.clusters, s.runs, r.clusters == 1 ? "was" : "were",
                  r.clusters == 0   ? ""
                  : r.clusters == 1 ? " (no violation in it)"
                                    : " (no violation in them)",
                  r.cut, plural(s.max_states, "state"), r.seconds);
    report::print(out, "reproduce  {}\n(exit 3)\n", command);
    doc["outcome"] = "limit-reached";
    doc["stats"] = search_stats(r);
    return;
  }
  if (s.baseline) {
    report::print(out,
                  "result     no difference in {} ({} distinct): {} hold under both, {} violate "
                  "under profile {} alone as well; {} states, {} transitions{}; {:.2f} s\n",
                  plural(static_cast<std::uint64_t>(r.clusters), "cluster"), r.distinct,
                  r.clusters - r.baseline_violated, r.baseline_violated, s.baseline_profile,
                  r.states, r.transitions, cut, r.seconds);
  } else {
    report::print(out,
                  "result     no violation in {} ({} distinct) and all of their schedules, "
                  "explored exhaustively: {} states, {} transitions{}; {:.2f} s\n",
                  plural(static_cast<std::uint64_t>(r.clusters), "cluster"), r.distinct, r.states,
                  r.transitions, cut, r.seconds);
  }
  report::print(out, "reproduce  {}\n(exit 0)\n", command);
  doc["outcome"] = "holds";
  doc["stats"] = search_stats(r);
}

void print_search_violation(const SearchOptions& s, const SearchResult& r, const Counterexample& cx,
                            std::ostream& out) {
  const FailingCluster& found = *r.found;
  const FailingCluster& shrunk = *r.shrunk;
  const auto& v = *shrunk.result.violation;
  report::print(out, "found      {} in cluster {} (after {} without): {}, shortest schedule {}\n",
                found.result.violation->name, r.clusters + 1, r.clusters,
                cluster_size(found.scenario), plural(found.steps(), "step"));
  report::print(out, "shrunk     to {}, shortest schedule {} ({} of {} shrinks kept)\n",
                cluster_size(shrunk.scenario), plural(shrunk.steps(), "step"), r.shrinks_accepted,
                r.shrinks_tried);
  report::print(out, "VIOLATED   {}: {}\n", v.name, v.message);
  for (const auto& m : v.also_violated)
    report::print(out, "  also     {}: {}\n", m.name, m.message);
  if (shrunk.baseline) {
    report::print(out,
                  "baseline   profile {} alone holds on this cluster: {} states, {} transitions\n",
                  s.baseline_profile, shrunk.baseline->states, shrunk.baseline->transitions);
  }
  report::print(out, "cluster\n");
  print_scenario(shrunk.scenario, out);
  report::print(out, "schedule   (breadth-first, shortest for this cluster)\n");
  print_steps(cx, out);
}

void print_stateful_end(const StatefulResult& r, std::string_view command, std::ostream& out,
                        Json& doc) {
  report::print(out, "result     no violation in {}, {}; {:.2f} s\nreproduce  {}\n(exit 0)\n",
                plural(static_cast<std::uint64_t>(r.runs), "random run"), plural(r.steps, "step"),
                r.seconds, command);
  doc["outcome"] = "holds";
  doc["stats"] = stateful_stats(r);
}

void print_stateful_violation(const StatefulResult& r, const checker::Result<Action>& shortest,
                              const Counterexample& cx, std::ostream& out) {
  const BrokenSchedule& found = *r.found;
  const BrokenSchedule& shrunk = *r.shrunk;
  const BrokenSchedule& reduced = *r.reduced;
  report::print(out, "found      {} in run {} (after {} without): {}\n", found.property, r.runs + 1,
                r.runs, figures(found.scenario, found.steps.size()));
  report::print(out, "shrunk     to {} ({} of {} shrinks kept)\n",
                figures(shrunk.scenario, shrunk.steps.size()), r.shrinks_accepted, r.shrinks_tried);
  report::print(out, "reduced    to {} (steps, pods and nodes it does not need removed)\n",
                figures(reduced.scenario, reduced.steps.size()));
  if (shortest.violation) {
    report::print(out, "shortest   {} breaks {} in {} on this cluster (breadth-first)\n",
                  plural(shortest.stats.states, "state"), reduced.property,
                  plural(shortest.violation->path.size(), "step"));
  } else {
    report::print(out, "shortest   breadth-first search ended without it ({})\n",
                  std::string(checker::outcome_name(shortest.outcome)));
  }
  report::print(out, "VIOLATED   {}: {}\n", reduced.property, reduced.message);
  for (const auto& [name, message] : reduced.also) {
    report::print(out, "  also     {}: {}\n", name, message);
  }
  report::print(out, "cluster\n");
  print_scenario(reduced.scenario, out);
  report::print(out, "schedule   (random, shrunk)\n");
  print_steps(cx, out);
}

void print_written(std::string_view path, std::ostream& out, Json& doc) {
  if (path.empty()) {
    report::print(out, "write it   add --out DIR to write it as a counterexample file\n");
    return;
  }
  doc["counterexample"] = path;
  report::print(out, "counterexample {}\n", path);
  report::print(out, "replay     preemptcheck replay {}\n", path);
}

void print_interrupted_end(std::string_view signal, std::string_view explored, Json stats,
                           std::string_view command, std::ostream& out, Json& doc) {
  report::print(out,
                "result     interrupted: nothing is proven; the search stopped at {} after {}\n"
                "reproduce  {}\n(exit 3)\n",
                signal, explored, command);
  doc["outcome"] = "interrupted";
  doc["interrupted"] = signal;
  doc["stats"] = std::move(stats);
}

void print_violation_end(const Counterexample& cx, const Scenario& found, std::size_t found_steps,
                         const Scenario& shrunk, std::size_t shrunk_steps, Json stats,
                         std::string_view command, std::ostream& out, Json& doc) {
  doc["outcome"] = "violated";
  doc["stats"] = std::move(stats);
  doc["violation"] =
      violation_json(cx, cluster_size(found), found_steps, cluster_size(shrunk), shrunk_steps);
  report::print(out, "reproduce  {}\n(exit 1)\n", command);
}

}  // namespace preemptcheck::report
