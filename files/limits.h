// The bounds on every number and size the file readers accept, in one place. Each bound is
// chosen so that no sum the model computes can overflow: a node's requests are summed in
// 64 bits over at most kMaxPods pods, and kMaxPods + 1 quantities at their bound still fit.
// docs/scenario.md lists them for users.
#pragma once

#include <cstdint>
#include <limits>

#include "impl/scenario.h"

namespace preemptcheck::limits {

/// A file larger than this is refused before it is parsed.
inline constexpr std::uint64_t kMaxFileBytes = 1024 * 1024;
/// A kubectl file `import` reads, likewise: sized for a whole cluster's
/// `kubectl get nodes,pods,pdb,priorityclasses -A -o yaml` (a few KiB a pod: thousands of
/// pods), since `--nodes` can only select from what was read. yaml-cpp's node tree takes about
/// 50 bytes of memory a byte of YAML, so a file at the bound needs some 1.7 GB.
inline constexpr std::uint64_t kMaxKubectlFileBytes = 32 * 1024 * 1024;
/// Collections nested deeper than this (a mapping in a sequence in a mapping ...) are refused.
/// The deepest a valid file needs is 5: counterexample → scenario → pods → pod → labels.
inline constexpr int kMaxNesting = 16;
/// YAML aliases (`*name`) in one file. An alias may stand for a whole subtree, so a file with
/// many aliases of aliases is exponentially large once read; none of ours needs more than a few.
inline constexpr int kMaxAliases = 64;
/// Steps in one counterexample.
inline constexpr int kMaxSteps = 10'000;

/// cpu of a node or a pod, in millicores: one billion cores ("1G").
inline constexpr std::int64_t kMaxCpuMillicores = 1'000'000'000'000;
/// memory of a node or a pod, in bytes: one pebibyte ("1Pi").
inline constexpr std::int64_t kMaxMemoryBytes = std::int64_t{1} << 50;
/// A pod's priority: Kubernetes' int32 range (`spec.priority`).
inline constexpr std::int64_t kMinPriority = std::numeric_limits<std::int32_t>::min();
inline constexpr std::int64_t kMaxPriority = std::numeric_limits<std::int32_t>::max();
/// Each fault budget (`eviction-failures`, `binding-failures`).
inline constexpr std::int64_t kMaxFaultBudget = 16;
/// Executor workers (0 means one per job).
inline constexpr std::int64_t kMaxWorkers = kMaxPods;
/// A PDB's `min-available`.
inline constexpr std::int64_t kMaxMinAvailable = kMaxPods;

static_assert((kMaxPods + 1) * kMaxCpuMillicores < std::numeric_limits<std::int64_t>::max() / 2,
              "a node's summed cpu requests must fit in 64 bits");
static_assert((kMaxPods + 1) * kMaxMemoryBytes < std::numeric_limits<std::int64_t>::max() / 2,
              "a node's summed memory requests must fit in 64 bits");

}  // namespace preemptcheck::limits
