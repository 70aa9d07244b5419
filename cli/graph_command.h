// The `graph` command: draw the whole state graph of a small scenario, or a counterexample's
// neighbourhood, as Graphviz DOT with a legend, and optionally render it to SVG with Graphviz's
// `dot` (DESIGN §8).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "impl/world.h"

namespace preemptcheck::cli {

/// The state limit of `graph` when none is given: above the default scenario's count, so that
/// it can be drawn (dot renders it in seconds with the quick layout of checker::write_dot),
/// and far below what dot can still lay out.
inline constexpr std::uint64_t kDefaultGraphStates = 20000;

struct GraphOptions {
  std::string scenario_path;  ///< empty: the embedded default
  std::string dot_path;       ///< required; "-" writes the DOT text to standard output
  std::string svg_path;       ///< when set, `dot -Tsvg` renders the DOT file here
  /// When set, a counterexample file: draw its path and each state's other successors (one
  /// level) instead of the whole space; the scenario comes from the file.
  std::string around_path;
  std::uint64_t max_states = kDefaultGraphStates;
  MechanismChoice mechanisms;
  /// --around: accept a file with no digest or fingerprints, as `replay` does.
  bool allow_unfingerprinted = false;
  bool json = false;  ///< one JSON document on standard output instead of the summary lines
};

/// Parses the words after `graph`. On an error returns nothing and sets `error`.
std::optional<GraphOptions> parse_graph_args(const std::vector<std::string>& args,
                                             std::string& error);

/// Runs `preemptcheck graph`: 0 when drawn (violating states are marked, not an error),
/// 2 for bad input, a counterexample file `replay` refuses (its digest, a missing or differing
/// fingerprint), a counterexample step that is not enabled, or a failed render, 3 when the
/// space has more states than allowed (--around draws no more than the path's neighbourhood
/// and has no limit).
int run_graph(const GraphOptions& options, std::ostream& out, std::ostream& err);

/// The path of Graphviz's `dot` found on PATH, or nothing.
std::optional<std::string> find_dot();

}  // namespace preemptcheck::cli
