// World: the whole cluster and the whole scheduler as one copyable value (DESIGN §2). Every
// asynchronous thing is an explicit pending item — a watch event, a binding in flight, an
// executor job — and an Action advances exactly one of them, so the explorer can branch by
// copying. Components keep kube-scheduler's names: API server, informer (lister), cache,
// scheduling queue with the PreEnqueue gate, nominator, evaluator, executor, kubelet. The
// class is one, its members are split over one file per component (step.cc lists them).
// impl/'s types are the project's vocabulary and live in namespace preemptcheck itself.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "impl/action.h"
#include "impl/bounded_vec.h"
#include "impl/cluster.h"
#include "impl/pod_array.h"
#include "impl/world_types.h"

namespace preemptcheck {

/// The version of World::fingerprint()'s digest: raised whenever the same state would digest
/// differently, so that a counterexample file's fingerprints are read against the right one.
/// Scheme 2 added the queue timestamps (World::queue_stamp).
inline constexpr int kFingerprintScheme = 2;

/// Bounds of the World's queues, from the pod limit: a pod is in activeQ at most once and
/// has at most one executor job at a time (a duplicate is merged in the step that makes
/// it, so two per pod bounds the moment between); the watch events pending are bounded by
/// the writes the informer has not yet delivered, two per pod in every scenario explored
/// so far, with room to spare. Past a bound a step throws std::length_error.
inline constexpr std::size_t kMaxActive = kMaxPods;
inline constexpr std::size_t kMaxJobs = 2 * kMaxPods;
inline constexpr std::size_t kMaxEvents = 4 * kMaxPods;
using EventQueue = BoundedVec<WatchEvent, kMaxEvents>;
/// Under the causal watch order the events pending are bits of a 32-bit mask: a step that
/// would leave more pending throws std::length_error.
inline constexpr std::size_t kMaxCausalEvents = 32;
using ActiveQueue = BoundedVec<PodId, kMaxActive>;
using JobList = BoundedVec<Job, kMaxJobs>;
/// A renaming of pods (symmetry reduction, properties/symmetry.h): pod p becomes to[p].
using PodRenaming = std::array<PodId, kMaxPods>;

/// The cluster and the scheduler.
class World {
 public:
  /// The initial world of a scenario: running pods bound and started in list order, pending
  /// pods in activeQ, the informer in sync. The World keeps a pointer to `cluster`, which
  /// must outlive it and every copy (a World is copied as flat bytes).
  explicit World(const Cluster& cluster);
  explicit World(Cluster&&) = delete;

  const Cluster& cluster() const { return *cluster_; }
  const Mechanisms& mechanisms() const { return cluster_->mechanisms(); }

  /// Appends every enabled action, in the deterministic exploration order.
  void enabled_actions(std::vector<Action>& out) const;
  bool is_enabled(const Action& a) const;
  /// Why `a` is not enabled here, in words (e.g. "no watch event is pending"); for an
  /// enabled action the words describe the state and are not meaningful.
  std::string why_not_enabled(const Action& a) const;
  /// Takes one step. Precondition: is_enabled(a).
  StepReport apply(const Action& a);

  /// What a scheduling cycle for pending pod `p` would decide now; changes nothing.
  CycleDecision decide(PodId p) const;

  /// A stable digest of the whole state, under scheme kFingerprintScheme.
  std::uint64_t fingerprint() const;

  /// The World's bytes seen as kImageBlock-byte blocks: bit b is set when block b may
  /// differ between two Worlds of this cluster whose queues are no longer than this one's.
  /// Outside the marked blocks lie the cluster pointer, the per-pod slots past the pod
  /// count and the queue slots past their sizes, which hold the same bytes in every World
  /// of a cluster; a packed encoding need not look there (properties/world_model.h). Derived
  /// from the list of fields (impl/world_fields.h).
  std::uint64_t changeable_blocks() const;
  static constexpr std::size_t kImageBlock = 64;

