// The values a World is made of and a step reports: pod objects, watch events, executor jobs,
// a cycle's decision, and the report of one step (impl/world.h holds the World itself).
#pragma once

#include <array>
#include <cstdint>

#include "impl/action.h"
#include "impl/cluster.h"

namespace preemptcheck {

/// A pod object as the API server stores it, and as the informer last delivered it.
struct PodObj {
  bool exists = false;             ///< created and not yet deleted
  NodeId node = kNoNode;           ///< spec.nodeName
  NodeId nominated = kNoNode;      ///< status.nominatedNodeName
  bool terminating = false;        ///< metadata.deletionTimestamp is set
  bool disruption_target = false;  ///< DisruptionTarget=True, reason PreemptionByScheduler
  std::uint8_t start = 0xff;       ///< start order once running; earlier is more important

  friend bool operator==(const PodObj&, const PodObj&) = default;
};

enum class EventType : std::uint8_t { kAdded, kModified, kDeleted };

/// A watch event: the object as it was written.
struct WatchEvent {
  EventType type = EventType::kModified;
  PodId pod = kNoPod;
  PodObj obj;

  friend bool operator==(const WatchEvent&, const WatchEvent&) = default;
};

/// Where an executor job is: kube-scheduler's prepareCandidateAsync goroutine.
enum class JobPhase : std::uint8_t {
  kClear,     ///< clear lower-priority nominations (clear-lower=async)
  kEvicting,  ///< evict every victim but the last, in any order
  kLast,      ///< evict the last victim, alone
  kFinish,    ///< leave the in-flight set; activate the preemptor on error
};

/// One preemption's asynchronous work.
struct Job {
  PodId preemptor = kNoPod;
  NodeId node = kNoNode;
  JobPhase phase = JobPhase::kClear;
  bool failed = false;
  PodSet pending = 0;                    ///< victims but the last still to evict
  PodId last = kNoPod;                   ///< the last victim, evicted alone
  bool last_in_memory = false;           ///< the last victim was preempted in memory
  std::array<std::uint8_t, 2> unused{};  ///< always zero: a Job has no padding (see World)

  friend bool operator==(const Job&, const Job&) = default;
};

/// What one scheduling cycle decides for a pod.
struct CycleDecision {
  enum class Kind : std::uint8_t {
    kBind,         ///< fits: assume on `node` and start binding
    kPreempt,      ///< preempt `victims` on `node` and nominate the pod there
    kNoCandidate,  ///< nothing fits and no node can be freed: the nomination is cleared
    kIneligible,   ///< PodEligibleToPreemptOthers said no: nothing changes
  };
  Kind kind = Kind::kNoCandidate;
  NodeId node = kNoNode;
  /// The PDB violations kube-scheduler's rules counted for the chosen candidate
  /// (filterPodsWithPDBViolation, as the scheduler reads the PDBs' budgets).
  std::uint8_t pdb_violations = 0;
  std::uint8_t unused = 0;  ///< always zero: no padding (see World)
  PodSet victims = 0;       ///< every victim of the chosen candidate
  PodSet to_evict = 0;      ///< victims without a deletionTimestamp in the informer

  friend bool operator==(const CycleDecision&, const CycleDecision&) = default;
};

/// What a step did, for property monitors and for the one-line comments of a trace. It is
/// the only channel from the scheduler to what the monitors remember (spec/ledger.h).
struct StepReport {
  Action action;
  /// Set when a cycle ran: the pod, and its decision.
  bool cycle = false;
  PodId pod = kNoPod;
  CycleDecision decision;
  bool gated = false;         ///< the preemptor went back to the queue gated
  PodSet cleared = 0;         ///< lower-priority nominations cleared by this step
  PodSet moved = 0;           ///< pods moved to activeQ (or backoffQ) by this step
  PodSet backed_off = 0;      ///< those of `moved` that went to backoffQ
  PodSet consumed = 0;        ///< gated pods that saw this step's event and stayed gated
  bool no_op = false;         ///< an API call that changed nothing (NotFound, already set)
  bool binding_lost = false;  ///< a bind whose pod had been deleted meanwhile
  PodSet deleted = 0;         ///< pods this step deleted from the API server
  PodSet abandoned = 0;       ///< victims a failed eviction or a restart gave up (not evicted)
  PodSet in_memory = 0;       ///< victims preempted in memory: their binding cycle failed
  WatchEvent event;           ///< the event an `observe` delivered
  /// cycle=split: the in-flight pod for which this step recorded an event that may make it
  /// schedulable (kNoPod when none was recorded).
  PodId recorded_for = kNoPod;
  /// cycle=split, at `cycle-end`: an event recorded while the pod was in flight requeued it.
  bool requeued_in_flight = false;
  /// `observe`: the step read whether another event of the delivered pod was still pending
  /// (stale-nomination=ignore), so it depends on that pod's later writes.
  bool read_later_event = false;
  /// The step's footprint, which orders the watch events it writes under the causal watch
  /// order (impl/watch_order.cc; filled by World::record_footprint): whether it read or wrote the
  /// scheduler's side of the World (every step but a kubelet's), and the pods whose API object or
  /// monitor memory it read or wrote. Two steps with disjoint footprints commute.
  bool touched_scheduler = false;
  PodSet touched_pods = 0;
};

}  // namespace preemptcheck
