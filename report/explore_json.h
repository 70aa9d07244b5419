// Explore JSON: the documents `preemptcheck explore`'s page reads — the state a path reached,
// grouped by component, with what its last step changed; every askable step, enabled with its
// effect or not with the reason; each property and witness on the path; and the path's steps.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "impl/scenario.h"
#include "properties/schedule.h"
#include "report/json.h"

namespace preemptcheck::report {

/// The component a state line belongs to ("API server", "informer", "queues", ...), from
/// its key as impl/show's state_lines and the ledger's lines write it.
std::string_view state_component(std::string_view key);

/// The document of the state `schedule` (ended, not blocked) reached: {"scenario",
/// "mechanisms", "path", "steps": [{"number", "text", "comment", "fingerprint", "breaks"}],
/// "state": [{"component", "lines": [{"key", "value", "before", "changed"}]}], "enabled":
/// [{"text", "effect", "path"}], "disabled": [{"text", "why"}], "properties": [{"name",
/// "kind", "status", "step", "message", "statement"}]}. A property's status is "holds",
/// "broken" (first at "step") or, for a witness, "reached" (first at "step") or "not reached".
Json explore_state_json(const Scenario& scenario, const Schedule& schedule);

/// The document of a path whose step is not enabled, as `replay` says it: {"error":
/// "step K 'TEXT' is not enabled", "why", "enabled", "valid_path"} (the steps before it).
Json explore_blocked_json(const Schedule& schedule);

/// {"error": message}.
Json explore_error_json(std::string_view message);

}  // namespace preemptcheck::report
