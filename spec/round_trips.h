// Round trips: how many API round trips kube-scheduler's scheduling thread waits for in one
// preemption cycle, with synchronous deletion (before KEP-4832) and with asynchronous
// deletion (SchedulerAsyncPreemption). The figures follow kube-scheduler's code, not the
// model's switches, so one exploration yields both: KEP-4832's throughput claim, made
// falsifiable per scenario.
#pragma once

#include <cstdint>

#include "impl/world.h"

namespace preemptcheck::spec {

/// kube-scheduler's default Parallelizer width (parallelize.DefaultParallelism).
inline constexpr std::uint32_t kDefaultParallelism = 16;

/// Pieces one worker of Parallelizer().Until runs one after another for n pieces over
/// `parallelism` workers, with chunkSizeFor's chunks (min(⌊√n⌋, n/parallelism + 1), at
/// least 1): 0 for n = 0, 1 for n < parallelism, then growing with n.
std::uint32_t parallel_depth(std::uint32_t n, std::uint32_t parallelism = kDefaultParallelism);

/// The round trips one scheduling cycle keeps the scheduling thread waiting for.
struct BlockingRoundTrips {
  /// deletion=sync (prepareCandidate): each victim's DisruptionTarget PATCH then DELETE, in
  /// Parallelizer waves (2·depth(N)); then one PATCH per lower-priority nominee whose status
  /// holds the nominatedNodeName (K); then the preemptor's own status PATCH (1 when its
  /// nominatedNodeName changes).
  std::uint32_t sync = 0;
  /// deletion=async (prepareCandidateAsync): only the preemptor's own status PATCH.
  std::uint32_t async = 0;

  friend bool operator==(const BlockingRoundTrips&, const BlockingRoundTrips&) = default;
};

/// For a cycle that decided to preempt (step.cycle, decision kPreempt), what that preemption
/// would block under each deletion mode, from `before` (the World the cycle started from);
/// zero for every other step.
BlockingRoundTrips blocking_round_trips(const World& before, const StepReport& step);

}  // namespace preemptcheck::spec
