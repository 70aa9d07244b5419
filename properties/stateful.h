// Stateful: RapidCheck's rc::state over the World (DESIGN §7, the stateful level). Each run
// generates a cluster too large to explore, then a sequence of commands — each one of the
// actions enabled in the state it is generated for, chosen at random — and checks every
// property after every step (spec::check_step). A failing sequence shrinks to a short
// schedule; then the cluster is shrunk under that schedule, pod by pod and node by node, as
// long as the schedule still breaks the same property.
#pragma once

#include <atomic>
#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/explore_types.h"
#include "impl/action.h"
#include "impl/scenario.h"
#include "properties/generators.h"
#include "properties/reduce.h"
#include "spec/property.h"

namespace preemptcheck {

struct StatefulProgress {
  int runs = 0;  ///< command sequences that ran to their end without a violation
  std::uint64_t steps = 0;
  bool shrinking = false;
  int shrinks_tried = 0;
  int shrinks_accepted = 0;
  double seconds = 0;
};

struct StatefulOptions {
  std::uint64_t seed = 0;
  int runs = 100;
  ClusterBounds bounds = ClusterBounds::large();
  std::string profile = "reference";
  Mechanisms mechanisms;
  std::bitset<spec::kPropertyCount> checked = std::bitset<spec::kPropertyCount>().set();
  int max_steps = 150;  ///< a run takes 1..max_steps commands
  std::function<void(const StatefulProgress&)> progress;
  /// Non-zero once a signal asks the search to stop: it ends after the run (or shrink) under
  /// way, with what it found.
  const std::atomic<int>* interrupt = nullptr;
};

struct StatefulResult {
  /// kInterrupted: a signal stopped it before any violation (StatefulOptions::interrupt).
  enum class Outcome { kHolds, kViolated, kGaveUp, kError, kInterrupted };
  Outcome outcome = Outcome::kHolds;
  int runs = 0;                           ///< runs that ended without a violation
  std::uint64_t steps = 0;                ///< steps those runs took
  std::optional<BrokenSchedule> found;    ///< the first failing run, up to its failing step
  std::optional<BrokenSchedule> shrunk;   ///< after RapidCheck shrank the command sequence
  std::optional<BrokenSchedule> reduced;  ///< shrunk, on the smallest cluster that still breaks
  int shrinks_tried = 0;
  int shrinks_accepted = 0;
  double seconds = 0;
  std::string message;  ///< RapidCheck's report for kGaveUp and kError
  /// A signal stopped it: kInterrupted, or kViolated with the shrinking reached so far.
  bool interrupted = false;
};

/// The breadth-first search of `broken`'s cluster for its property alone, up to `max_states`:
/// how short the schedule could be.
checker::Result<Action> shortest_on_cluster(const BrokenSchedule& broken, std::uint64_t max_states);

/// Runs the stateful check. Deterministic for a given seed and options.
StatefulResult run_stateful(const StatefulOptions& options);

}  // namespace preemptcheck
