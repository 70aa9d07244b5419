// The `check` command: explore every interleaving of one scenario and report.
#pragma once

#include <bitset>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explore_types.h"
#include "cli/common.h"
#include "impl/scenario.h"
#include "properties/symmetry.h"
#include "spec/property.h"

namespace preemptcheck::cli {

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
  /// --reduce: the state-space reduction the search applies (SPEC §8).
  Reduction reduce = Reduction::kNone;
  /// --max-memory in bytes; unset: 80% of physical memory.
  std::optional<std::uint64_t> max_memory;
  bool quiet = false;          ///< no progress line on stderr
  bool stop_at_first = false;  ///< stop at the first violation (one counterexample)
  /// Gating (docs/ci/): the checked properties that must be violated; every other checked one
  /// must hold. With these or `junit_path`, the exit code says whether the expectations are met.
  std::vector<std::string> expect_violated;
  std::string junit_path;  ///< when set, the expectations as a JUnit XML report
  /// Check no-starvation on the whole state graph instead of the safety properties
  /// (cli/liveness_command.h); `unfair`: count every loop, fair or not.
  bool liveness = false;
  bool unfair = false;
  /// --simulate N: N random walks instead of the breadth-first search (cli/simulate_command.h),
  /// each at most `simulate_depth` steps, seeded by `seed` (none: a fresh one, printed).
  std::optional<std::uint64_t> simulate;
  std::optional<std::uint32_t> simulate_depth;
  std::optional<std::uint64_t> seed;
};

/// The command line that repeats this check (paths as recorded_path() gives them): what a
/// counterexample's header records and `--simulate` prints.
std::string check_command_line(const CheckOptions& options);

/// Runs `preemptcheck check`; returns the exit code.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace preemptcheck::cli
