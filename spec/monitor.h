// Monitor: the property checks over a World and over one step of it (DESIGN §4). State
// invariants hold in every reachable state; decision checks hold at every decision; the
// quiescence check holds in every state where nothing but the periodic flush is enabled.
// The decision checks read what the ledger remembers of the path.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "impl/world.h"
#include "spec/ledger.h"
#include "spec/property.h"

namespace preemptcheck::spec {

/// What the checks found: broken properties with a one-line message, witnesses reached.
struct Findings {
  std::vector<std::pair<Property, std::string>> violated;
  std::vector<Property> reached;

  bool holds() const { return violated.empty(); }
};

/// The decision checks of one step and the invariants of the state it reached; `ledger`
/// is the memory of the path to `before`, and is then brought up to `after` (record()).
void check_step(const World& before, const StepReport& step, const World& after, Ledger& ledger,
                Findings& out);

/// The invariants and witnesses of one state (used for the initial state; check_step calls
/// it for the state after a step).
void check_state(const World& w, Findings& out);

}  // namespace preemptcheck::spec
