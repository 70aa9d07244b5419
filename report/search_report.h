// The words and the JSON of a `search` result: the lines before a search runs, the throttled
// progress line, the verdict of a search that found nothing or gave up, and a found, shrunk
// violation with its cluster and schedule. The command runs the search and writes the
// counterexample file; this renders them.
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "checker/explore_types.h"
#include "files/counterexample_yaml.h"
#include "impl/scenario.h"
#include "properties/search.h"
#include "properties/stateful.h"
#include "report/json.h"
#include "spec/property.h"

namespace preemptcheck::report {

/// The head of the `search --json` document: mode, seed, the command that repeats the search,
/// the profile and mechanisms of `base`, the checked properties.
Json search_document(bool stateful, std::uint64_t seed, std::string_view reproduce,
                     const Scenario& base, const std::bitset<spec::kPropertyCount>& checked);

/// A progress callback that prints at most one line a second on `err`: clusters explored of
/// `runs`, or the shrinks kept while shrinking.
std::function<void(const SearchProgress&)> search_progress(int runs, std::ostream& err);

/// Likewise for a stateful search: runs of `runs` and steps taken.
std::function<void(const StatefulProgress&)> stateful_progress(int runs, std::ostream& err);

/// The lines before an exhaustive search: seed, cluster bounds, state limit, mechanisms,
/// properties and, with a baseline, the differential rule.
void print_search_head(const SearchOptions& s, std::ostream& out);

/// The lines before a stateful search: seed, runs, steps, cluster bounds, mechanisms,
/// properties.
void print_stateful_head(const StatefulOptions& s, std::ostream& out);

/// The verdict of an exhaustive search whose outcome is kHolds or kGaveUp, the line that
/// repeats it and "(exit 0)" or "(exit 3)"; sets doc's "outcome" and "stats".
void print_search_end(const SearchOptions& s, const SearchResult& r, std::string_view command,
                      std::ostream& out, Json& doc);

/// A violation an exhaustive search found (r.found and r.shrunk set): where it was found, what
/// it shrank to, the messages, the baseline, the cluster and `cx`'s schedule.
void print_search_violation(const SearchOptions& s, const SearchResult& r, const Counterexample& cx,
                            std::ostream& out);

/// The verdict of a stateful search whose outcome is kHolds: runs, steps, the line that
/// repeats it, "(exit 0)"; sets doc's "outcome" and "stats".
void print_stateful_end(const StatefulResult& r, std::string_view command, std::ostream& out,
                        Json& doc);

/// A violation a stateful search found (r.found, r.shrunk and r.reduced set): the sizes as
/// found, shrunk and reduced, `shortest` (the breadth-first search of the reduced cluster),
/// the messages, the cluster and `cx`'s schedule.
void print_stateful_violation(const StatefulResult& r, const checker::Result<Action>& shortest,
                              const Counterexample& cx, std::ostream& out);

/// The end of a search a signal stopped before any violation: "interrupted: nothing is
/// proven", what it explored so far (`explored`), the line that repeats it with its seed and
/// "(exit 3)"; sets doc's "outcome" ("interrupted"), "interrupted" (`signal`) and "stats".
void print_interrupted_end(std::string_view signal, std::string_view explored, Json stats,
                           std::string_view command, std::ostream& out, Json& doc);

/// Where `cx` went: "counterexample PATH" and its replay command, or, when `path` is empty
/// (no --out), how to write it; sets doc's "counterexample" when written.
void print_written(std::string_view path, std::ostream& out, Json& doc);

/// The end of a violation: doc's "outcome", "stats" (`stats`) and "violation" (`cx` with the
/// sizes found and shrunk), and the line that repeats the search, "(exit 1)".
void print_violation_end(const Counterexample& cx, const Scenario& found, std::size_t found_steps,
                         const Scenario& shrunk, std::size_t shrunk_steps, Json stats,
                         std::string_view command, std::ostream& out, Json& doc);

/// doc's "stats" of an exhaustive search.
Json search_stats(const SearchResult& r);

/// doc's "stats" of a stateful search.
Json stateful_stats(const StatefulResult& r);

}  // namespace preemptcheck::report
