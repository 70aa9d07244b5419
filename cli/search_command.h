// The `search` command: RapidCheck over generated clusters, each explored exhaustively; the
// smallest failing cluster and its shortest schedule become a counterexample file (DESIGN §7,
// §8). With --stateful, random walks on larger clusters instead.
#pragma once

#include <bitset>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "files/counterexample_yaml.h"
#include "properties/search.h"
#include "properties/search_counterexample.h"
#include "properties/stateful.h"

namespace preemptcheck::cli {

struct SearchCommandOptions {
  std::optional<std::uint64_t> seed;  ///< none: a fresh one, printed
  int runs = 100;
  int max_nodes = 3;
  int max_pods = 9;
  int max_faults = 1;  ///< each fault budget of a generated cluster: 0..max_faults
  MechanismChoice mechanisms;
  std::bitset<spec::kPropertyCount> checked = std::bitset<spec::kPropertyCount>().set();
  std::uint64_t max_states = kDefaultClusterMaxStates;  ///< per cluster
  unsigned threads = 0;  ///< each cluster's search threads; 0: the machine's cores
  std::string out_dir;   ///< when set, a violation is written there as a counterexample file
  /// A cluster fails only when the profile alone (without the switches) holds on it.
  bool differential = false;
  bool stateful = false;  ///< random walks on large clusters instead of exhaustive checks
  int max_steps = 150;    ///< --stateful: commands per run
  bool json = false;      ///< one JSON document on standard output instead of the text
};

/// Parses the words after `search`. On an error returns nothing and sets `error`.
std::optional<SearchCommandOptions> parse_search_args(const std::vector<std::string>& args,
                                                      std::string& error);

/// The search a command line asks for, with `seed`: its profile and switches applied, and
/// with --differential the profile alone as baseline. Nothing, with `error` set, when the
/// profile is unknown.
std::optional<SearchOptions> to_search_options(const SearchCommandOptions& options,
                                               std::uint64_t seed, std::string& error);

/// Likewise for --stateful.
std::optional<StatefulOptions> to_stateful_options(const SearchCommandOptions& options,
                                                   std::uint64_t seed, std::string& error);

/// Runs `preemptcheck search`; returns the exit code: 0 no violation in the clusters asked
/// for, 1 a violation, 2 bad usage, 3 too many clusters were cut to explore the number asked.
int run_search_command(const SearchCommandOptions& options, std::ostream& out, std::ostream& err);

/// The command line that repeats a search with `seed`; its --out directory as recorded_path()
/// (files/output_file.h) gives it, since the line is written into counterexample files.
std::string search_command_line(const SearchCommandOptions& options, std::uint64_t seed);

}  // namespace preemptcheck::cli
