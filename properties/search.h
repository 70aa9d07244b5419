// Search: RapidCheck over generated clusters, each explored exhaustively (DESIGN §7, the
// scenario level). A cluster fails when its breadth-first search finds a violation of a
// checked property; RapidCheck then shrinks it, and the breadth-first search of the smallest
// failing cluster gives its shortest schedule. A cluster whose search reaches the per-cluster
// state limit is discarded and counted as cut — never as passing. Used by the property tests
// and by `preemptcheck search`.
#pragma once

#include <atomic>
#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "checker/explore_failure.h"
#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/generators.h"
#include "spec/property.h"

namespace preemptcheck {

/// The per-cluster state limit when none is given: clusters within ClusterBounds::small()
/// stay far below it; one that reaches it is cut.
inline constexpr std::uint64_t kDefaultClusterMaxStates = 100'000;

/// Where a search is, for a progress line.
struct SearchProgress {
  int clusters = 0;  ///< clusters explored completely without a violation
  int cut = 0;       ///< clusters the state limit cut
  bool shrinking = false;
  int shrinks_tried = 0;
  int shrinks_accepted = 0;
  std::uint64_t states = 0;
  std::uint64_t transitions = 0;
  double seconds = 0;
};

struct SearchOptions {
  std::uint64_t seed = 0;
  int runs = 100;  ///< clusters to explore completely (RapidCheck's max_success)
  ClusterBounds bounds = ClusterBounds::small();
  std::string profile = "reference";
  Mechanisms mechanisms;  ///< the profile with the switches applied
  std::bitset<spec::kPropertyCount> checked = std::bitset<spec::kPropertyCount>().set();
  std::uint64_t max_states = kDefaultClusterMaxStates;  ///< per cluster
  /// Worker threads of each cluster's breadth-first search; results are the same for every
  /// count.
  unsigned threads = 1;
  /// RapidCheck gives up once more than runs × max_discard_ratio clusters were cut.
  int max_discard_ratio = 10;
  /// Differential search: when set, a cluster fails only if it violates a checked property
  /// under `mechanisms` while every checked property holds on it under these (explored
  /// completely). Shrinking keeps both, so the smallest cluster shows what the difference
  /// between the two breaks.
  std::optional<Mechanisms> baseline;
  std::string baseline_profile = "reference";
  /// Called after every cluster and every shrink tried.
  std::function<void(const SearchProgress&)> progress;
  /// When this process is one of several MPI ranks (checker/mpi/mpi_world.h): explore the
  /// generated clusters on all ranks, then finish on rank 0 exactly as one process would
  /// (properties/search.cc says how). Every rank must call run_search alike. Ignored outside
  /// MPI and with one rank.
  bool distributed = false;
  /// Non-zero once a signal asks the search to stop (cli/interrupt_signals.h): the cluster
  /// being explored is abandoned and the search ends after it, with what it found. Not
  /// looked at during a distributed search's shared walk.
  const std::atomic<int>* interrupt = nullptr;
};

/// A failing cluster and its breadth-first search (whose violation is set).
struct FailingCluster {
  Scenario scenario;
  checker::Result<Action> result;
  /// Differential searches: the same cluster's search under the baseline (it holds).
  std::optional<checker::Stats> baseline;

  std::size_t steps() const { return result.violation ? result.violation->path.size() : 0; }
};

struct SearchResult {
  enum class Outcome {
    kHolds,        ///< `runs` clusters explored completely, no violation
    kViolated,     ///< a cluster violated a checked property
    kGaveUp,       ///< too many clusters were cut before `runs` were explored
    kError,        ///< RapidCheck reported an error (a generator failed)
    kInterrupted,  ///< a signal stopped it before any violation (SearchOptions::interrupt)
  };
  Outcome outcome = Outcome::kHolds;
  int clusters = 0;  ///< generated clusters explored completely without a violation
  int distinct = 0;  ///< how many of them were distinct
  int cut = 0;       ///< generated clusters discarded because the state limit cut them
  /// Differential searches: clusters that violate a checked property under the baseline as
  /// well (counted in `clusters`: they do not tell the two apart).
  int baseline_violated = 0;
  std::uint64_t states = 0;              ///< summed over the distinct clusters explored completely
  std::uint64_t transitions = 0;         ///< likewise
  std::optional<FailingCluster> found;   ///< the first failing cluster, before shrinking
  std::optional<FailingCluster> shrunk;  ///< the smallest failing cluster shrinking reached
  int shrinks_tried = 0;
  int shrinks_accepted = 0;
  double seconds = 0;
  std::string message;  ///< RapidCheck's report for kGaveUp and kError
  /// A signal stopped it: kInterrupted, or kViolated with `shrunk` the smallest failing
  /// cluster shrinking had reached.
  bool interrupted = false;
  /// A distributed search: false on every rank but 0, whose result is the search's (the
  /// others' results are empty).
  bool lead = true;
  int ranks = 1;  ///< the ranks the generated clusters were spread over
  /// Distributed: generated clusters the ranks settled together before rank 0's run, and of
  /// those rank 0 explored again (a violating one, for its schedule; 0 or 1 unless the
  /// prediction of RapidCheck's sizes failed).
  int shared_cases = 0;
  int explored_again = 0;
};

/// Runs the search. Deterministic for a given seed and options, and, distributed, the same
/// on rank 0 as in one process. Distributed, when one rank fails (an exception while it
/// explores) every rank throws checker::RankFailure naming it.
SearchResult run_search(const SearchOptions& options);

/// The checked safety properties by name, comma-separated; "all" when every one is.
std::string checked_names(const std::bitset<spec::kPropertyCount>& checked);

}  // namespace preemptcheck
