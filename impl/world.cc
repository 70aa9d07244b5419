// World: the scheduler's cycle, its executor, its informer and the cluster around them.
#include "impl/world.h"

#include <algorithm>
#include <cassert>

#include "impl/evaluator.h"

namespace preemptcheck {
namespace {

// A stable 64-bit digest of a sequence of 64-bit words: each word is mixed in FNV-1a
// fashion (xor, multiply, shift) and a final splitmix64 avalanche spreads the result. The
// World packs its fields into words explicitly, so the digest does not depend on memory
// layout, padding or the build.
class Digest {
 public:
  void word(std::uint64_t w) {
    h_ ^= w;
    h_ *= 0x100000001b3ULL;
    h_ ^= h_ >> 29;
  }
  std::uint64_t value() const {
    std::uint64_t z = h_ + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// A PodObj in 32 bits.
std::uint64_t pack(const PodObj& o) {
  return std::uint64_t{o.exists} | std::uint64_t{o.terminating} << 1 |
         std::uint64_t{o.disruption_target} << 2 | std::uint64_t{o.node} << 8 |
         std::uint64_t{o.nominated} << 16 | std::uint64_t{o.start} << 24;
}

}  // namespace

World::World(std::shared_ptr<const Cluster> cluster) : cluster_(std::move(cluster)) {
  const Cluster& c = *cluster_;
  const size_t n = static_cast<size_t>(c.pod_count());
  api_.assign(n, PodObj{});
  binding_.assign(n, kNoNode);
  assumed_.assign(n, kNoNode);
  nominated_.assign(n, kNoNode);
  last_victim_.assign(n, kNoPod);
  chosen_by_.assign(n, 0);
  inflight_by_.assign(n, 0);
  claim_.assign(n, kNoNode);
  eviction_failures_left_ = static_cast<std::uint8_t>(c.scenario().faults.eviction_failures);
  binding_failures_left_ = static_cast<std::uint8_t>(c.scenario().faults.binding_failures);
  for (PodId p = 0; p < n; ++p) {
    const PodSpec& spec = c.scenario().pods[p];
    if (spec.arrives_later) {
      uncreated_ |= pod_bit(p);
      continue;
    }
    api_[p].exists = true;
    if (!spec.node.empty()) {
      api_[p].node = *c.find_node(spec.node);
      api_[p].start = next_start_++;
    }
  }
  lister_ = api_;  // the informer has synced before the first cycle
  StepReport ignored;
  for (PodId p = 0; p < n; ++p) {
    if (api_[p].exists && api_[p].node == kNoNode) add_to_queue(p, ignored);
  }
}

// --- Views --------------------------------------------------------------------------------

PodSet World::cache_pods(NodeId n) const {
  PodSet out = 0;
  for (PodId p = 0; p < lister_.size(); ++p) {
    if ((lister_[p].exists && lister_[p].node == n) || assumed_[p] == n) out |= pod_bit(p);
  }
  return out;
}

PodSet World::ground_pods(NodeId n) const {
  PodSet out = 0;
  for (PodId p = 0; p < api_.size(); ++p) {
    if (api_[p].exists && (api_[p].node == n || binding_[p] == n)) out |= pod_bit(p);
  }
  return out;
}

Resources World::sum_requests(PodSet pods) const {
  Resources r;
  for (PodId p : pods_in(pods)) r += cluster_->request(p);
  return r;
}

PodSet World::pending_victims() const {
  PodSet out = 0;
  for (PodSet s : chosen_by_) out |= s;
  return out;
}

bool World::is_running(size_t job) const {
  const int workers = cluster_->scenario().workers;
  return workers == 0 || job < static_cast<size_t>(workers);
}

bool World::is_quiescent() const {
  if (!active_.empty() || !events_.empty() || !jobs_.empty() || uncreated_ != 0) return false;
  for (PodId p = 0; p < api_.size(); ++p) {
    if (binding_[p] != kNoNode || (api_[p].exists && api_[p].terminating)) return false;
  }
  return true;
}

bool World::is_pending(PodId p) const {
  return has_pod(pool_, p) || std::find(active_.begin(), active_.end(), p) != active_.end();
}

bool World::fits(PodId p, NodeId n, PodSet removed) const {
  const Cluster& c = *cluster_;
  Resources used = sum_requests(cache_pods(n) & ~removed);
  // RunFilterPluginsWithNominatedPods: pods nominated to n with priority ≥ p's count as if
  // already there. Filters must pass with and without them; for resources, with them is the
  // stricter of the two passes.
  for (PodId q = 0; q < nominated_.size(); ++q) {
    if (q != p && nominated_[q] == n && c.priority(q) >= c.priority(p)) used += c.request(q);
  }
  used += c.request(p);
  return used.fits_in(c.capacity(n));
}

bool World::is_running_preemption(PodId p) const {
  const Mechanisms& m = mechanisms();
  if (m.inflight == Inflight::kOff) return false;  // --inflight=off: nothing is gated
  if (!has_pod(preempting_, p)) return false;
  // gate=hold-until-done: the gate opens only when the job has ended. The last victim's
  // delete event then arrives while the preemptor is still gated and is used up: a lost
  // wake-up unless the job activates the preemptor when it finishes.
  // gate=release-before-last (#128170): the job left the set before the last delete, so
  // membership alone is the answer — and the preemptor may preempt the last victim again
  // while that delete is still in flight (#134249).
  if (m.gate != Gate::kLastVictim) return true;
  // gate=last-victim (#134730): the job stays in the set, but the gate opens as soon as the
  // informer shows the last victim terminating or gone; its delete event then always
  // arrives after the gate opened.
  PodId last = last_victim_[p];
  if (last == kNoPod) return true;
  const PodObj& v = lister_[last];
  return v.exists && !v.terminating;
}

// --- Enabled actions ------------------------------------------------------------------------

bool World::is_job_step_enabled(const Job& job, const Action& a) const {
  const bool can_fail = eviction_failures_left_ > 0;
  switch (a.kind) {
    case ActionKind::kClearNominations:
      return job.phase == JobPhase::kClear;
    case ActionKind::kEvict:
      return (job.phase == JobPhase::kEvicting && has_pod(job.pending, a.victim)) ||
             (job.phase == JobPhase::kLast && job.last == a.victim);
    case ActionKind::kEvictFails:
      return can_fail && ((job.phase == JobPhase::kEvicting && has_pod(job.pending, a.victim)) ||
                          (job.phase == JobPhase::kLast && job.last == a.victim));
    case ActionKind::kFinish:
      return job.phase == JobPhase::kFinish;
    case ActionKind::kSchedule:
    case ActionKind::kBind:
    case ActionKind::kBindFails:
    case ActionKind::kObserve:
    case ActionKind::kTerminate:
    case ActionKind::kFlush:
    case ActionKind::kCreate:
      return false;
  }
  return false;
}

size_t World::find_job(const Action& a) const {
  for (size_t i = 0; i < jobs_.size(); ++i) {
    if (!is_running(i)) break;
    if (jobs_[i].preemptor == a.pod && is_job_step_enabled(jobs_[i], a)) return i;
  }
  return jobs_.size();
}

void World::enabled_actions(std::vector<Action>& out) const {
  const size_t n = api_.size();
  if (!active_.empty()) out.push_back({ActionKind::kSchedule, active_.front(), kNoPod});
  for (PodId p = 0; p < n; ++p) {
    if (binding_[p] == kNoNode) continue;
    out.push_back({ActionKind::kBind, p, kNoPod});
    if (binding_failures_left_ > 0 && api_[p].exists) {
      out.push_back({ActionKind::kBindFails, p, kNoPod});
    }
  }
  for (size_t i = 0; i < jobs_.size() && is_running(i); ++i) {
    const Job& job = jobs_[i];
    // A preemptor with two jobs (possible with --inflight=off) steps the older one first
    // when both could take the same step; skip the duplicate.
    bool shadowed = false;
    for (size_t j = 0; j < i; ++j) {
      if (jobs_[j].preemptor == job.preemptor && jobs_[j].phase == job.phase) shadowed = true;
    }
    if (shadowed) continue;
    switch (job.phase) {
      case JobPhase::kClear:
        out.push_back({ActionKind::kClearNominations, job.preemptor, kNoPod});
        break;
      case JobPhase::kEvicting:
        for (PodId v : pods_in(job.pending)) {
          out.push_back({ActionKind::kEvict, job.preemptor, v});
          if (eviction_failures_left_ > 0) {
            out.push_back({ActionKind::kEvictFails, job.preemptor, v});
          }
        }
        break;
      case JobPhase::kLast:
        out.push_back({ActionKind::kEvict, job.preemptor, job.last});
        if (eviction_failures_left_ > 0) {
          out.push_back({ActionKind::kEvictFails, job.preemptor, job.last});
        }
        break;
      case JobPhase::kFinish:
        out.push_back({ActionKind::kFinish, job.preemptor, kNoPod});
        break;
    }
  }
  if (!events_.empty()) out.push_back({ActionKind::kObserve, kNoPod, kNoPod});
  for (PodId p = 0; p < n; ++p) {
    if (api_[p].exists && api_[p].terminating) out.push_back({ActionKind::kTerminate, p, kNoPod});
  }
  for (PodId p : pods_in(uncreated_)) out.push_back({ActionKind::kCreate, p, kNoPod});
  // The flush moves pods that waited five minutes. The model has no clock; it assumes only
  // that the informer delivers faster than that, so the flush waits for an empty event
  // queue. Executor jobs and bindings may still be in flight (API calls can be throttled
  // for minutes, #134249).
  if (pool_ != 0 && events_.empty()) out.push_back({ActionKind::kFlush, kNoPod, kNoPod});
}

bool World::is_enabled(const Action& a) const {
  std::vector<Action> all;
  enabled_actions(all);
  return std::find(all.begin(), all.end(), a) != all.end();
}

// --- API server -------------------------------------------------------------------------------

void World::write(PodId p, const PodObj& obj, EventType type) {
  api_[p] = obj;
  if (type == EventType::kDeleted) {
    api_[p].exists = false;
    // A pod that is gone is no longer anyone's pending victim.
    for (PodSet& s : chosen_by_) s &= ~pod_bit(p);
    claim_[p] = kNoNode;
  }
  events_.push_back({type, p, api_[p]});
}

void World::patch_nominated(PodId p, NodeId node) {
  // The status PATCH is sent only when the value differs.
  if (!api_[p].exists || api_[p].nominated == node) return;
  PodObj obj = api_[p];
  obj.nominated = node;
  write(p, obj, EventType::kModified);
}

void World::evict(PodId v, StepReport& report) {
  PodObj obj = api_[v];
  if (!obj.exists) {
    report.no_op = true;  // NotFound counts as success
    return;
  }
  if (obj.node == kNoNode) {
    // A pod that is not bound (its binding is still in flight) is deleted at once: no kubelet
    // has to stop it.
    obj.disruption_target = true;
    write(v, obj, EventType::kDeleted);
    return;
  }
  if (obj.terminating && obj.disruption_target) {
    report.no_op = true;  // the condition is already set and the deletion already started
    return;
  }
  obj.disruption_target = true;
  obj.terminating = true;
  write(v, obj, EventType::kModified);
}

// --- Scheduling queue --------------------------------------------------------------------------

void World::add_to_queue(PodId p, StepReport& report) {
  // PreEnqueue: DefaultPreemption keeps a pod that is running preemption out of activeQ.
  if (is_running_preemption(p)) {
    pool_ |= pod_bit(p);
    gated_ |= pod_bit(p);
    return;
  }
  pool_ &= ~pod_bit(p);
  gated_ &= ~pod_bit(p);
  // activeQ: priority, then arrival.
  const Cluster& c = *cluster_;
  auto at = std::find_if(active_.begin(), active_.end(),
                         [&](PodId q) { return c.priority(q) < c.priority(p); });
  active_.insert(at, p);
  report.moved |= pod_bit(p);
}

void World::requeue_after_failure(PodId p, StepReport& report) {
  // AddUnschedulableIfNotPresent: no event arrived while the (atomic) cycle ran, so the pod
  // goes to the unschedulable pool — gated if PreEnqueue says its preemption is running.
  pool_ |= pod_bit(p);
  if (is_running_preemption(p)) {
    gated_ |= pod_bit(p);
    report.gated = true;
  } else {
    gated_ &= ~pod_bit(p);
  }
}

void World::move_all_on_delete(StepReport& report) {
  // An assigned pod was deleted: NodeResourcesFit's hint queues every pod it rejected.
  move_unschedulable(pool_, report);
}

void World::move_unschedulable(PodSet pods, StepReport& report) {
  // Gated pods see the event too (DefaultPreemption registers Pod/Delete) and run PreEnqueue
  // again; a pod still running preemption stays gated and the event is used up.
  for (PodId p : pods_in(pods)) {
    if (has_pod(gated_, p) && is_running_preemption(p)) {
      report.consumed |= pod_bit(p);
      continue;
    }
    add_to_queue(p, report);
  }
}

void World::wake_on_release(PodId except, StepReport& report) {
  // kube-scheduler has no event for a nomination that disappears or for victims a failed
  // eviction gives back: a pod rejected only because of them waits for the five-minute
  // flush. Off with --wake-on-release=off.
  if (!mechanisms().wake_on_release) return;
  PodSet pods = pool_;
  if (except != kNoPod) pods &= ~pod_bit(except);
  move_unschedulable(pods, report);
}

void World::set_nominated(PodId p, NodeId node, StepReport& report) {
  const NodeId old = nominated_[p];
  nominated_[p] = node;
  if (old != kNoNode && old != node) wake_on_release(p, report);
}

void World::activate(PodId p, StepReport& report) {
  if (has_pod(pool_, p)) add_to_queue(p, report);
}

// --- Nominations and the executor ----------------------------------------------------------------

void World::clear_lower_nominations(PodId preemptor, NodeId node, bool in_memory,
                                    StepReport& report) {
  const Cluster& c = *cluster_;
  for (PodId q = 0; q < nominated_.size(); ++q) {
    if (q == preemptor || nominated_[q] != node || c.priority(q) >= c.priority(preemptor)) {
      continue;
    }
    report.cleared |= pod_bit(q);
    claim_[q] = kNoNode;
    if (in_memory) set_nominated(q, kNoNode, report);
    patch_nominated(q, kNoNode);
  }
}

void World::enter_last(Job& job) {
  job.phase = JobPhase::kLast;
  // lastVictimsPendingPreemption is written just before the last victim's delete call.
  last_victim_[job.preemptor] = job.last;
  // gate=release-before-last (#128170): the preemptor left the in-flight set here.
  if (mechanisms().gate == Gate::kReleaseBeforeLast) preempting_ &= ~pod_bit(job.preemptor);
}

void World::forget_inflight(PodSet victims, StepReport& report) {
  for (PodId q = 0; q < inflight_by_.size(); ++q) {
    if ((inflight_by_[q] & victims) == 0) continue;
    inflight_by_[q] &= ~victims;
    // A preemptor that waits for its own victims (PodEligibleToPreemptOthers under
    // inflight=on) is woken when the informer shows the last of them on its way out.
    if (inflight_by_[q] == 0 && has_pod(waiting_, q)) {
      waiting_ &= ~pod_bit(q);
      activate(q, report);
    }
  }
}

PodSet World::inflight_victims_except(PodId except) const {
  PodSet out = 0;
  for (PodId q = 0; q < inflight_by_.size(); ++q) {
    if (q != except) out |= inflight_by_[q];
  }
  return out;
}

// --- The scheduling cycle ------------------------------------------------------------------------

CycleDecision World::decide(PodId p) const {
  const Cluster& c = *cluster_;
  CycleDecision d;
  // Filter, the nominated node first (evaluateNominatedNode), then every node in scenario
  // order; scoring among several fitting nodes is abstracted to the first.
  NodeId nominated = lister_[p].nominated;
  if (nominated != kNoNode && fits(p, nominated, 0)) {
    d.kind = CycleDecision::Kind::kBind;
    d.node = nominated;
    return d;
  }
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if (fits(p, n, 0)) {
      d.kind = CycleDecision::Kind::kBind;
      d.node = n;
      return d;
    }
  }
  // PostFilter: DefaultPreemption.
  if (!is_eligible_to_preempt(*this, p)) {
    d.kind = CycleDecision::Kind::kIneligible;
    return d;
  }
  PodSet pending = 0;
  for (PodId q = 0; q < chosen_by_.size(); ++q) {
    if (q != p) pending |= chosen_by_[q];
  }
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if ((cache_pods(n) & pending) != 0 && c.request(p).fits_in(c.capacity(n))) {
      d.evaluated_busy |= PodSet{1} << n;
    }
  }
  std::vector<Candidate> candidates = dry_run_preemption(*this, p);
  if (candidates.empty()) {
    d.kind = CycleDecision::Kind::kNoCandidate;
    return d;
  }
  const Candidate& best = candidates[pick_one_node(*this, candidates)];
  d.kind = CycleDecision::Kind::kPreempt;
  d.node = best.node;
  for (PodId v : best.victims) {
    d.victims |= pod_bit(v);
    // prepareCandidate(Async) skips victims whose graceful deletion has already started.
    if (!lister_[v].terminating) d.to_evict |= pod_bit(v);
  }
  return d;
}

void World::run_cycle(PodId p, StepReport& report) {
  const Mechanisms& m = mechanisms();
  const Cluster& c = *cluster_;
  active_.erase(active_.begin());
  waiting_ &= ~pod_bit(p);
  CycleDecision d = decide(p);
  report.cycle = true;
  report.pod = p;
  report.decision = d;

  switch (d.kind) {
    case CycleDecision::Kind::kBind:
      binding_[p] = d.node;
      // assume: the cache counts the pod on its node before the bind call lands, so the
      // next cycle cannot give the same space away. Off with --assume=off.
      if (m.assume) assumed_[p] = d.node;
      // The nominator forgets an assumed pod; its space on its nominated node is now the
      // pod's own, so only a nomination to another node is released.
      if (nominated_[p] == d.node) {
        nominated_[p] = kNoNode;
      } else {
        set_nominated(p, kNoNode, report);
      }
      claim_[p] = kNoNode;
      return;
    case CycleDecision::Kind::kIneligible:
      requeue_after_failure(p, report);
      if (m.inflight == Inflight::kOn && inflight_by_[p] != 0) waiting_ |= pod_bit(p);
      return;
    case CycleDecision::Kind::kNoCandidate:
      // PostFilter returns an empty nominated node: the failure handler clears the
      // nomination in memory and in the API.
      requeue_after_failure(p, report);
      set_nominated(p, kNoNode, report);
      claim_[p] = kNoNode;
      patch_nominated(p, kNoNode);
      return;
    case CycleDecision::Kind::kPreempt:
      break;
  }

  for (PodId v : pods_in(d.to_evict)) chosen_by_[p] |= pod_bit(v);
  const std::vector<PodId> victims = [&] {
    // Most important first; the executor deletes the last (least important) alone.
    std::vector<PodId> v;
    for (PodId q : pods_in(d.to_evict)) v.push_back(q);
    std::sort(v.begin(), v.end(), [&](PodId a, PodId b) { return is_more_important(*this, a, b); });
    return v;
  }();

  if (m.deletion == Timing::kSync) {
    // deletion=sync (before KEP-4832): prepareCandidate deletes every victim inside the
    // cycle, then clears the lower-priority nominations.
    for (PodId v : victims) evict(v, report);
    clear_lower_nominations(p, d.node, m.clear_lower == Timing::kSync, report);
  } else {
    // clear-lower=sync: lower-priority nominees lose their claim on the node inside the
    // cycle, before any later cycle can count them. Off with --clear-lower=async, where
    // only the executor's patches, once observed, clear them.
    if (m.clear_lower == Timing::kSync) clear_lower_nominations(p, d.node, true, report);
    if (!victims.empty()) {
      // The in-flight set is written before the cycle ends, so the failure handler's
      // PreEnqueue below already gates the preemptor. Off with --inflight=off.
      if (m.inflight != Inflight::kOff) preempting_ |= pod_bit(p);
      if (m.inflight == Inflight::kOn) inflight_by_[p] |= d.to_evict;
      Job job;
      job.preemptor = p;
      job.node = d.node;
      job.last = victims.back();
      for (size_t i = 0; i + 1 < victims.size(); ++i) job.pending |= pod_bit(victims[i]);
      if (m.clear_lower == Timing::kAsync) {
        job.phase = JobPhase::kClear;
      } else if (job.pending != 0) {
        job.phase = JobPhase::kEvicting;
      } else {
        job.phase = JobPhase::kLast;
      }
      jobs_.push_back(job);
      if (job.phase == JobPhase::kLast) enter_last(jobs_.back());
    }
  }

  // handleSchedulingFailure: requeue (PreEnqueue gates the preemptor), then the nomination.
  requeue_after_failure(p, report);
  // nomination=sync: AddNominatedPod writes the claim in memory before the cycle ends, so
  // the very next cycle counts it. Off with --nomination=async: the nominator learns it only
  // when the status patch is observed.
  if (m.nomination == Timing::kSync) set_nominated(p, d.node, report);
  // A pod deleted while the scheduler still saw it (its binding was in flight when it was
  // evicted) claims nothing: the status patch finds no pod.
  claim_[p] = api_[p].exists ? d.node : kNoNode;
  patch_nominated(p, d.node);
  (void)c;
}

// --- The informer -------------------------------------------------------------------------------

void World::observe(StepReport& report) {
  WatchEvent e = events_.front();
  events_.erase(events_.begin());
  report.event = e;
  const PodId p = e.pod;
  const PodObj old = lister_[p];
  switch (e.type) {
    case EventType::kAdded:
      lister_[p] = e.obj;
      add_to_queue(p, report);
      return;
    case EventType::kModified: {
      lister_[p] = e.obj;
      if (old.node == kNoNode && e.obj.node != kNoNode) {
        // The bind landed: the cache confirms the assumed pod, the nominator drops it.
        assumed_[p] = kNoNode;
        if (nominated_[p] == e.obj.node) {
          nominated_[p] = kNoNode;
        } else {
          set_nominated(p, kNoNode, report);
        }
      } else if (e.obj.node == kNoNode && assumed_[p] == kNoNode &&
                 !(old.nominated == kNoNode && e.obj.nominated == kNoNode) &&
                 !(mechanisms().stale_nominations_ignored && has_later_event(p))) {
        // UpdateNominatedPod follows the API's nominatedNodeName, except that an update
        // without one keeps an in-memory nomination made before the patch landed. Updates of
        // an assumed pod do not reach the queue or the nominator at all.
        // stale-nomination=ignore: an update older than the scheduler's own latest write of
        // this pod (a later event for it is still queued) does not overwrite the newer
        // in-memory nomination; otherwise a pod nominated twice in quick succession falls
        // back to its old node for a while and its new space looks free to the next cycle.
        // Off with --stale-nomination=apply (kube-scheduler).
        set_nominated(p, e.obj.nominated, report);
      }
      // The scheduler now sees the deletion under way; the DeletionTimestamp skip takes over
      // from the in-flight set for this victim.
      if (e.obj.terminating) forget_inflight(pod_bit(p), report);
      return;
    }
    case EventType::kDeleted: {
      lister_[p] = e.obj;
      lister_[p].exists = false;
      const bool was_assigned = old.node != kNoNode || assumed_[p] != kNoNode;
      // The cache forgets a deleted pod even while its binding is in flight (#134157).
      assumed_[p] = kNoNode;
      forget_inflight(pod_bit(p), report);
      pool_ &= ~pod_bit(p);
      gated_ &= ~pod_bit(p);
      waiting_ &= ~pod_bit(p);
      active_.erase(std::remove(active_.begin(), active_.end(), p), active_.end());
      if (was_assigned) {
        nominated_[p] = kNoNode;
        move_all_on_delete(report);
      } else {
        set_nominated(p, kNoNode, report);  // a nominated pending pod is gone
      }
      return;
    }
  }
}

// --- One step -------------------------------------------------------------------------------------

StepReport World::apply(const Action& a) {
  StepReport report;
  report.action = a;
  switch (a.kind) {
    case ActionKind::kSchedule:
      assert(!active_.empty() && active_.front() == a.pod && "schedule takes the head of activeQ");
      run_cycle(a.pod, report);
      break;
    case ActionKind::kBind: {
      NodeId node = binding_[a.pod];
      binding_[a.pod] = kNoNode;
      if (!api_[a.pod].exists) {
        // The pod was deleted while its binding was in flight: the bind fails and the
        // cache forgets it, freeing its space.
        report.binding_lost = true;
        if (assumed_[a.pod] != kNoNode) {
          assumed_[a.pod] = kNoNode;
          move_all_on_delete(report);
        }
        break;
      }
      PodObj obj = api_[a.pod];
      obj.node = node;
      obj.nominated = kNoNode;
      obj.start = next_start_++;
      write(a.pod, obj, EventType::kModified);
      break;
    }
    case ActionKind::kBindFails:
      --binding_failures_left_;
      binding_[a.pod] = kNoNode;
      // handleBindingCycleError: forget the assumed pod, tell the queue its space is free,
      // and send the pod back to activeQ.
      if (assumed_[a.pod] != kNoNode) {
        assumed_[a.pod] = kNoNode;
        move_all_on_delete(report);
      }
      add_to_queue(a.pod, report);
      break;
    case ActionKind::kClearNominations: {
      Job& job = jobs_[find_job(a)];
      clear_lower_nominations(job.preemptor, job.node, false, report);
      if (job.pending != 0) {
        job.phase = JobPhase::kEvicting;
      } else {
        enter_last(job);
      }
      break;
    }
    case ActionKind::kEvict: {
      Job& job = jobs_[find_job(a)];
      evict(a.victim, report);
      if (job.phase == JobPhase::kLast) {
        job.phase = JobPhase::kFinish;
      } else {
        job.pending &= ~pod_bit(a.victim);
        if (job.pending == 0) enter_last(job);
      }
      break;
    }
    case ActionKind::kEvictFails: {
      Job& job = jobs_[find_job(a)];
      --eviction_failures_left_;
      // The first error cancels the other deletions, and the last victim is skipped
      // (#135495): those victims are no longer chosen.
      PodSet abandoned = job.pending | pod_bit(job.last);
      if (job.phase == JobPhase::kLast) abandoned = pod_bit(job.last);
      job.failed = true;
      job.phase = JobPhase::kFinish;
      job.pending = 0;
      chosen_by_[job.preemptor] &= ~abandoned;
      // Victims kept from every other preemptor (inflight=on) are free to choose again.
      if ((inflight_by_[job.preemptor] & abandoned) != 0) {
        inflight_by_[job.preemptor] &= ~abandoned;
        wake_on_release(kNoPod, report);
      }
      break;
    }
    case ActionKind::kFinish: {
      size_t i = find_job(a);
      Job job = jobs_[i];
      jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(i));
      bool other_job = false;
      for (const Job& j : jobs_) other_job = other_job || j.preemptor == job.preemptor;
      if (!other_job) {
        preempting_ &= ~pod_bit(job.preemptor);
        last_victim_[job.preemptor] = kNoPod;
      }
      // Activate on error (so a failed job cannot strand the preemptor); with
      // activate-on-finish=on also on success (PR #142294), so a delete event used up while
      // the preemptor was gated cannot strand it either. Off with --activate-on-finish=off.
      if (job.failed || mechanisms().activate_on_finish) activate(job.preemptor, report);
      break;
    }
    case ActionKind::kObserve:
      observe(report);
      break;
    case ActionKind::kTerminate: {
      PodObj obj = api_[a.pod];
      write(a.pod, obj, EventType::kDeleted);
      break;
    }
    case ActionKind::kFlush:
      // flushUnschedulablePodsLeftover: every pod leaves the pool through PreEnqueue; a pod
      // still running preemption stays gated (#139162).
      for (PodId p : pods_in(pool_)) {
        if (is_running_preemption(p)) continue;
        add_to_queue(p, report);
      }
      break;
    case ActionKind::kCreate: {
      PodObj obj;
      obj.exists = true;
      uncreated_ &= ~pod_bit(a.pod);
      write(a.pod, obj, EventType::kAdded);
      break;
    }
  }
  merge_duplicate_jobs();
  return report;
}

