// Scenario: the input of a check — a small cluster, its pending pods, fault budgets and
// mechanisms (DESIGN §5). A plain value; loading it from YAML lives in files/.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "impl/mechanisms.h"

namespace preemptcheck {

/// cpu is counted in millicores (Kubernetes' `1` is 1000, `500m` is 500) and memory in
/// bytes, both in 64 bits; files/limits.h bounds what a file may give so that sums fit.
inline constexpr std::int64_t kMillicoresPerCore = 1000;

/// `cores` whole cores in millicores.
constexpr std::int64_t cores(std::int64_t cores) { return cores * kMillicoresPerCore; }

/// cpu in Kubernetes' form: whole cores as a plain number ("4"), the rest in millicores
/// ("500m", "1500m"), so that a scenario's `cpu: 4` prints as 4.
std::string format_cpu(std::int64_t millicores);

/// memory in bytes in Kubernetes' form: a plain number, or with the largest binary suffix
/// that divides it exactly when it is a multiple of 1024 ("8Gi", "1536Mi").
std::string format_memory(std::int64_t bytes);

/// A node and its allocatable capacity.
struct NodeSpec {
  std::string name;
  std::int64_t cpu = 0;     ///< millicores
  std::int64_t memory = 0;  ///< bytes
  /// Created by a `create-node` action instead of at the start; the running pods placed on
  /// it appear with it.
  bool arrives_later = false;
};

/// Which scheduler places a pod (spec.schedulerName). kube-scheduler's informer hands it
/// only the unscheduled pods it is responsible for; a pod of a second scheduler is placed by
/// that scheduler's `external-bind` steps (#130429). kSecondAware: the second scheduler keeps
/// clear of the space the API server shows nominated to pods of priority >= its pod's.
enum class PodScheduler : std::uint8_t { kThis, kSecond, kSecondAware };

/// A pod. Running pods name their node; pending pods leave it empty.
struct PodSpec {
  std::string name;
  int priority = 0;
  std::int64_t cpu = 0;        ///< millicores
  std::int64_t memory = 0;     ///< bytes
  std::string node;            ///< the node it runs on; empty for a pending pod
  bool arrives_later = false;  ///< created by a `create` action instead of at the start
  bool preempt_never = false;  ///< PreemptionPolicy=Never
  PodScheduler scheduler = PodScheduler::kThis;
  /// Owned by a controller that creates it again, same spec and new identity, whenever it
  /// is deleted (`recreate`), with no bound on how often.
  bool recreated = false;
  std::map<std::string, std::string> labels;
};

/// A PodDisruptionBudget. Its DisruptionsAllowed is the number of matching pods that are
/// running and not terminating, minus `min_available` (the disruption controller's result,
/// without its lag).
struct PdbSpec {
  std::string name;
  std::map<std::string, std::string> selector;  ///< empty selects nothing, as in Kubernetes
  int min_available = 0;
};

/// How many failures of each kind the environment may inject along one schedule.
struct Faults {
  int eviction_failures = 0;
  int binding_failures = 0;
  int restarts = 0;   ///< scheduler restarts (`restart`)
  int deletions = 0;  ///< pods a user or controller deletes (`delete`)
  /// nominated pending pods another component binds to another node (`external-bind`)
  int external_bindings = 0;
};

/// The whole input of one check.
struct Scenario {
  std::string name;
  std::string description;
  std::vector<NodeSpec> nodes;
  std::vector<PodSpec> pods;  ///< order is start order for running pods
  std::vector<PdbSpec> pdbs;
  Faults faults;
  int workers = 0;  ///< executor workers; 0 means one per job (Kubernetes' goroutines)
  std::string profile = "reference";
  Mechanisms mechanisms;  ///< the profile with the scenario's own overrides applied
  /// The expected outcome, checked in every state where nothing but the flush can happen:
  /// these pods are bound, and these are not (pending, or deleted as victims).
  std::vector<std::string> expect_bound;
  std::vector<std::string> expect_not_bound;
  /// `arrival-order`: names of nodes and pods declared `arrives: later`, each of which is
  /// created only after the one before it; empty lets later arrivals come in any order.
  std::vector<std::string> arrival_order;
  /// `allow-overcommitted-start`: running pods may request more than their node holds (a
  /// node whose allocatable shrank after admission); no-overcommit then judges only what the
  /// scheduler adds to such a node.
  bool allow_overcommitted_start = false;
};

/// Upper bounds that keep a World's indices in one byte.
inline constexpr int kMaxNodes = 8;
inline constexpr int kMaxPods = 32;

}  // namespace preemptcheck
