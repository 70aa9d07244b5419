// Explorer: breadth-first exhaustive search over every interleaving of a Model. Finds the
// shortest counterexample to the `always` properties (or one per property), records which
// `sometimes` witnesses were reached, honours state, depth, time and memory limits, runs on
// several threads with the same result as on one, and can show the state graph to a caller
// through an edge visitor (on one thread). The types it answers with are in
// checker/explore_types.h; the searches in checker/level_explorer.h and
// checker/sequential_explorer.h.
#pragma once

#include <stdexcept>

#include "checker/explore_types.h"
#include "checker/level_explorer.h"
#include "checker/model.h"
#include "checker/sequential_explorer.h"

namespace preemptcheck::checker {

/// Explores every state reachable from model.initial_state(), breadth first, and checks the
/// model's properties on the initial state and on every step, including steps into states
/// already visited. States are identified by model.fingerprint(). With stop_at_violation the
/// search ends at the first violating step, which is at minimal depth; ties go to the step
/// generated first (states in id order, actions in enabled_actions order). Deterministic:
/// the same model gives the same ids, counts and path on every run and every thread count.
/// The visited set holds 64-bit fingerprints and parent links only; counterexamples are
/// rebuilt by re-running the model from the initial state along the parents, so the model
/// must be deterministic (std::logic_error otherwise). With on_edge set the search runs on
/// one thread and keeps a fingerprint-to-id map instead; threads and max_memory_bytes are
/// then ignored, and per_property is refused (std::invalid_argument).
template <Model M>
Result<typename M::Action> explore(const M& model, const Limits& limits,
                                   const ExploreOptions<typename M::Action>& opts = {}) {
  if (opts.on_edge) {
    if (opts.per_property) {
      throw std::invalid_argument("a per-property search cannot show its edges");
    }
    return detail::SequentialExplorer<M>(model, limits, opts).run();
  }
  return detail::LevelExplorer<M>(model, limits, opts).run();
}

}  // namespace preemptcheck::checker
