// Generators: random clusters for the RapidCheck suites and for `preemptcheck search`
// (DESIGN §7). A cluster is generated as a genome — plain numbers that RapidCheck shrinks
// field by field and list by list — and turned into a Scenario by one total function that is
// valid by construction: names are unique (n1…, v1… for running pods, p1… for pending ones),
// every running pod fits its node, every bound is one the loader accepts. Shrinking the
// genome moves toward fewer nodes, fewer pods, smaller numbers and no faults.
#pragma once

#include <rapidcheck.h>

#include <iosfwd>
#include <string>
#include <vector>

#include "impl/scenario.h"

namespace preemptcheck {

/// How large generated clusters get. Every range is inclusive; a genome's numbers stay in
/// these ranges however it shrinks.
struct ClusterBounds {
  int min_nodes = 1;
  int max_nodes = 3;
  int min_running = 0;
  int max_running = 6;
  int min_pending = 1;
  int max_pending = 3;
  int max_capacity = 4;       ///< a node's cpu and memory: 1..max_capacity
  int max_cpu = 4;            ///< a pod's cpu: 1..max_cpu
  int max_memory = 2;         ///< a pod's memory: 0..max_memory
  int max_priority = 4;       ///< a pod's priority: 0..max_priority
  int max_min_available = 2;  ///< the optional PDB's min-available: 0..max_min_available
  int max_eviction_failures = 1;
  int max_binding_failures = 1;
  int max_workers = 2;  ///< executor workers: 0 (one per job)..max_workers

  /// The scenario-level clusters: 1–3 nodes, 0–6 running pods, 1–3 pending ones, small enough
  /// that one exhaustive check takes milliseconds.
  static ClusterBounds small();
  /// The same, with at most `max_nodes` nodes and `max_pods` pods in all: up to three of them
  /// pending (fewer when max_pods < 3), the rest running.
  static ClusterBounds limited(int max_nodes, int max_pods);
  /// The stateful clusters: 3–4 nodes, 6–8 running pods, 3–4 pending ones — too many
  /// interleavings to explore, walked at random instead.
  static ClusterBounds large();

  int max_pods() const { return max_running + max_pending; }
};

/// A node's genes.
struct NodeGene {
  int cpu = 1;
  int memory = 1;
};

/// A running pod's genes. `node` picks a node modulo the node count; a pod that does not fit
/// there goes to the next node it fits on, and is left out when it fits nowhere.
struct RunningGene {
  int node = 0;
  int priority = 0;
  int cpu = 1;
  int memory = 0;
  bool labelled = false;  ///< selected by the PDB, when there is one
};

/// A pending pod's genes.
struct PendingGene {
  int priority = 0;
  int cpu = 1;
  int memory = 0;
  bool arrives_later = false;
  bool preempt_never = false;  ///< PreemptionPolicy=Never
  bool labelled = false;
};

/// A whole cluster's genes.
struct ClusterGene {
  std::vector<NodeGene> nodes;
  std::vector<RunningGene> running;
  std::vector<PendingGene> pending;
  int pdb = 0;  ///< 0: no PDB; k > 0: one PDB over the labelled pods, min-available k - 1
  int eviction_failures = 0;
  int binding_failures = 0;
  int workers = 0;
};

/// Genomes within `bounds`. Values are uniform in their ranges whatever RapidCheck's size;
/// each shrinks toward its smallest value, lists toward their shortest.
rc::Gen<ClusterGene> gen_cluster_gene(const ClusterBounds& bounds);

/// The scenario a genome stands for, named `name`, under profile `profile_name` with
/// `mechanisms`. Total: every genome gives a valid scenario.
Scenario to_scenario(const ClusterGene& gene, const std::string& name = "generated",
                     const std::string& profile_name = "reference",
                     const Mechanisms& mechanisms = Mechanisms{});

/// Scenarios within `bounds`: gen_cluster_gene() mapped through to_scenario().
rc::Gen<Scenario> gen_scenario(const ClusterBounds& bounds, const std::string& name,
                               const std::string& profile_name, const Mechanisms& mechanisms);

/// "2 nodes, 4 pods (3 running, 1 pending)".
std::string cluster_size(const Scenario& scenario);

/// The number of nodes plus the number of pods: what shrinking makes smaller.
int cluster_weight(const Scenario& scenario);

/// The scenario in one compact line per node, pod, PDB and budget; equal text for equal
/// clusters (used as a cache key and to show a failing cluster).
std::string cluster_text(const Scenario& scenario);

/// Why a scenario is not one to_scenario() could have produced (names, placement, ranges
/// of `bounds`), or an empty string.
std::string check_generated(const Scenario& scenario, const ClusterBounds& bounds);

/// How RapidCheck shows a generated scenario in its reports.
void showValue(const Scenario& scenario, std::ostream& os);

}  // namespace preemptcheck