  /// This World with pod p renamed to[p] in every field that holds or names pods, as the
  /// list of fields says (impl/world_fields.h); `to` is a permutation of the cluster's pods.
  World renamed(const PodRenaming& to) const;
  /// Start order as the model reads it: only compared (earlier is more important), and only
  /// for pods that still exist somewhere (the API server, the informer's view or a pending
  /// watch event). Forgets the start of pods that exist nowhere and numbers the others 0, 1,
  /// 2… in their order, the next start after them (impl/renaming.cc).
  void normalize_starts();
  /// Forgets every start order, even where it decides: unsound, for symmetry's tests only.
  void forget_starts();
  /// The World's members as a list, with what each holds (impl/world_fields.h).
  struct Fields;

  // --- Ground truth: the API server -----------------------------------------------------
  const PodObj& api(PodId p) const { return api_[p]; }
  /// The node a binding call in flight will bind p to.
  NodeId binding(PodId p) const { return binding_[p]; }
  /// The node a binding call sent by the scheduler before its restart would bind p to, if
  /// it was sent and has not landed (`late-bind`; it may never land).
  NodeId late_binding(PodId p) const { return late_binding_[p]; }
  /// Victims whose eviction the scheduler's executor may have sent before its restart and
  /// that have not landed (`late-evict`; each may never land).
  PodSet late_evictions() const { return late_evictions_; }
  /// api-calls=dispatched: the pods with a status patch queued in the API dispatcher, and
  /// the nominatedNodeName each will write (impl/dispatcher.cc).
  PodSet queued_patches() const { return patches_; }
  NodeId queued_patch(PodId p) const { return patch_node_[p]; }
  const EventQueue& events() const { return events_; }
  /// Under the causal watch order (Cluster::watch_order()): the pending events that happen
  /// before events()[i], as bits of their positions in events(). events() is then the
  /// canonical serialization of that order: of the events with no pending predecessor, the
  /// one of the lowest pod first. Always 0 under kFifo.
  std::uint32_t happens_after(std::size_t i) const { return event_after_[i]; }
  /// Under the causal watch order: the pending events that the last step touching pod p's
  /// API object depended on, and the same for the scheduler's side (impl/watch_order.cc).
  std::uint32_t pod_clock(PodId p) const { return pod_clock_[p]; }
  std::uint32_t scheduler_clock() const { return scheduler_clock_; }
  /// The position in events() of the event an `observe` of pod p delivers: the head under
  /// kFifo (p ignored), p's oldest pending event under the causal order; events().size()
  /// when there is none.
  std::size_t delivered_event(PodId p) const;
  /// This World on cluster `fifo` with its pending events in pod order (each pod's own in
  /// their order) and no happens-before bookkeeping: what the serializations of concurrent
  /// writes have in common. The watch order's soundness tests compare states by it.
  World without_serialization(const Cluster& fifo) const;
  /// Fills StepReport::touched_* for `report`, the step just taken from this World's
  /// predecessor. apply() does so under the causal watch order only; the census of
  /// commuting steps (properties/independence_test.cc) calls it under FIFO.
  void record_footprint(StepReport& report) const;
  /// Whether node n exists: it does not arrive later, or its `create-node` has happened.
  bool node_exists(NodeId n) const { return (uncreated_nodes_ & (1u << n)) == 0; }
  /// Whether arrival a has been created (trivially so for Arrival::Kind::kNone). Read off the
  /// creation bits above, so `arrival-order` adds nothing to the state.
  bool has_arrived(const Arrival& a) const;
  /// The PDBs' status as the disruption controller last wrote it and the scheduler's PDB
  /// informer shows it (pdb-status=lagged; empty otherwise): the pods it counted healthy.
  /// One bit a pod, so two PDBs selecting one pod share it (SPEC §2.6).
  PodSet pdb_counted() const { return pdb_counted_; }
  /// The pods declared `arrives: later` not created yet.
  PodSet uncreated() const { return uncreated_; }
  /// binding-victims=in-memory: the victims preempted in memory whose binding cycle has not
  /// yet woken and failed (`binding-preempted V`, SPEC §2.7).
  PodSet preempted_in_memory() const { return preempted_in_memory_; }
  /// binding-victims=in-memory: whether the executor's PreemptPod would reject victim v in
  /// memory (its binding is in flight) rather than delete it through the API.
  bool is_preempted_in_memory(PodId v) const;
  /// PDB b's published DisruptionsAllowed: what the disruption controller's updatePdbStatus
  /// computes from the pods it counted healthy, never below zero.
  int published_disruptions_allowed(std::size_t b) const;
  /// PDB b's matching pods that the API server has running and not terminating: what the
  /// disruption controller would count healthy now.
  PodSet healthy_members(std::size_t b) const;

