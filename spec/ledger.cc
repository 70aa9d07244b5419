// Ledger: the monitors' memory, kept from each step's report. The order of record() follows
// the order in which a step's facts happen: a cycle chooses its victims before it deletes
// any of them (deletion=sync), and nominates its preemptor last.
#include "spec/ledger.h"

#include "impl/fingerprint.h"
#include "impl/pod_renaming.h"

namespace preemptcheck::spec {

using Kind = CycleDecision::Kind;

Ledger::Ledger(const Cluster& cluster) {
  const auto n = static_cast<std::size_t>(cluster.pod_count());
  chosen_by_.assign(n, 0);
  standing_.assign(n, kNoNode);
}

PodSet Ledger::chosen_by_others(PodId except) const {
  PodSet out = 0;
  for (PodId q = 0; q < chosen_by_.size(); ++q) {
    if (q != except)
      out |= chosen_by_[q];
  }
  return out;
}

std::uint64_t Ledger::busy_nodes_evaluated(const World& before, const StepReport& step) const {
  // Only a cycle that reached the dry run evaluates nodes for preemption: one that found no
  // fit and was eligible to preempt.
  if (!step.cycle ||
      (step.decision.kind != Kind::kPreempt && step.decision.kind != Kind::kNoCandidate)) {
    return 0;
  }
  const Cluster& c = before.cluster();
  const PodId p = step.pod;
  const PodSet pending = chosen_by_others(p);
  std::uint64_t out = 0;
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if ((before.cache_pods(n) & pending) != 0 && c.request(p).fits_in(c.capacity(n))) {
      out |= std::uint64_t{1} << n;
    }
  }
  return out;
}

void Ledger::record(const StepReport& step, const World& after) {
  const PodId p = step.pod;
  if (step.cycle && step.decision.kind == Kind::kPreempt)
    chosen_by_[p] |= step.decision.to_evict;
  // A pod that is gone is no longer anyone's pending victim, and nominated nowhere.
  for (PodId v : pods_in(step.deleted)) {
    for (PodSet& s : chosen_by_)
      s &= ~pod_bit(v);
    standing_[v] = kNoNode;
  }
  // A victim preempted in memory (binding-victims=in-memory) is pending again and not on
  // the node: its preemption is over, and its binding cycle cleared its nomination.
  for (PodId v : pods_in(step.in_memory)) {
    for (PodSet& s : chosen_by_)
      s &= ~pod_bit(v);
    standing_[v] = kNoNode;
  }
  // A failed eviction gives up its victims: they are no longer chosen. A restart gives up
  // every lost job's victims whose deletion had not started.
  if (step.abandoned != 0 && step.action.kind == ActionKind::kRestart) {
    for (PodSet& s : chosen_by_)
      s &= ~step.abandoned;
  } else if (step.abandoned != 0) {
    chosen_by_[step.action.pod] &= ~step.abandoned;
  }
  // Lower-priority nominations cleared by a preemption are revoked.
  for (PodId q : pods_in(step.cleared))
    standing_[q] = kNoNode;
  // A pod another component bound elsewhere gives its nomination up: its space is now on
  // the node it was bound to (external-bind).
  if (step.action.kind == ActionKind::kExternalBind)
    standing_[step.action.pod] = kNoNode;
  if (!step.cycle)
    return;
  switch (step.decision.kind) {
    case Kind::kBind:         // the nomination is consumed
    case Kind::kNoCandidate:  // PostFilter cleared it
      standing_[p] = kNoNode;
      return;
    case Kind::kPreempt: {
      // The preemption decides a takeover: every standing nomination of strictly lower
      // priority to the chosen node is revoked now. This is the properties' definition of a
      // takeover — the higher-priority decision supersedes the lower claim on that space —
      // and not a claim that kube-scheduler's executor clears it: mostly it does
      // (getLowerPriorityNominatedPods, clearNominatedNodeName:
      // pkg/scheduler/framework/preemption/manager/executor.go@e642ef00b3031e9fc29c17a2c55a8c6051e980b8
      // L453-467, L423-444), but not when the takeover starts no job (L218-221) nor for a
      // nominee whose copy shows no nominatedNodeName (L433-435, patch-diff=view). Revoking
      // only at the clear that happens was measured (SPEC §4): it turns takeover-pdb's
      // p-mid, which legitimately preempts elsewhere after p-high's takeover, into
      // over-preemption.
      const Cluster& c = after.cluster();
      for (PodId q = 0; q < standing_.size(); ++q) {
        if (q != p && standing_[q] == step.decision.node && c.priority(q) < c.priority(p)) {
          standing_[q] = kNoNode;
        }
      }
      // A pod deleted while the scheduler still saw it nominates nothing: its status patch
      // finds no pod.
      // Nor does a pod another component has bound meanwhile (external-bind): the nominator
      // refuses an assigned pod and the informer's binding event drops its entry.
      standing_[p] =
          after.api(p).exists && after.api(p).node == kNoNode ? step.decision.node : kNoNode;
      return;
    }
    case Kind::kIneligible:
      return;
  }
}

StateLines Ledger::lines(const Cluster& c) const {
  StateLines out;
  out.emplace_back("chosen victims",
                   per_pod(c, [&](PodId p) { return pod_names(c, chosen_by_[p]); }));
  out.emplace_back("standing nominations", per_pod(c, [&](PodId p) {
                     return standing_[p] == kNoNode ? std::string() : c.node_name(standing_[p]);
                   }));
  return out;
}

std::uint64_t Ledger::fingerprint(std::uint64_t world_fingerprint) const {
  Digest d;
  d.word(world_fingerprint);
  for (std::size_t p = 0; p < chosen_by_.size(); ++p) {
    d.word(std::uint64_t{chosen_by_[p]} | std::uint64_t{standing_[p]} << 32);
  }
  return d.value();
}

Ledger Ledger::renamed(const PodRenaming& to) const {
  Ledger r = *this;
  const std::size_t n = chosen_by_.size();
#define PREEMPTCHECK_RENAME(member, kind) rename_field<FieldKind::kind>(member, r.member, n, to);
  PREEMPTCHECK_LEDGER_FIELDS(PREEMPTCHECK_RENAME)
#undef PREEMPTCHECK_RENAME
  return r;
}

}  // namespace preemptcheck::spec
