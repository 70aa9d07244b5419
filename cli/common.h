// Common: what every command shares — the exit codes, the scenario (the embedded default or a
// file), the mechanism choice with its notes, and the memory sizes options take.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/mechanism_choice.h"
#include "impl/scenario.h"

namespace preemptcheck::cli {

/// Exit codes of every command (DESIGN §8).
inline constexpr int kExitHolds = 0;
inline constexpr int kExitViolated = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitLimit = 3;

/// The embedded default scenario's YAML text.
const char* default_scenario_yaml();

/// Loads the scenario at `path`, or the embedded default when `path` is empty.
Scenario load_scenario(const std::string& path);

/// Prints apply_choice's notes on `err`, each as "preemptcheck COMMAND: note: ...".
void print_notes(const std::vector<std::string>& notes, std::string_view command,
                 std::ostream& err);

/// apply_choice on `scenario` for `command`: its notes printed (print_notes), or its error
/// printed on `err` as "PREFIX: error", where PREFIX is `error_prefix`. False on an error (the
/// command exits with kExitBadInput).
bool choose_mechanisms(Scenario& scenario, const MechanismChoice& choice, std::string_view command,
                       std::string_view error_prefix, std::ostream& err);

/// A memory size: digits with an optional suffix K, M, G, T (powers of 1000) or Ki, Mi, Gi,
/// Ti (powers of 1024), as in 200M, 2G, 512Mi; nullopt when malformed or zero.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

/// The warning `check --out` prints on standard error when it replaces a file that held a
/// different counterexample (another check's, or an older model's) with a new one.
void warn_replaced(const std::string& path, std::ostream& err);

}  // namespace preemptcheck::cli
