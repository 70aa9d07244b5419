// RapidCheck, driven with explicit parameters: a seed and a budget chosen by the caller (not
// by the RC_PARAMS environment), no output of its own, and a callback for every case and
// every shrink tried.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace preemptcheck {

struct RapidCheckRun {
  std::uint64_t seed = 0;
  int max_success = 100;
  int max_size = 100;
  int max_discard_ratio = 10;
  /// Called after every generated case (before shrinking starts).
  std::function<void()> on_case;
  /// Called after every shrink tried, with whether it still failed (and so was kept).
  std::function<void(bool accepted)> on_shrink;
  /// Asked after every case and every shrink tried: true ends the run there (kStopped; a
  /// signal asked the command to stop).
  std::function<bool()> stop;
};

struct RapidCheckOutcome {
  enum class Kind { kSuccess, kFailure, kGaveUp, kError, kStopped };
  Kind kind = Kind::kSuccess;
  int successes = 0;
  std::string message;  ///< RapidCheck's own report, for a failure, a give-up or an error
};

/// Checks `property` (a callable using `*gen`, RC_ASSERT, RC_FAIL, RC_DISCARD) under `run`.
RapidCheckOutcome run_rapidcheck(const std::function<void()>& property, const RapidCheckRun& run);

/// A fresh seed from the system's random device, for runs not given one.
std::uint64_t random_seed();

}  // namespace preemptcheck
