// Mechanisms: the switches that guard the races of asynchronous preemption, and the named
// profiles that set them (DESIGN §3).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace preemptcheck {

/// Which pods the in-flight set (kube-scheduler's `preempting`) keeps away from a victim.
enum class Inflight {
  kOn,             ///< preemptor gated; victims in flight never chosen again by anyone, and a
                   ///< preemptor with its own victims in flight waits for them
  kPreemptorOnly,  ///< only the preemptor is gated (kube-scheduler)
  kOff,            ///< no in-flight set at all
};

/// When the PreEnqueue gate lets a preemptor with a running job back into the queue.
enum class Gate {
  kLastVictim,         ///< once the informer shows the last victim terminating or gone
  kReleaseBeforeLast,  ///< before the last victim's delete call (Kubernetes 1.32)
  kHoldUntilDone,      ///< only when the whole job has ended
};

/// Whether a step happens inside the scheduling cycle or later.
enum class Timing { kSync, kAsync };

/// Whether a scheduling cycle is one step, or two with informer deliveries in between.
enum class Cycle {
  kAtomic,  ///< one `schedule` step: no event can arrive while the pod is in flight
  kSplit,   ///< `schedule` pops the pod and decides on its snapshot, `cycle-end` applies the
            ///< decision; events delivered in between are recorded for the in-flight pod
};

/// Whether a pod that failed a cycle backs off before it may be scheduled again, and what
/// the scheduling queue does with a backing-off pod (SchedulerPopFromBackoffQ).
enum class Backoff {
  kNone,         ///< no backoff: a moved pod goes straight to activeQ (this project's model)
  kPopWhenIdle,  ///< backoffQ, PreEnqueue on entry, popped when activeQ is empty or its
                 ///< backoff expires (SchedulerPopFromBackoffQ on: kube-scheduler since 1.33)
  kExpiryOnly,   ///< backoffQ without PreEnqueue on entry, left only when its backoff expires
                 ///< (SchedulerPopFromBackoffQ off)
};

/// The full set of switches. Defaults are the `reference` profile.
struct Mechanisms {
  Inflight inflight = Inflight::kOn;
  Gate gate = Gate::kLastVictim;
  bool activate_on_finish = true;
  /// Beyond kube-scheduler's move on a nominatedNodeName change (always modelled): whether
  /// releasing held space in memory — a nomination the nominator drops or moves, victims a
  /// failed eviction gives back — moves every unschedulable pod at once.
  bool wake_on_release = true;
  Timing nomination = Timing::kSync;
  /// Whether the nominator applies an informer update older than its own latest write.
  bool stale_nominations_ignored = true;
  Timing clear_lower = Timing::kSync;
  bool assume = true;
  Timing deletion = Timing::kAsync;
  /// Not set by any profile: every profile keeps the atomic cycle unless asked.
  Cycle cycle = Cycle::kAtomic;
  /// Not in `reference`: the backoff queue and its abstract clock.
  Backoff backoff = Backoff::kNone;
  /// Whether a nominatedNodeName PATCH is computed against the scheduler's own, possibly
  /// stale, copy of the pod (kube-scheduler) rather than the API server's object.
  bool patch_diff_view = false;
  /// Not in `reference`: whether the failure handler's and the executor's status patches
  /// and the bindings go through kube-scheduler's API dispatcher (SchedulerAsyncAPICalls,
  /// impl/dispatcher.cc) rather than being sent by the caller.
  bool dispatched_calls = false;
  /// Not in any profile: whether the scheduler's victim selection reads each PDB's
  /// DisruptionsAllowed as the disruption controller last published it (a `pdb-sync` step
  /// recomputes it) rather than computed at the decision from the scheduler's own view.
  bool pdb_status_lagged = false;
  /// Whether the executor preempts a victim whose binding is in flight (waiting at Permit or
  /// in PreBind) in memory, failing its binding cycle, rather than deleting it through the
  /// API (impl/executor.cc `preempt_in_memory`).
  bool binding_victims_in_memory = false;
  /// Whether a job whose last victim was preempted in memory activates its preemptor when
  /// it ends (PR #140054; no deletion event will show that victim gone).
  bool activate_in_memory = true;
  /// NominatedNodeNameForExpectation: whether the binding cycle writes the chosen node as the
  /// pod's nominatedNodeName before it waits at Permit or in PreBind (impl/cycle.cc).
  bool binding_nomination = false;
  /// Not in any profile: whether the pod informer's queue coalesces per pod, as client-go's
  /// DeltaFIFO did up to v0.32 (a later event of a pod with an event still queued is
  /// delivered at that pod's place), rather than delivering in watch order (RealFIFO,
  /// InOrderInformers, since v0.33). impl/api_server.cc `write`.
  bool informer_per_key = false;
  /// Whether the cache forgets an assumed pod at its delete event while its binding is still
  /// in flight (PR #134157, 1.35); `off`: the delete of a pod whose object has no nodeName
  /// reaches only the queue's handler, and the cache forgets the pod when its binding fails.
  bool forget_deleted = true;

  friend bool operator==(const Mechanisms&, const Mechanisms&) = default;
};

/// The names of every mechanism, in the order they are printed.
const std::vector<std::string_view>& mechanism_names();

/// The values one mechanism accepts, or an empty list for an unknown name.
std::vector<std::string_view> mechanism_values(std::string_view name);

/// Sets mechanism `name` to `value`; returns an error message when either is unknown.
std::optional<std::string> set_mechanism(Mechanisms& m, std::string_view name,
                                         std::string_view value);

/// The value of mechanism `name` as it is spelled on the command line.
std::string mechanism_value(const Mechanisms& m, std::string_view name);

/// Whether mechanism `name` is written out for `m` under profile `profile_name` (describe(), a
/// counterexample's `mechanisms:`). One rule: every switch always, except `cycle`, `backoff`,
/// `patch-diff`, `api-calls`, `pdb-status`, `binding-victims`, `activate-in-memory`,
/// `binding-nomination`, `informer-fifo` and `forget-deleted`, written only when their value
/// differs from the reference's (their first value) or from the profile's, so that every file and
/// digest written before they existed keeps its text, and a switch set back to the reference's
/// value under a profile that changes it is never dropped.
bool mechanism_printed(const Mechanisms& m, std::string_view name, std::string_view profile_name);

/// The names of every profile, `reference` first.
const std::vector<std::string_view>& profile_names();

/// Another name a profile answers to, and why it is that profile.
struct ProfileAlias {
  std::string_view name;     ///< "kubernetes-1.34"
  std::string_view profile;  ///< the profile it stands for
  std::string_view reason;   ///< why, and what of that version the profile does not model
};

/// Every alias, in version order.
const std::vector<ProfileAlias>& profile_aliases();

/// The mechanisms of profile `name`, or nothing when there is no such profile.
std::optional<Mechanisms> profile(std::string_view name);

/// "inflight=on gate=last-victim …": every switch, in mechanism_names() order — what a person
/// reads, where none is left out for being at its default (a file's `mechanisms:` keeps
/// mechanism_printed()'s rule, for its digest).
std::string describe(const Mechanisms& m);

/// Only the switches that differ from `base`, as "--name=value" words; empty when equal.
std::vector<std::string> differences(const Mechanisms& m, const Mechanisms& base);

}  // namespace preemptcheck
