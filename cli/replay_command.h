// The `replay` command: re-run a counterexample file's steps on a fresh World, showing what
// each step changed and where each property breaks (DESIGN §6, §8).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/common.h"
#include "impl/world.h"

namespace preemptcheck::cli {

struct ReplayOptions {
  std::string file;
  bool full = false;  ///< print the whole state after every step, not only what changed
  /// Overrides of the file's mechanisms; under any that changes them, fingerprints are not
  /// compared.
  MechanismChoice mechanisms;
  bool json = false;      ///< one JSON document on standard output instead of the text
  std::string html_path;  ///< when set, the swimlane page of the schedule is written there
  /// Replay a file whose steps lack fingerprints instead of refusing it; the output says so.
  bool allow_unfingerprinted = false;
};

/// Parses the words after `replay`. On an error returns nothing and sets `error`.
std::optional<ReplayOptions> parse_replay_args(const std::vector<std::string>& args,
                                               std::string& error);

/// Runs `preemptcheck replay`. As recorded: 1 exactly when divergence() finds nothing; 2 for a
/// bad or refused file (digest, fingerprints), a step not enabled, a fingerprint that differs,
/// or a divergence; never 0. Under switches that change the file's: 1 when the recorded
/// property breaks at some step, 0 when it held at every step, 2 when a step is not enabled.
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
