// Executor: one job per preemption, kube-scheduler's prepareCandidateAsync goroutine —
// clear lower-priority nominations (clear-lower=async), evict every victim but the last,
// evict the last alone, then leave the in-flight set. Deleting the last victim alone lets
// the PreEnqueue gate tell when the victims are on their way out (gate); the in-flight set
// keeps victims whose deletion has not yet shown in the informer from being chosen again
// (inflight); activating the preemptor when the job ends closes the lost wake-up of a
// delete event used up while it was gated (activate-on-finish). A victim whose binding is
// in flight may be preempted in memory instead of deleted (binding-victims), and then no
// deletion event ever shows it gone: the job activates its preemptor when that victim was
// the last (activate-in-memory).
#include "impl/world.h"

#include <algorithm>

namespace preemptcheck {

bool World::is_job_step_enabled(const Job& job, const Action& a) const {
  const bool can_fail = eviction_failures_left_ > 0;
  switch (a.kind) {
    case ActionKind::kClearNominations:
      return job.phase == JobPhase::kClear;
    case ActionKind::kEvict:
      return (job.phase == JobPhase::kEvicting && has_pod(job.pending, a.victim)) ||
             (job.phase == JobPhase::kLast && job.last == a.victim);
    case ActionKind::kEvictFails:
      // A victim rejected in memory makes no API call that could fail (as enabled_actions).
      return can_fail && !is_preempted_in_memory(a.victim) &&
             ((job.phase == JobPhase::kEvicting && has_pod(job.pending, a.victim)) ||
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
    case ActionKind::kDelete:
    case ActionKind::kRestart:
    case ActionKind::kCreateNode:
    case ActionKind::kCycleEnd:
    case ActionKind::kExternalBind:
    case ActionKind::kBackoffExpires:
    case ActionKind::kLateBind:
    case ActionKind::kLateEvict:
    case ActionKind::kStatusPatch:
    case ActionKind::kRecreate:
    case ActionKind::kPdbSync:
    case ActionKind::kBindingPreempted:
      return false;
  }
  return false;
}

size_t World::find_job(const Action& a) const {
  for (size_t i = 0; i < jobs_.size(); ++i) {
    if (!is_running(i))
      break;
    if (jobs_[i].preemptor == a.pod && is_job_step_enabled(jobs_[i], a))
      return i;
  }
  return jobs_.size();
}

void World::enter_last(Job& job) {
  job.phase = JobPhase::kLast;
  // lastVictimsPendingPreemption is written just before the last victim's delete call.
  last_victim_[job.preemptor] = job.last;
  // gate=release-before-last (#128170): the preemptor left the in-flight set here.
  if (mechanisms().gate == Gate::kReleaseBeforeLast)
    preempting_ &= ~pod_bit(job.preemptor);
}

bool World::is_preempted_in_memory(PodId v) const {
  // PreemptPod rejects a victim waiting at Permit (`waitingPod.Preempt`) or in PreBind
  // (`CancelPod`) without an API call
  // (pkg/scheduler/framework/preemption/manager/executor.go@e642ef00b3031e9fc29c17a2c55a8c6051e980b8
  // L114-123, L157-158). The model's binding in flight stands for both phases; CancelPod's
  // refusal once PreBind has finished, and the fallback to deletion (L124-126), are not
  // modelled (SPEC §2.7).
  return mechanisms().binding_victims_in_memory && binding_[v] != kNoNode && api_[v].exists &&
         api_[v].node == kNoNode;
}

void World::forget_inflight(PodSet victims, StepReport& report) {
  for (PodId q = 0; q < inflight_by_.size(); ++q) {
    if ((inflight_by_[q] & victims) == 0)
      continue;
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
    if (q != except)
      out |= inflight_by_[q];
  }
  return out;
}

void World::clear_nominations_step(const Action& a, StepReport& report) {
  Job& job = jobs_[find_job(a)];
  clear_lower_nominations(job.preemptor, job.node, false, report);
  if (job.pending != 0) {
    job.phase = JobPhase::kEvicting;
  } else {
    enter_last(job);
  }
}

void World::evict_step(const Action& a, StepReport& report) {
  const size_t i = find_job(a);
  const bool in_memory = is_preempted_in_memory(a.victim);
  if (in_memory) {
    preempt_in_memory(a.victim);  // cycle.cc
  } else {
    evict(a.victim, report);
  }
  Job& job = jobs_[i];
  if (job.phase == JobPhase::kLast) {
    // preemptedLastVictimInMemory (executor.go@e642ef00 L225, L304-305): no deletion event opens
    // the gate's last-victim check, so the job's end must activate the preemptor.
    job.last_in_memory = in_memory;
    job.phase = JobPhase::kFinish;
  } else {
    job.pending &= ~pod_bit(a.victim);
    if (job.pending == 0)
      enter_last(job);
  }
}

void World::evict_fails_step(const Action& a, StepReport& report) {
  Job& job = jobs_[find_job(a)];
  --eviction_failures_left_;
  // The first error cancels the other deletions, and the last victim is skipped
  // (#135495): those victims are given up.
  PodSet abandoned = job.pending | pod_bit(job.last);
  if (job.phase == JobPhase::kLast)
    abandoned = pod_bit(job.last);
  job.failed = true;
  job.phase = JobPhase::kFinish;
  job.pending = 0;
  report.abandoned |= abandoned;
  // Victims kept from every other preemptor (inflight=on) are free to choose again.
  if ((inflight_by_[job.preemptor] & abandoned) != 0) {
    inflight_by_[job.preemptor] &= ~abandoned;
    wake_on_release(kNoPod, report);
  }
}

void World::finish_step(const Action& a, StepReport& report) {
  const size_t i = find_job(a);
  const Job job = jobs_[i];
  jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(i));
  bool other_job = false;
  for (const Job& j : jobs_)
    other_job = other_job || j.preemptor == job.preemptor;
  if (!other_job) {
    preempting_ &= ~pod_bit(job.preemptor);
    last_victim_[job.preemptor] = kNoPod;
  }
  // Activate on error (so a failed job cannot strand the preemptor); with
  // activate-on-finish=on also on success (PR #142294), so a delete event used up while
  // the preemptor was gated cannot strand it either. Off with --activate-on-finish=off.
  // activate-in-memory (PR #140054, executor.go@e642ef00 L250-256): also when the last victim was
  // preempted in memory, whose binding cycle's move (AssignedPodDelete) reached the preemptor while
  // it was still gated (#140082). Off with --activate-in-memory=off.
  const Mechanisms& m = mechanisms();
  if (job.failed || m.activate_on_finish || (job.last_in_memory && m.activate_in_memory))
    activate(job.preemptor, report);
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

}  // namespace preemptcheck
