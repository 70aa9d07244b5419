// The command line on CLI11: one App with the subcommands check, replay, graph, search and
// import, their options bound to each command's options struct, and the one strict rule for
// numbers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/check_command.h"

namespace preemptcheck::cli {

/// The commands the App knows, in the order `--help` lists them.
inline constexpr std::string_view kCommandNames[] = {"check",  "replay",  "graph",   "search",
                                                     "import", "explore", "profiles"};

/// Parses the words after `check`. On an error returns nothing and sets `error`.
/// A mechanism switch applies on top of the profile whatever their order on the line.
std::optional<CheckOptions> parse_check_args(const std::vector<std::string>& args,
                                             std::string& error);

/// A whole number in decimal digits only (no sign, no blanks, no base prefix), at most `max`;
/// otherwise an error naming `flag`. The one rule of every numeric option but --time-limit.
std::optional<std::uint64_t> parse_whole(std::string_view text, std::uint64_t max);

/// Seconds as decimal digits with an optional fraction ("5", "0.5"); nothing else (no sign,
/// blanks, exponent, hex, inf or nan). The rule of --time-limit.
std::optional<double> parse_seconds(std::string_view text);

/// The whole `--help`: the commands and every option of each, with the profiles, mechanism
/// switches and properties listed from their tables.
std::string usage_text();

/// `preemptcheck COMMAND --help`.
std::string command_help(std::string_view command);

/// The long option names `COMMAND --help` lists (as "--name"), mechanism switches excluded,
/// sorted; and whether the command takes mechanism switches.
std::vector<std::string> option_names(std::string_view command, bool& takes_switches);

/// `preemptcheck --version`: the version, the fingerprint scheme and the git revision.
std::string version_text();

/// The whole command: parses `argv` and runs the command; returns the exit code. Under
/// --json an error is printed as JSON on `out` (and as text on `err`).
int run_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
