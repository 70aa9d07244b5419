// The `check` command: explore every interleaving of one scenario and report.
#pragma once

#include <bitset>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explorer.h"
#include "impl/scenario.h"
#include "spec/property.h"

namespace preemptcheck::cli {

/// Exit codes of every command (DESIGN §8).
inline constexpr int kExitHolds = 0;
inline constexpr int kExitViolated = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitLimit = 3;

/// How the mechanisms of a run are chosen: the scenario's own profile and switches, unless
/// a profile is named; then the switches given on the command line, in order.
struct MechanismChoice {
  std::optional<std::string> profile;
  std::vector<std::pair<std::string, std::string>> switches;
};

/// Applies a MechanismChoice to a loaded scenario: the profile, then every switch in order,
/// whatever their order on the command line. Returns an error message when a name or value is
/// unknown. A switch that changes nothing (the profile or the file already sets that value)
/// is not an error: it gets a note in `notes`, when given.
std::optional<std::string> apply_choice(Scenario& scenario, const MechanismChoice& choice,
                                        std::vector<std::string>* notes = nullptr);

/// Prints apply_choice's notes on `err`, each as "preemptcheck COMMAND: note: ...".
void print_notes(const std::vector<std::string>& notes, std::string_view command,
                 std::ostream& err);

struct CheckOptions {
  std::string scenario_path;  ///< empty: the embedded default
  /// When set: check the inline scenario (and recorded mechanisms) of this counterexample
  /// file instead of scenario_path.
  std::string scenario_of;
  MechanismChoice mechanisms;
  /// No state limit unless --max-states asks for one: memory is bounded by --max-memory.
  checker::Limits limits{std::nullopt, std::nullopt, std::nullopt};
  std::bitset<spec::kPropertyCount> checked = std::bitset<spec::kPropertyCount>().set();
  bool json = false;
  std::string out_dir;   ///< when set, each violated property's counterexample is written there
  unsigned threads = 0;  ///< worker threads; 0: std::thread::hardware_concurrency()
  /// --max-memory in bytes; unset: 80% of physical memory.
  std::optional<std::uint64_t> max_memory;
  bool quiet = false;          ///< no progress line on stderr
  bool stop_at_first = false;  ///< stop at the first violation (one counterexample)
  /// Gating (docs/ci/): the checked properties that must be violated; every other checked one
  /// must hold. With these or `junit_path`, the exit code says whether the expectations are met.
  std::vector<std::string> expect_violated;
  std::string junit_path;  ///< when set, the expectations as a JUnit XML report
};

/// --threads 0 (the default) as the number of threads to run: the machine's cores.
unsigned effective_threads(unsigned threads);

/// The default memory bound: 80% of physical memory (0 when unknown).
std::uint64_t default_max_memory();

/// A memory size: digits with an optional suffix K, M, G, T (powers of 1000) or Ki, Mi, Gi,
/// Ti (powers of 1024), as in 200M, 2G, 512Mi; nullopt when malformed or zero.
std::optional<std::uint64_t> parse_memory_size(std::string_view text);

/// Runs `preemptcheck check`; returns the exit code.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

/// The embedded default scenario's YAML text.
const char* default_scenario_yaml();

/// Loads the scenario at `path`, or the embedded default when `path` is empty.
Scenario load_scenario(const std::string& path);

}  // namespace preemptcheck::cli
