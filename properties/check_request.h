// CheckRequest: what a `check` asks for — the scenario, the mechanism switches, the properties,
// the search's bounds, reduction and threads, the gate's expectations and the files to write —
// and the rules on how its options combine. properties/check_run.h runs it.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/explore_types.h"
#include "impl/mechanism_choice.h"
#include "properties/symmetry.h"
#include "spec/property.h"

namespace preemptcheck {

struct CheckRequest {
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
  /// (properties/liveness_run.h); `unfair`: count every loop, fair or not.
  bool liveness = false;
  bool unfair = false;
  /// --simulate N: N random walks instead of the breadth-first search (properties/simulate.h),
  /// each at most `simulate_depth` steps, seeded by `seed` (none: a fresh one, printed).
  std::optional<std::uint64_t> simulate;
  std::optional<std::uint32_t> simulate_depth;
  std::optional<std::uint64_t> seed;

  /// Whether the exit code is the gate's: --expect-violated or --junit was given.
  bool gated() const { return !expect_violated.empty() || !junit_path.empty(); }
};

/// Why the request's options do not go together (--unfair without --liveness, --liveness with
/// --reduce, --simulate with a gate, an expectation of a property left unchecked, ...), in
/// words after "preemptcheck: "; empty when they do. Every name in `expect_violated` is a
/// property's.
std::string check_request_problem(const CheckRequest& request);

/// --threads 0 (the default) as the number of threads to run: the machine's cores.
unsigned effective_threads(unsigned threads);

/// The default memory bound: 80% of physical memory (0 when unknown).
std::uint64_t default_max_memory();

}  // namespace preemptcheck
