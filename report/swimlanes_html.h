// Swimlanes: a counterexample's schedule drawn as one self-contained HTML page — one lane
// per component of kube-scheduler and the cluster, one row per step, the step where the
// property breaks marked, and the state after each step (and what changed) on click.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace preemptcheck::report {

/// The component that takes a step: a lane of the drawing. In lane order, left to right.
enum class Lane : std::uint8_t {
  kUser,              ///< users and controllers outside the scheduler: `create`
  kQueueFlush,        ///< the scheduling queue's periodic flush of the unschedulable pool
  kSchedulingThread,  ///< the one scheduling thread: `schedule` runs a whole cycle
  kBinding,           ///< the binding cycles, each on its own goroutine: `bind`, `bind-fails`
  kExecutor,          ///< the preemption executor's jobs, one per preemptor
  kApiServer,         ///< the API server: the writes (watch events) a step makes
  kInformer,          ///< the informer: `observe` delivers the oldest pending watch event
  kKubelet,           ///< the kubelet: `terminate` finishes a terminating pod
};

inline constexpr std::size_t kLaneCount = 8;

/// Every lane, in drawing order.
const std::array<Lane, kLaneCount>& all_lanes();

/// The lane's heading, e.g. "Scheduling thread".
std::string_view lane_title(Lane lane);

/// A short identifier for the lane, used as a CSS class and `data-lane` value:
/// "user", "flush", "scheduling", "binding", "executor", "api-server", "informer", "kubelet".
std::string_view lane_id(Lane lane);

/// One line of the legend under the lane's heading, saying what the lane stands for.
std::string_view lane_blurb(Lane lane);

/// Where a step's cause was written: the `write`-th (0-based) API-server write of step `step`.
struct TimelineCause {
  int step = 0;
  int write = 0;

  friend bool operator==(const TimelineCause&, const TimelineCause&) = default;
};

/// One step of a schedule.
struct TimelineStep {
  int number = 0;  ///< 1-based
  Lane lane = Lane::kSchedulingThread;
  std::string actor;                ///< who in the lane acted, e.g. "job p-high"; may be empty
  std::string action;               ///< the action as written, e.g. "evict p-high v1"
  std::string comment;              ///< what it did, one sentence
  std::vector<std::string> writes;  ///< the API-server writes it made, one watch event each
  /// The writes this step reacts to (an `observe` delivers one; a `terminate` finishes the
  /// deletion an eviction wrote). Each must name an earlier step and one of its writes.
  std::vector<TimelineCause> causes;
  std::vector<std::string> state;       ///< the whole state after the step, one line each
  bool breaks = false;                  ///< the step where the property breaks
  std::vector<std::string> violations;  ///< "property: message" for every break at this step
};

/// A counterexample, ready to draw. Every string is plain text; the renderer escapes it.
struct Timeline {
  std::string title;                       ///< the page title, e.g. "no-double-victim on default"
  std::string property;                    ///< the violated property
  std::string message;                     ///< its one-line message
  std::string scenario;                    ///< the scenario's name and description
  std::vector<std::string> cluster;        ///< nodes and pods, one line each
  std::string switches;                    ///< the profile and every mechanism switch
  std::string found_by;                    ///< how it was found; may be empty
  std::string reproduce;                   ///< the command that replays it
  std::vector<std::string> initial_state;  ///< the state before step 1, one line each
  std::vector<TimelineStep> steps;
  /// Why the replay is not what the file records (a replay that diverged); empty when it is.
  std::string diverged;
  /// A lasso (a liveness counterexample): the steps after step `loop` repeat forever.
  std::optional<std::size_t> loop;
};

/// The page: one HTML document with inline CSS and a little inline JS, no external
/// references of any kind (no scripts, style sheets, fonts or images from elsewhere).
/// Deterministic: the same Timeline gives the same bytes. Without JS the page still shows
/// every lane, step and cause; JS adds the cause arrows and the state on click or hover.
std::string render_swimlanes_html(const Timeline& timeline);

/// `text` with &, <, >, " and ' replaced by character references, safe both as element
/// content and inside a quoted attribute.
std::string html_escape(std::string_view text);

}  // namespace preemptcheck::report