  // --- The scheduler's view ---------------------------------------------------------------
  const PodObj& lister(PodId p) const { return lister_[p]; }
  NodeId assumed(PodId p) const { return assumed_[p]; }
  NodeId nominated(PodId p) const { return nominated_[p]; }
  const ActiveQueue& active_queue() const { return active_; }
  /// The rank of p's queue timestamp among the queued pods' of its priority (0 the oldest),
  /// or kNoStamp for a pod in no queue. activeQ orders a priority's pods by it (PrioritySort's
  /// Less).
  std::uint8_t queue_stamp(PodId p) const { return stamp_[p]; }
  static constexpr std::uint8_t kNoStamp = 0xff;
  PodSet unschedulable_pool() const { return pool_; }
  /// backoff=pop-when-idle|expiry-only: the pods in backoffQ.
  PodSet backoff_queue() const { return backoff_; }
  /// The pods of backoffQ that a failed binding put there (podErrorBackoffQ), which Pop
  /// never takes early.
  PodSet error_backoff() const { return error_backoff_; }
  PodSet gated() const { return gated_; }
  PodSet preempting() const { return preempting_; }
  PodId last_victim(PodId preemptor) const { return last_victim_[preemptor]; }
  /// inflight=on: victims whose deletion preemptor p's job has been asked for and the
  /// informer does not yet show under way.
  PodSet inflight_victims_of(PodId p) const { return inflight_by_[p]; }
  /// inflight=on: preemptors found not eligible to preempt because their own victims were
  /// still in flight; each is woken when the informer shows the last of them on its way out.
  PodSet waiting_for_own_victims() const { return waiting_; }
  /// The same, for every preemptor but `except`.
  PodSet inflight_victims_except(PodId except) const;
  const JobList& jobs() const { return jobs_; }
  /// cycle=split: the pod whose scheduling cycle has started and not ended, or kNoPod.
  PodId in_flight() const { return in_flight_; }
  /// cycle=split: what the in-flight pod's cycle decided on the view it started with.
  const CycleDecision& in_flight_decision() const { return in_flight_decision_; }
  /// cycle=split: whether an event that may make the in-flight pod schedulable arrived
  /// while it was in flight.
  bool in_flight_event() const { return in_flight_event_; }
  /// cycle=split: the nominatedNodeName of the in-flight pod's object as it was popped, the
  /// copy its failure handler diffs the status patch against (patch-diff=view).
  NodeId in_flight_nominated() const { return in_flight_nominated_; }
  /// The nominatedNodeName of the scheduler's own copy of p: the queue's object, refreshed
  /// by every informer update, or for the pod in flight the object it was popped with.
  NodeId view_nominated(PodId p) const;
  /// Whether job index i holds a worker.
  bool is_running(size_t job) const;

  // --- Faults left in the scenario's budget -------------------------------------------------
  int eviction_failures_left() const { return eviction_failures_left_; }
  int binding_failures_left() const { return binding_failures_left_; }
  int deletions_left() const { return deletions_left_; }
  int restarts_left() const { return restarts_left_; }
  int external_bindings_left() const { return external_bindings_left_; }

  /// Pods the scheduler's cache places on node n: bound in the informer, or assumed.
  PodSet cache_pods(NodeId n) const;
  /// Pods the API server has on node n, plus pods whose binding to n is in flight.
  PodSet ground_pods(NodeId n) const;
  Resources sum_requests(PodSet pods) const;

