// PDB status: the disruption controller's DisruptionsAllowed as the scheduler reads it
// (pdb-status=lagged). kube-scheduler's DefaultPreemption does not count a PDB's healthy pods
// itself: filterPodsWithPDBViolation starts from each PDB's Status.DisruptionsAllowed
// (default_preemption.go@e4d77d9256504b95df4fd35f9b2e4308707951d7 L374–377), read from the
// scheduler's PDB lister (preemption.go@98be7dfc5da8533f62c063206c5751e884d6294d
// `getPodDisruptionBudgets` L415–420, called by `findCandidates` L238). That status is
// written by the disruption controller whenever its worker gets to the PDB (`trySync` →
// `countHealthyPods` → `updatePdbStatus`, pkg/controller/disruption/disruption.go at
// 003e86297d18a8538c9da3619871393f9703bf70; its lines were not counted). Between a victim's
// deletion and that write, the published budget still counts the victim.
#include <bit>

#include "impl/world.h"

namespace preemptcheck {

PodSet World::healthy_members(std::size_t b) const {
  // countHealthyPods: a pod with a deletionTimestamp is not healthy, and only a ready pod
  // is; the model's ready pods are those bound and not terminating.
  PodSet healthy = 0;
  for (PodId p : pods_in(cluster_->pdb_members()[b])) {
    if (api_[p].exists && api_[p].node != kNoNode && !api_[p].terminating)
      healthy |= pod_bit(p);
  }
  return healthy;
}

int World::published_disruptions_allowed(std::size_t b) const {
  // updatePdbStatus: currentHealthy − desiredHealthy, and 0 when that is not positive (or
  // when no pod matches). desiredHealthy is an integer minAvailable here.
  const int healthy = std::popcount(pdb_counted_ & cluster_->pdb_members()[b]);
  const int allowed = healthy - cluster_->scenario().pdbs[b].min_available;
  return allowed > 0 ? allowed : 0;
}

bool World::is_pdb_stale(std::size_t b) const {
  // updatePdbStatus writes nothing when CurrentHealthy (and the rest) are unchanged.
  if (!mechanisms().pdb_status_lagged)
    return false;
  const PodSet members = cluster_->pdb_members()[b];
  return std::popcount(healthy_members(b)) != std::popcount(pdb_counted_ & members);
}

void World::sync_pdb(std::size_t b, StepReport& /*report*/) {
  // The controller writes the status and the scheduler's PDB informer delivers it in one
  // step: the model keeps the controller's lag, not the PDB informer's own (SPEC §2.6).
  const PodSet members = cluster_->pdb_members()[b];
  pdb_counted_ = (pdb_counted_ & ~members) | healthy_members(b);
}

}  // namespace preemptcheck
