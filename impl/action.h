// Action: one step of an interleaving, the word a counterexample is written in (DESIGN §2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/cluster.h"

namespace preemptcheck {

enum class ActionKind : std::uint8_t {
  kSchedule,          ///< the scheduling thread runs one whole cycle for the head of activeQ
                      ///< (cycle=split: pops it and decides on the current view)
  kBind,              ///< a binding cycle finishes
  kBindFails,         ///< a binding cycle fails (fault budget)
  kClearNominations,  ///< an executor job clears lower-priority nominations on its node
  kEvict,             ///< an executor job evicts one victim
  kEvictFails,        ///< an executor job's eviction call fails (fault budget)
  kFinish,            ///< an executor job ends
  kObserve,           ///< the informer delivers the oldest pending watch event
  kTerminate,         ///< the kubelet finishes a terminating pod
  kFlush,             ///< the periodic flush empties the unschedulable pool
  kCreate,            ///< a pod declared `arrives: later` is created
  kDelete,            ///< a user or controller deletes a pod (fault budget `deletions`)
  kRestart,           ///< the scheduler restarts and relists (fault budget `restarts`)
  kCreateNode,        ///< a node declared `arrives: later` is created, with its running pods
  kCycleEnd,          ///< cycle=split: the in-flight pod's cycle applies its decision and ends
  kExternalBind,      ///< another component binds a nominated pending pod to another node
                      ///< (fault budget `external-bindings`)
  kBackoffExpires,    ///< backoff=pop-when-idle|expiry-only: a pod's backoff expires and it
                      ///< leaves backoffQ for activeQ
  kLateBind,          ///< a binding call the scheduler sent before it restarted lands
  kLateEvict,         ///< an eviction the scheduler's executor sent before it restarted lands
  kStatusPatch,       ///< api-calls=dispatched: the API dispatcher executes a pod's queued
                      ///< status patch
  kRecreate,          ///< a controller re-creates its deleted pod (`recreated: true`)
  kPdbSync,           ///< pdb-status=lagged: the disruption controller recounts a PDB and
                      ///< publishes its DisruptionsAllowed
  kBindingPreempted,  ///< binding-victims=in-memory: a victim's binding cycle, preempted in
                      ///< memory by an executor job, wakes and fails
};

/// An action with its arguments: `pod` is the scheduled, bound, terminated, created or
/// deleted pod, or the preemptor whose job steps; `victim` is the evicted pod; `node` is the
/// created node, or the node another component binds `pod` to; for `pdb-sync`, `node` is
/// the PDB's index in the scenario.
struct Action {
  ActionKind kind = ActionKind::kObserve;
  PodId pod = kNoPod;
  PodId victim = kNoPod;
  NodeId node = kNoNode;

  friend bool operator==(const Action&, const Action&) = default;
};

/// The action's keyword as written in counterexamples ("schedule", "evict-fails", …).
std::string_view action_keyword(ActionKind kind);

/// "evict p-high v1": the action as one line, with pod names ("create-node node-b": node;
/// "external-bind p-high node-b": pod and node; "pdb-sync web": a PDB).
std::string format_action(const Action& a, const Cluster& cluster);

/// Parses a line written by format_action; nothing when the keyword or a pod is unknown or
/// the argument count is wrong. `error` receives what was expected.
std::optional<Action> parse_action(std::string_view line, const Cluster& cluster,
                                   std::string* error = nullptr);

}  // namespace preemptcheck