  /// Whether the PreEnqueue gate holds p back: kube-scheduler's IsPodRunningPreemption.
  bool is_running_preemption(PodId p) const;
  /// Whether nothing but the periodic flush could happen next.
  bool is_quiescent() const;

  /// Whether the filter lets p onto node n once the pods in `removed` are gone, counting
  /// pods nominated to n with priority ≥ p's (Kubernetes' two-pass rule).
  bool fits(PodId p, NodeId n, PodSet removed) const;

  friend bool operator==(const World&, const World&) = default;

 private:
  // api_server.cc
  void write(PodId p, const PodObj& obj, EventType type, StepReport& report);
  /// The failure handler's or the executor's status PATCH of p's nominatedNodeName to
  /// `node`. patch-diff=truth: sent when the API server's value differs; patch-diff=view:
  /// when the scheduler's copy (`view`) differs, and then it writes `node` whatever the API
  /// server holds. A PATCH that changes nothing writes no event.
  void patch_nominated(PodId p, NodeId node, NodeId view, StepReport& report);
  void evict(PodId victim, StepReport& report);
  void land_binding(PodId p, StepReport& report);
  /// A binding call of p to `node` succeeds: nodeName set, nominatedNodeName cleared, the
  /// next start order given, one watch event.
  void write_binding(PodId p, NodeId node, StepReport& report);
  void create(PodId p, StepReport& report);
  void terminate(PodId p, StepReport& report);
  /// A user or controller deletes p: graceful deletion of a bound pod, at once otherwise.
  void delete_pod(PodId p, StepReport& report);
  /// Node n and the running pods the scenario places on it are created.
  void create_node(NodeId n, StepReport& report);
  /// Another component binds pending pod p, nominated elsewhere, to node n.
  void external_bind(PodId p, NodeId n, StepReport& report);
  /// Whether another component may bind p to n now (`external-bind`).
  bool can_bind_externally(PodId p, NodeId n) const;
  /// Whether p is placed by a second scheduler (PodSpec::scheduler), and whether that
  /// scheduler may bind it to n now.
  bool is_second_schedulers(PodId p) const;
  bool second_scheduler_fits(PodId p, NodeId n) const;
  /// Whether p's controller may re-create it now (`recreate`), and does.
  bool can_recreate(PodId p) const;
  void recreate(PodId p, StepReport& report);
  // queue.cc
  void add_to_queue(PodId p, StepReport& report);
  /// p's queue timestamp becomes the newest: newQueuedPodInfo at an Add, or the failure
  /// handler's refresh (AddUnschedulableIfNotPresent).
  void restamp(PodId p);
  /// After every step: forgets the timestamps of pods in no queue (each gets a fresh one on
  /// its way back) and renumbers the rest 0, 1, 2… in their order, within each priority.
  void normalize_stamps();
  /// handleSchedulingFailure's AddUnschedulableIfNotPresent; `event_in_flight`: an event
  /// recorded while p was in flight may make it schedulable (cycle=split).
  void requeue_after_failure(PodId p, bool event_in_flight, StepReport& report);
  void move_all_on_delete(StepReport& report);
  /// Moves the unschedulable pods in `pods` through PreEnqueue (gated ones stay gated).
  void move_unschedulable(PodSet pods, StepReport& report);
  /// PR #129058: the informer saw pod p's nominatedNodeName cleared or changed, or p deleted
  /// with one; moves the unschedulable pods of priority <= p's (p included) through PreEnqueue.
  void move_lower_or_equal(PodId p, StepReport& report);
  /// wake-on-release: held space was given back; every unschedulable pod but `except`
  /// may now fit or preempt.
  void wake_on_release(PodId except, StepReport& report);
  void activate(PodId p, StepReport& report);
  /// requeuePodWithQueueingStrategy for a pod an event moves out of the unschedulable pool:
  /// to backoffQ while it backs off (backoff≠none), to activeQ otherwise; PreEnqueue runs on
  /// the way in, except into backoffQ with backoff=expiry-only.
  void requeue_moved(PodId p, StepReport& report, bool error = false);
  /// backoff≠none: p's backoff expires (flushBackoffQCompleted): from backoffQ to activeQ.
  void expire_backoff(PodId p, StepReport& report);
  void flush(StepReport& report);
  /// addNodeToCache's move for a Node/Add event of node n.
  void move_on_node_add(NodeId n, StepReport& report);
  /// cycle=split: an event that may make the in-flight pod schedulable (`queue`) was
  /// delivered; the queue keeps it for that pod's cycle end.
  void record_in_flight_event(bool queue, StepReport& report);
  // nominator.cc
  /// The nominator's in-memory entry for p; dropping or moving a nomination releases its
  /// space.
  void set_nominated(PodId p, NodeId node, StepReport& report);
  void clear_lower_nominations(PodId preemptor, NodeId node, bool in_memory, StepReport& report);
  // executor.cc
  bool is_job_step_enabled(const Job& job, const Action& a) const;
  size_t find_job(const Action& a) const;
  void enter_last(Job& job);
  void forget_inflight(PodSet victims, StepReport& report);
  void clear_nominations_step(const Action& a, StepReport& report);
  void evict_step(const Action& a, StepReport& report);
  void evict_fails_step(const Action& a, StepReport& report);
  void finish_step(const Action& a, StepReport& report);
  void merge_duplicate_jobs();
  // cycle.cc
  /// Takes p out of the queue for its cycle.
  void pop(PodId p);
  void run_cycle(PodId p, StepReport& report);
  /// cycle=split: pops p and decides on the current view; p is in flight until end_cycle.
  void start_cycle(PodId p, StepReport& report);
  /// Applies decision d of p's cycle (the second half of run_cycle; cycle=split's
  /// `cycle-end`).
  void end_cycle(PodId p, const CycleDecision& d, StepReport& report);
  /// handleBindingCycleError, for a bind call that failed.
  void fail_binding(PodId p, StepReport& report);
  /// The executor's PreemptPod for victim v waiting at Permit or in PreBind: it signals v's
  /// binding cycle and makes no API call.
  void preempt_in_memory(PodId v);
  /// handleBindingCycleError, on v's binding goroutine, for victim v preempted in memory.
  void fail_preempted_binding(PodId v, StepReport& report);
  // informer.cc
  void observe(StepReport& report);
  /// Whether a watch event for p is still queued (the informer has not caught up with p).
  bool has_later_event(PodId p) const;
  // restart.cc
  /// The scheduler process restarts: everything it held in memory is lost, and it relists.
  void restart(StepReport& report);
  /// A binding or an eviction the scheduler sent before its restart lands.
  void late_bind(PodId p, StepReport& report);
  void late_evict(PodId v, StepReport& report);
  // watch_order.cc
  /// The `observe` steps enabled: the head's under kFifo, each deliverable pod's otherwise.
  void enabled_observes(std::vector<Action>& out) const;
  std::string why_observe_not_enabled(const Action& a) const;
  /// Under the causal watch order: removes pending event k, renumbering every mask.
  void drop_event(std::size_t k);
  /// Under the causal watch order, after a step whose new events are events_[from…]: each
  /// happens after what the step's footprint depended on, the clocks advance, and the
  /// pending events are put in their canonical serialization.
  void order_new_events(const StepReport& report, std::size_t from);
  void canonicalize_events();
  // pdb_status.cc
  /// pdb-status=lagged: whether PDB b's published count of healthy pods differs from the
  /// API server's, so that the disruption controller's `pdb-sync` would write a new status.
  bool is_pdb_stale(std::size_t b) const;
  /// pdb-status=lagged: the disruption controller recounts PDB b and publishes its status.
  void sync_pdb(std::size_t b, StepReport& report);
  // dispatcher.cc
  /// api-calls=dispatched: the API dispatcher's add of a status patch of p's
  /// nominatedNodeName to `node`, made from a copy of p that shows `base`.
  void enqueue_patch(PodId p, NodeId node, NodeId base, StepReport& report);
  /// api-calls=dispatched: a binding of p enters p's slot, overwriting a queued patch.
  void enqueue_binding(PodId p, NodeId node);
  /// api-calls=dispatched: the dispatcher executes p's queued status patch.
  void run_patch(PodId p, StepReport& report);
  /// api-calls=dispatched: the informer delivered an update of p showing `nominated`.
  void sync_patch(PodId p, NodeId nominated);

