// World's views: what the cache, the API server and the filter see, computed from the
// World's fields and changing nothing. The components that change the World live in files
// of their own (step.cc lists them).
#include "impl/world.h"

namespace preemptcheck {

PodSet World::cache_pods(NodeId n) const {
  PodSet out = 0;
  for (PodId p = 0; p < lister_.size(); ++p) {
    if ((lister_[p].exists && lister_[p].node == n) || assumed_[p] == n)
      out |= pod_bit(p);
  }
  return out;
}

PodSet World::ground_pods(NodeId n) const {
  PodSet out = 0;
  for (PodId p = 0; p < api_.size(); ++p) {
    // A binding in flight of a pod another component has bound meanwhile will be refused
    // (external-bind): it holds nothing.
    if (api_[p].exists && (api_[p].node == n || (api_[p].node == kNoNode && binding_[p] == n)))
      out |= pod_bit(p);
  }
  return out;
}

Resources World::sum_requests(PodSet pods) const {
  Resources r;
  for (PodId p : pods_in(pods))
    r += cluster_->request(p);
  return r;
}

NodeId World::view_nominated(PodId p) const {
  if (p == in_flight_ && mechanisms().patch_diff_view)
    return in_flight_nominated_;
  return lister_[p].nominated;
}

bool World::is_running(size_t job) const {
  const int workers = cluster_->scenario().workers;
  return workers == 0 || job < static_cast<size_t>(workers);
}

bool World::is_quiescent() const {
  // A request sent before a restart (late-bind, late-evict) may never land: it does not
  // keep the world from settling. A backoff always expires, and the API dispatcher sends
  // every call it holds (api-calls=dispatched).
  if (!active_.empty() || backoff_ != 0 || !events_.empty() || !jobs_.empty() || uncreated_ != 0 ||
      uncreated_nodes_ != 0 || in_flight_ != kNoPod || patches_ != 0) {
    return false;
  }
  for (PodId p = 0; p < api_.size(); ++p) {
    if (binding_[p] != kNoNode || (api_[p].exists && api_[p].terminating))
      return false;
  }
  return true;
}

bool World::fits(PodId p, NodeId n, PodSet removed) const {
  const Cluster& c = *cluster_;
  if (!node_exists(n))
    return false;
  Resources used = sum_requests(cache_pods(n) & ~removed);
  // RunFilterPluginsWithNominatedPods: pods nominated to n with priority ≥ p's count as if
  // already there. Filters must pass with and without them; for resources, with them is the
  // stricter of the two passes.
  for (PodId q = 0; q < nominated_.size(); ++q) {
    if (q != p && nominated_[q] == n && c.priority(q) >= c.priority(p))
      used += c.request(q);
  }
  used += c.request(p);
  return used.fits_in(c.capacity(n));
}

}  // namespace preemptcheck
