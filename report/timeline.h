// Timeline: a counterexample in impl's terms (a scenario and its actions) turned into the
// plain Timeline value the swimlane page draws — each action in the lane of the component
// that takes it, the API-server writes each step made, which write each `observe` and
// `terminate` reacts to, and the step where the property breaks.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "impl/action.h"
#include "impl/scenario.h"
#include "impl/world.h"
#include "properties/schedule.h"
#include "report/swimlanes_html.h"

namespace preemptcheck::report {

/// The whole state of a World as lines, in a fixed order: the caller's rendering of it
/// (named apart from impl/show.h's StateLines, the labelled lines themselves).
using StateLinesFn = std::function<std::vector<std::string>(const World&)>;

/// A counterexample as the adapter needs it.
struct TimelineSource {
  std::string property;             ///< the violated safety property, e.g. "no-double-victim"
  std::string message;              ///< its one-line message as recorded
  Scenario scenario;                ///< with the profile and mechanisms to replay under
  std::vector<Action> actions;      ///< the steps, in order
  std::string found_by;             ///< how it was found; may be empty
  std::string reproduce;            ///< the command that replays it
  std::optional<std::size_t> loop;  ///< a lasso: the steps after step `loop` repeat forever
};

/// How a counterexample was found, in one line: "breadth-first (shortest), 4 steps, 57 states
/// searched", with the seed and what shrinking did when recorded.
std::string found_by_text(const Counterexample& cx);

/// The timeline's source for a counterexample file replayed under `run` (its scenario with
/// the switches in force), `reproduce` the command that replays it.
TimelineSource timeline_source(const Counterexample& cx, const Scenario& run,
                               std::string reproduce);

/// The whole state as `key  value` lines, keys padded to one width so the page's state reads
/// as a table (impl/show's state_lines).
std::vector<std::string> padded_state_lines(const World& w);

/// The lane of the component that takes an action of this kind: `schedule` the scheduling
/// thread; `bind`, `bind-fails` the binding cycle; `clear-nominations`, `evict`,
/// `evict-fails`, `finish` the executor; `observe` the informer; `terminate` the kubelet;
/// `flush` the queue's flush; `create` the users.
Lane lane_of(ActionKind kind);

/// Replays `source.actions` (replay_schedule) on a fresh World of `source.scenario`, recording per
/// step its lane, its comment (describe_step), its API-server writes and their causes, the state
/// lines after it (from `state_lines`), the properties the spec monitors find broken there
/// (each property at its first break only), and marks the first step where
/// `source.property` breaks. On a step that is not enabled returns nothing and sets `error`.
std::optional<Timeline> make_timeline(const TimelineSource& source, const StateLinesFn& state_lines,
                                      std::string& error);

/// The same from `schedule`, the replay of `source.actions` on `source.scenario` (every
/// property checked); `source.actions` is not read again.
std::optional<Timeline> make_timeline(const TimelineSource& source, const Schedule& schedule,
                                      const StateLinesFn& state_lines, std::string& error);

/// "v1 modified: on node-a, terminating, DisruptionTarget": a watch event as one line.
std::string event_line(const Cluster& cluster, const WatchEvent& event);

}  // namespace preemptcheck::report