  // Members in order of alignment, so that a World has no padding: its bytes are its value,
  // which lets the packed encoding (properties/world_model.h) compare and store raw bytes.
  // Each is listed, with what it holds, in impl/world_fields.h.
  const Cluster* cluster_;

  // The API server.
  PodArray<PodObj> api_;
  PodArray<NodeId> binding_;
  PodArray<NodeId> late_binding_;
  EventQueue events_;
  PodSet uncreated_ = 0;  ///< pods declared `arrives: later` not created yet

  // The scheduler's view.
  PodArray<PodObj> lister_;
  PodArray<NodeId> assumed_;
  PodArray<NodeId> nominated_;
  PodArray<NodeId> patch_node_;  ///< kNoNode for a pod with no queued patch
  ActiveQueue active_;
  PodSet pool_ = 0;
  PodSet gated_ = 0;
  PodSet preempting_ = 0;
  PodArray<PodId> last_victim_;
  /// The queue timestamp of each pod in activeQ, the unschedulable pool or backoffQ, as its
  /// rank among those of its priority (0 the oldest; kNoStamp for every other pod): see
  /// restamp() and normalize_stamps().
  PodArray<std::uint8_t> stamp_;
  PodArray<PodSet> inflight_by_;
  PodSet waiting_ = 0;
  PodSet backoff_ = 0;
  PodSet error_backoff_ = 0;  ///< the part of backoffQ in podErrorBackoffQ
  PodSet late_evictions_ = 0;
  PodSet patches_ = 0;
  PodSet pdb_counted_ = 0;  ///< pdb-status=lagged: the PDBs' published healthy pods
  /// binding-victims=in-memory: victims an executor job preempted in memory whose binding
  /// cycle has not yet woken from Permit or PreBind (`binding-preempted`).
  PodSet preempted_in_memory_ = 0;
  /// The causal watch order's bookkeeping (happens_after(), pod_clock(), scheduler_clock());
  /// all zero under kFifo.
  std::array<std::uint32_t, kMaxCausalEvents> event_after_{};
  PodArray<std::uint32_t> pod_clock_;
  std::uint32_t scheduler_clock_ = 0;
  /// Under the causal watch order: the position plus one of the event the same step wrote
  /// right after each pending event (0 for none), and of the event the informer must deliver
  /// next once it has delivered the first of one step's writes (must_deliver_): a step writes
  /// atomically, so its events are adjacent in every serialization.
  std::array<std::uint8_t, kMaxCausalEvents> next_in_step_{};
  JobList jobs_;
  CycleDecision in_flight_decision_;

  // One-byte members last.
  std::uint8_t next_start_ = 0;
  std::uint8_t uncreated_nodes_ = 0;  ///< nodes declared `arrives: later` not created yet
  PodId in_flight_ = kNoPod;
  bool in_flight_event_ = false;
  NodeId in_flight_nominated_ = kNoNode;
  std::uint8_t eviction_failures_left_ = 0;
  std::uint8_t binding_failures_left_ = 0;
  std::uint8_t deletions_left_ = 0;
  std::uint8_t restarts_left_ = 0;
  std::uint8_t external_bindings_left_ = 0;
  std::uint8_t must_deliver_ = 0;
  std::array<std::uint8_t, 1> unused_{};  ///< always zero: a World has no padding
};

static_assert(std::is_trivially_copyable_v<World>, "a World is copied as flat bytes");
static_assert(std::has_unique_object_representations_v<World>,
              "a World has no padding bytes: equal Worlds have equal bytes");
static_assert(sizeof(World) <= 64 * World::kImageBlock, "changeable_blocks() has one bit a block");

}  // namespace preemptcheck
