// Evaluator: eligibility, victim selection and node choice.
#include "impl/evaluator.h"

#include <algorithm>
#include <climits>
#include <cstdint>

namespace preemptcheck {
namespace {

// The budget each PDB has left as `preemptor`'s victim selection reads it.
// pdb-status=live: the disruption controller's result computed now from the scheduler's own
// informer view (matching pods running and not terminating, minus minAvailable), without the
// controller's lag. pdb-status=lagged: Status.DisruptionsAllowed as the controller last
// published it (impl/pdb_status.cc), which kube-scheduler reads (DP L374–377).
std::vector<int> disruptions_allowed(const World& w, PodId preemptor) {
  const Cluster& c = w.cluster();
  const bool inflight_on = w.mechanisms().inflight == Inflight::kOn;
  const PodSet others_inflight = inflight_on ? w.inflight_victims_except(preemptor) : 0;
  std::vector<int> allowed;
  for (size_t i = 0; i < c.scenario().pdbs.size(); ++i) {
    int healthy = 0;
    int in_flight = 0;
    for (PodId p : pods_in(c.pdb_members()[i])) {
      const PodObj& o = w.lister(p);
      if (o.exists && o.node != kNoNode && !o.terminating) {
        ++healthy;
        in_flight += has_pod(others_inflight, p) ? 1 : 0;
      }
    }
    int budget = healthy - c.scenario().pdbs[i].min_available;
    if (w.mechanisms().pdb_status_lagged) {
      // inflight=on (added by this project): a published budget larger than the scheduler
      // can count itself still counts victims already deleted; it is not trusted.
      const int published = w.published_disruptions_allowed(i);
      budget = inflight_on ? std::min(published, budget) : published;
    }
    // inflight=on (added by this project): another preemptor's victims in flight are spent
    // from the budget before the informer shows them terminating, as their space is already
    // promised. kube-scheduler counts only what the PDB's status says
    // (--inflight=preemptor-only: #91492, FIDELITY §3 F17).
    allowed.push_back(budget - in_flight);
  }
  return allowed;
}

}  // namespace

bool is_more_important(const World& w, PodId a, PodId b) {
  const Cluster& c = w.cluster();
  if (c.priority(a) != c.priority(b))
    return c.priority(a) > c.priority(b);
  std::uint8_t sa = w.lister(a).start;
  std::uint8_t sb = w.lister(b).start;
  if (sa != sb)
    return sa < sb;
  return a < b;
}

bool is_eligible_to_preempt(const World& w, PodId preemptor) {
  const Cluster& c = w.cluster();
  if (c.is_preempt_never(preemptor))
    return false;
  // inflight=on: a preemptor whose own victims' deletions are still in flight — activated
  // when its job ended, before the informer shows them terminating — waits for them instead
  // of preempting again from a view in which they still run. Their delete events wake it.
  // kube-scheduler's check below sees only what the informer shows (--inflight=preemptor-only).
  if (w.mechanisms().inflight == Inflight::kOn && w.inflight_victims_of(preemptor) != 0) {
    return false;
  }
  // The preemptor is re-read from the informer, so this is the API-observed nomination.
  // stale-nomination=ignore: the scheduler's own latest nomination, in the nominator, wins
  // over an older copy — otherwise a preemptor whose newest nomination the informer has not
  // delivered yet looks unnominated and preempts again elsewhere while its victims there
  // are still terminating.
  NodeId nominated = w.lister(preemptor).nominated;
  if (w.mechanisms().stale_nominations_ignored && w.nominated(preemptor) != kNoNode) {
    nominated = w.nominated(preemptor);
  }
  if (nominated == kNoNode)
    return true;
  // The nominated node is UnschedulableAndUnresolvable: nothing there is worth waiting for.
  if (!c.request(preemptor).fits_in(c.capacity(nominated)))
    return true;
  PodSet on_node = w.cache_pods(nominated);
  for (PodId q : pods_in(on_node)) {
    const PodObj& o = w.lister(q);
    if (c.priority(q) < c.priority(preemptor) && o.terminating && o.disruption_target) {
      return false;  // "not eligible due to a terminating pod on the nominated node"
    }
  }
  return true;
}

std::optional<Candidate> select_victims_on_node(const World& w, PodId preemptor, NodeId node) {
  const Cluster& c = w.cluster();
  const bool exclude_inflight = w.mechanisms().inflight == Inflight::kOn;
  std::vector<PodId> potential;
  PodSet removed = 0;
  for (PodId q : pods_in(w.cache_pods(node))) {
    if (c.priority(q) >= c.priority(preemptor))
      continue;
    // inflight=on: a victim that another preemptor's job is already deleting has been
    // promised to that preemptor's nomination; choosing it again would issue
    // a second delete for the same pod and count its space twice. The preemptor's own
    // victims stay removable: that space is already its own. Off with
    // --inflight=preemptor-only or off.
    if (exclude_inflight && has_pod(w.inflight_victims_except(preemptor), q))
      continue;
    potential.push_back(q);
    removed |= pod_bit(q);
  }
  if (potential.empty())
    return std::nullopt;  // "No preemption victims found"
  if (!w.fits(preemptor, node, removed))
    return std::nullopt;

  std::sort(potential.begin(), potential.end(),
            [&](PodId a, PodId b) { return is_more_important(w, a, b); });

  // filterPodsWithPDBViolation: a stable split, decrementing each matching PDB's budget.
  std::vector<int> allowed = disruptions_allowed(w, preemptor);
  std::vector<PodId> violating;
  std::vector<PodId> non_violating;
  for (PodId q : potential) {
    bool violates = false;
    for (size_t i = 0; i < allowed.size(); ++i) {
      if (has_pod(c.pdb_members()[i], q)) {
        --allowed[i];
        if (allowed[i] < 0)
          violates = true;
      }
    }
    (violates ? violating : non_violating).push_back(q);
  }

  Candidate out{node, {}, 0};
  auto reprieve = [&](PodId q, bool violates) {
    removed &= ~pod_bit(q);
    if (!w.fits(preemptor, node, removed)) {
      removed |= pod_bit(q);
      out.victims.push_back(q);
      if (violates)
        ++out.pdb_violations;
    }
  };
  for (PodId q : violating)
    reprieve(q, true);
  for (PodId q : non_violating)
    reprieve(q, false);
  // DryRunPreemption drops a node that needs no victim ("expected at least one victim").
  if (out.victims.empty())
    return std::nullopt;
  std::sort(out.victims.begin(), out.victims.end(),
            [&](PodId a, PodId b) { return is_more_important(w, a, b); });
  return out;
}

std::vector<Candidate> dry_run_preemption(const World& w, PodId preemptor) {
  const Cluster& c = w.cluster();
  std::vector<Candidate> out;
  for (NodeId n = 0; n < c.node_count(); ++n) {
    if (!w.node_exists(n))
      continue;  // not created yet
    // NodeResourcesFit: a request above the node's capacity is UnschedulableAndUnresolvable
    // and the node is not a candidate.
    if (!c.request(preemptor).fits_in(c.capacity(n)))
      continue;
    if (auto cand = select_victims_on_node(w, preemptor, n))
      out.push_back(std::move(*cand));
  }
  return out;
}

std::size_t pick_one_node(const World& w, const std::vector<Candidate>& candidates) {
  const Cluster& c = w.cluster();
  std::vector<std::size_t> best;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    best.push_back(i);
  // Keeps the candidates with the lowest score; true once exactly one is left.
  auto keep_lowest = [&](auto score) {
    std::int64_t lowest = INT64_MAX;
    for (std::size_t i : best)
      lowest = std::min(lowest, score(candidates[i]));
    std::vector<std::size_t> next;
    for (std::size_t i : best) {
      if (score(candidates[i]) == lowest)
        next.push_back(i);
    }
    best = std::move(next);
    return best.size() == 1;
  };
  // 1. fewest PDB violations
  if (keep_lowest([](const Candidate& k) { return std::int64_t{k.pdb_violations}; })) {
    return best[0];
  }
  // 2. lowest highest-priority victim
  if (keep_lowest([&](const Candidate& k) -> std::int64_t {
        return k.victims.empty() ? INT64_MIN : c.priority(k.victims[0]);
      })) {
    return best[0];
  }
  // 3. smallest sum of priorities, each offset by MaxInt32+1 so that fewer pods win ties
  if (keep_lowest([&](const Candidate& k) {
        std::int64_t sum = 0;
        for (PodId v : k.victims)
          sum += std::int64_t{c.priority(v)} + INT32_MAX + 1;
        return sum;
      })) {
    return best[0];
  }
  // 4. fewest victims
  if (keep_lowest([](const Candidate& k) { return static_cast<std::int64_t>(k.victims.size()); })) {
    return best[0];
  }
  // 5. the latest earliest start among the highest-priority victims
  if (keep_lowest([&](const Candidate& k) -> std::int64_t {
        if (k.victims.empty())
          return 0;
        int top = c.priority(k.victims[0]);
        int earliest = INT_MAX;
        for (PodId v : k.victims) {
          if (c.priority(v) == top)
            earliest = std::min(earliest, int{w.lister(v).start});
        }
        return -std::int64_t{earliest};
      })) {
    return best[0];
  }
  // 6. the first remaining candidate, in scenario node order
  return best[0];
}

}  // namespace preemptcheck
