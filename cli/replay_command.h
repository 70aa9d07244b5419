// The `replay` command: re-run a counterexample file's steps on a fresh World, showing what
// each step changed and where each property breaks (DESIGN §6, §8).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/check_command.h"
#include "impl/world.h"

namespace preemptcheck::cli {

struct ReplayOptions {
  std::string file;
  bool full = false;  ///< print the whole state after every step, not only what changed
  /// Overrides of the file's mechanisms; under any that changes them, fingerprints are not
  /// compared.
  MechanismChoice mechanisms;
  bool json = false;  ///< one JSON document on standard output instead of the text
};

/// Parses the words after `replay`. On an error returns nothing and sets `error`.
std::optional<ReplayOptions> parse_replay_args(const std::vector<std::string>& args,
                                               std::string& error);

/// Runs `preemptcheck replay`; returns 1 when a property breaks (the recorded violation
/// reproduced), 0 when every step ran and nothing broke, 2 for a malformed file, a step that
/// is not enabled or a divergence.
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