void World::merge_duplicate_jobs() {
  // Two jobs of one preemptor at the same point with the same victims would issue the same
  // calls; the later one is merged into the earlier. Without a gate (--inflight=off, or
  // --gate=release-before-last) a preemptor can repeat its preemption again and again, and
  // this keeps the state space finite. Each repeat was already seen by the
  // no-double-victim check when it was decided.
  for (size_t i = 1; i < jobs_.size(); ++i) {
    if (std::find(jobs_.begin(), jobs_.begin() + static_cast<std::ptrdiff_t>(i), jobs_[i]) !=
        jobs_.begin() + static_cast<std::ptrdiff_t>(i)) {
      jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(i));
      --i;
    }
  }
}

bool World::has_later_event(PodId p) const {
  for (const WatchEvent& e : events_) {
    if (e.pod == p) return true;
  }
  return false;
}

// --- Fingerprint ------------------------------------------------------------------------------------

std::uint64_t World::fingerprint() const {
  Digest d;
  const size_t n = api_.size();
  for (size_t p = 0; p < n; ++p) {
    d.word(pack(api_[p]) | pack(lister_[p]) << 32);
    d.word(std::uint64_t{binding_[p]} | std::uint64_t{assumed_[p]} << 8 |
           std::uint64_t{nominated_[p]} << 16 | std::uint64_t{last_victim_[p]} << 24 |
           std::uint64_t{claim_[p]} << 32);
    d.word(std::uint64_t{chosen_by_[p]} | std::uint64_t{inflight_by_[p]} << 32);
  }
  d.word(events_.size() | std::uint64_t{next_start_} << 32 |
         std::uint64_t{eviction_failures_left_} << 40 | std::uint64_t{binding_failures_left_} << 48);
  for (const WatchEvent& e : events_) {
    d.word(static_cast<std::uint64_t>(e.type) | std::uint64_t{e.pod} << 8 | pack(e.obj) << 16);
  }
  d.word(active_.size());
  for (PodId p : active_) d.word(p);
  d.word(std::uint64_t{pool_} | std::uint64_t{gated_} << 32);
  d.word(std::uint64_t{preempting_} | std::uint64_t{uncreated_} << 32);
  d.word(waiting_);
  d.word(jobs_.size());
  for (const Job& j : jobs_) {
    d.word(std::uint64_t{j.preemptor} | std::uint64_t{j.node} << 8 |
           static_cast<std::uint64_t>(j.phase) << 16 | std::uint64_t{j.failed} << 24 |
           std::uint64_t{j.last} << 32);
    d.word(j.pending);
  }
  return d.value();
}

}  // namespace preemptcheck
