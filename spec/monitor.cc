// Monitor: each property's check, phrased over ground truth (what the API server holds and
// what cycles have decided), never over the scheduler's possibly stale view.
#include "spec/monitor.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "impl/evaluator.h"
#include "impl/show.h"

namespace preemptcheck::spec {
namespace {

using Kind = CycleDecision::Kind;

std::string usage(const Resources& r, const Resources& cap) {
  // Memory only where a pod on the node asks for some: "memory 0/4" would say nothing.
  if (r.memory == 0)
    return fmt::format("cpu {}/{}", format_cpu(r.cpu), format_cpu(cap.cpu));
  return fmt::format("cpu {}/{}, memory {}/{}", format_cpu(r.cpu), format_cpu(cap.cpu),
                     format_memory(r.memory), format_memory(cap.memory));
}

// no-double-victim: every victim this preemption will delete is not already somebody's
// pending victim.
void check_double_victim(const World& before, const Ledger& ledger, const StepReport& step,
                         Findings& out) {
  const Cluster& c = before.cluster();
  for (PodId v : pods_in(step.decision.to_evict)) {
    for (PodId q = 0; q < c.pod_count(); ++q) {
      if (!has_pod(ledger.chosen_by(q), v))
        continue;
      out.violated.emplace_back(
          Property::kNoDoubleVictim,
          fmt::format("{} chooses {} as a victim on {}, but {} already chose it and it is not "
                      "gone yet",
                      c.pod_name(step.pod), c.pod_name(v), c.node_name(step.decision.node),
                      q == step.pod ? "it" : c.pod_name(q)));
      return;
    }
  }
}

// no-double-claim: the committed pod fits beside the standing claims of priority >= its own
// and the pods its decision leaves on the node.
// A second scheduler's pods (#130429). Two schedulers each binding on its own stale view may
// both land on a node; the kubelet's admission, not modelled, refuses the one that does not
// fit (not citable here). no-double-claim and no-overcommit judge what this scheduler places
// beside the pods it does not share the node with.
PodSet second_scheduler_pods(const Cluster& c) {
  PodSet second = 0;
  for (PodId p = 0; p < c.pod_count(); ++p) {
    if (c.scenario().pods[p].scheduler != PodScheduler::kThis)
      second |= pod_bit(p);
  }
  return second;
}

void check_double_claim(const World& before, const Ledger& ledger, const StepReport& step,
                        Findings& out) {
  const Cluster& c = before.cluster();
  const PodId x = step.pod;
  const NodeId n = step.decision.node;
  PodSet claims = 0;
  PodSet lower_claims = 0;
  for (PodId q = 0; q < c.pod_count(); ++q) {
    if (q == x || ledger.standing_nomination(q) != n)
      continue;
    (c.priority(q) >= c.priority(x) ? claims : lower_claims) |= pod_bit(q);
  }
  if (lower_claims != 0)
    out.reached.push_back(Property::kTakeover);
  PodSet staying =
      before.ground_pods(n) & ~step.decision.victims & ~pod_bit(x) & ~second_scheduler_pods(c);
  Resources total = before.sum_requests(claims | staying);
  total += c.request(x);
  if (total.fits_in(c.capacity(n)))
    return;
  out.violated.emplace_back(
      Property::kNoDoubleClaim,
      fmt::format("{} is {} {} but does not fit beside {}{}{} ({})", c.pod_name(x),
                  step.decision.kind == Kind::kBind ? "assumed on" : "nominated to", c.node_name(n),
                  claims != 0 ? "the nomination of " : "", claims != 0 ? pod_names(c, claims) : "",
                  staying != 0 ? fmt::format("{}the pods {}", claims != 0 ? " and " : "",
                                             pod_names(c, staying))
                               : "",
                  usage(total, c.capacity(n))));
}

// no-over-preemption: a preemption by a pod whose earlier preemption still stands — its
// nomination not revoked, its victims not gone — is over-preemption when it is on another
// node, or when on the same node one of the new victims would not be needed once the
// earlier victims are gone (judged on ground truth, with the standing nominations of
// priority >= the preemptor's). A retry after a failed eviction is not over-preemption;
// neither is preempting elsewhere after a higher-priority pod took the nomination away.
void check_over_preemption(const World& before, const Ledger& ledger, const StepReport& step,
                           Findings& out) {
  const Cluster& c = before.cluster();
  const PodId p = step.pod;
  const NodeId held = ledger.standing_nomination(p);
  const PodSet earlier = ledger.chosen_by(p);
  const PodSet fresh = step.decision.to_evict;
  if (earlier == 0 || held == kNoNode)
    return;
  const NodeId n = step.decision.node;
  if (held != n) {
    if ((earlier & before.ground_pods(held)) == 0)
      return;
    out.violated.emplace_back(
        Property::kNoOverPreemption,
        fmt::format("{} moves its nomination to {}{} while its nomination to {} stands and "
                    "its victims {} there are still pending",
                    c.pod_name(p), c.node_name(n),
                    fresh != 0 ? fmt::format(" preempting {}", pod_names(c, fresh)) : "",
                    c.node_name(held), pod_names(c, earlier & before.ground_pods(held))));
    return;
  }
  PodSet claims = 0;
  for (PodId q = 0; q < c.pod_count(); ++q) {
    if (q != p && ledger.standing_nomination(q) == n && c.priority(q) >= c.priority(p)) {
      claims |= pod_bit(q);
    }
  }
  if (fresh == 0)
    return;
  const PodSet remaining = before.ground_pods(n) & ~earlier & ~fresh & ~pod_bit(p);
  // A victim it had already chosen, or one already gone from the API server (chosen before,
  // deleted, and not yet shown so by the informer), is no pod beyond its first choice:
  // choosing it again is F3's redundant re-preemption, whose NotFound evicts nothing.
  for (PodId w : pods_in(fresh & ~earlier & before.ground_pods(n))) {
    Resources total = before.sum_requests(remaining | claims | pod_bit(w));
    total += c.request(p);
    if (!total.fits_in(c.capacity(n)))
      continue;
    out.violated.emplace_back(
        Property::kNoOverPreemption,
        fmt::format("{} preempts {} on {} although, once its earlier victims {} are gone, it "
                    "would fit beside {}",
                    c.pod_name(p), c.pod_name(w), c.node_name(n), pod_names(c, earlier),
                    c.pod_name(w)));
    return;
  }
}

// no-pdb-overspend: filterPodsWithPDBViolation's rule run over the victims this preemption
// adds, most important first, against each PDB's true budget — its matching pods the API
// server has running and not terminating, less the victims earlier preemptions still have
// pending, less minAvailable. A victim already pending is no new spending (choosing it again
// is no-double-victim's business). A victim that takes a budget below zero is a violation;
// the scheduler must have counted at least as many for its candidate. Choosing a candidate
// whose violations it counted (none better was left) is allowed.
void check_pdb_overspend(const World& before, const Ledger& ledger, const StepReport& step,
                         Findings& out) {
  const Cluster& c = before.cluster();
  const auto& pdbs = c.scenario().pdbs;
  const CycleDecision& d = step.decision;
  PodSet pending = 0;
  for (PodId q = 0; q < c.pod_count(); ++q)
    pending |= ledger.chosen_by(q);
  std::vector<int> left;
  PodSet healthy = 0;
  for (std::size_t b = 0; b < pdbs.size(); ++b) {
    const PodSet h = before.healthy_members(b);
    healthy |= h;
    left.push_back(std::popcount(h & ~pending) - pdbs[b].min_available);
  }
  std::vector<PodId> chosen;
  for (PodId v : pods_in(d.to_evict & healthy & ~pending))
    chosen.push_back(v);
  std::sort(chosen.begin(), chosen.end(),
            [&](PodId a, PodId b) { return is_more_important(before, a, b); });
  int violations = 0;
  std::optional<std::size_t> spent;  // the first PDB taken below its minAvailable
  for (PodId v : chosen) {
    bool violates = false;
    for (std::size_t b = 0; b < pdbs.size(); ++b) {
      if (!has_pod(c.pdb_members()[b], v) || --left[b] >= 0)
        continue;
      violates = true;
      if (!spent)
        spent = b;
    }
    violations += violates ? 1 : 0;
  }
  if (violations <= d.pdb_violations)
    return;
  const std::size_t b = *spent;
  const PodSet h = before.healthy_members(b);
  out.violated.emplace_back(
      Property::kNoPdbOverspend,
      fmt::format("{} preempts {} on {} counting {} PDB violation{}, but {} has {} running{}, "
                  "minAvailable {}: the choice leaves {}",
                  c.pod_name(step.pod), pod_names(c, d.to_evict), c.node_name(d.node),
                  d.pdb_violations, d.pdb_violations == 1 ? "" : "s", pdbs[b].name,
                  or_none(pod_names(c, h)),
                  (h & pending) != 0
                      ? fmt::format(" ({} already pending as victims)", pod_names(c, h & pending))
                      : "",
                  pdbs[b].min_available, std::popcount(h & ~pending & ~d.to_evict)));
}

void check_overcommit(const World& w, Findings& out) {
  const Cluster& c = w.cluster();
  const PodSet second = second_scheduler_pods(c);  // not counted, as in no-double-claim
  for (NodeId n = 0; n < c.node_count(); ++n) {
    PodSet pods = w.ground_pods(n) & ~second;
    Resources used = w.sum_requests(pods);
    // A node may start over its capacity (allow-overcommitted-start); then only a pod added
    // to it — bound, assumed or being bound — breaks the property. Where the start fits,
    // every subset of the placed pods fits too, and this is the plain capacity check.
    if (used.fits_in(c.capacity(n)) || (pods & ~c.placed_pods(n)) == 0)
      continue;
    out.violated.emplace_back(Property::kNoOvercommit,
                              fmt::format("{} holds {} ({})", c.node_name(n), pod_names(c, pods),
                                          usage(used, c.capacity(n))));
    return;
  }
}

// At quiescence: the first pool pod that a cycle would bind, or let preempt, and what the
// cycle would decide for it; none when every waiting pod is rightly waiting.
std::optional<std::pair<PodId, CycleDecision>> stranded_pod(const World& w) {
  for (PodId p : pods_in(w.unschedulable_pool())) {
    CycleDecision d = w.decide(p);
    if (d.kind == Kind::kBind || (d.kind == Kind::kPreempt && d.to_evict != 0)) {
      return std::make_pair(p, d);
    }
  }
  return std::nullopt;
}

void check_lost_wakeup(const World& w, Findings& out) {
  if (!w.is_quiescent())
    return;
  const Cluster& c = w.cluster();
  auto stranded = stranded_pod(w);
  if (!stranded)
    return;
  const auto& [p, d] = *stranded;
  out.violated.emplace_back(
      Property::kNoLostWakeup,
      fmt::format("nothing but the periodic flush can happen, yet {} waits in the "
                  "unschedulable pool although a cycle would {} {}",
                  c.pod_name(p), d.kind == Kind::kBind ? "bind it on" : "preempt on",
                  c.node_name(d.node)));
}

void check_expected_outcome(const World& w, Findings& out) {
  const Cluster& c = w.cluster();
  // Settled: nothing but the flush can happen, and the flush would change nothing. A pod
  // stranded until the flush is no-lost-wakeup's business; its outcome is judged after.
  if ((c.expect_bound() | c.expect_not_bound()) == 0 || !w.is_quiescent() || stranded_pod(w)) {
    return;
  }
  for (PodId p : pods_in(c.expect_bound())) {
    if (w.api(p).exists && w.api(p).node != kNoNode)
      continue;
    out.violated.emplace_back(Property::kExpectedOutcome,
                              fmt::format("the cluster has settled and {} is {}", c.pod_name(p),
                                          w.api(p).exists ? "not bound" : "deleted, not bound"));
    return;
  }
  for (PodId p : pods_in(c.expect_not_bound())) {
    if (!w.api(p).exists || w.api(p).node == kNoNode)
      continue;
    out.violated.emplace_back(Property::kExpectedOutcome,
                              fmt::format("the cluster has settled and {} is bound to {}",
                                          c.pod_name(p), c.node_name(w.api(p).node)));
    return;
  }
}

}  // namespace

void check_state(const World& w, Findings& out) {
  check_overcommit(w, out);
  check_lost_wakeup(w, out);
  check_expected_outcome(w, out);
  for (const Job& j : w.jobs()) {
    if (j.pending != 0 || j.phase == JobPhase::kLast) {
      out.reached.push_back(Property::kVictimsInFlight);
      break;
    }
  }
}

void check_step(const World& before, const StepReport& step, const World& after, Ledger& ledger,
                Findings& out) {
  const Cluster& c = before.cluster();
  if (step.cycle) {
    const CycleDecision& d = step.decision;
    if (ledger.chosen_by(step.pod) != 0)
      out.reached.push_back(Property::kPreemptorRetried);
    if (ledger.busy_nodes_evaluated(before, step) != 0) {
      out.reached.push_back(Property::kBusyNodeEvaluated);
    }
    if (d.kind == Kind::kPreempt) {
      check_double_victim(before, ledger, step, out);
      check_over_preemption(before, ledger, step, out);
      check_pdb_overspend(before, ledger, step, out);
    }
    if (d.kind == Kind::kPreempt || d.kind == Kind::kBind) {
      check_double_claim(before, ledger, step, out);
    }
    if (d.kind == Kind::kBind) {
      if (ledger.standing_nomination(step.pod) == d.node) {
        out.reached.push_back(Property::kNomineeBinds);
      }
      for (PodId q = 0; q < c.pod_count(); ++q) {
        if (q != step.pod && before.binding(q) == d.node) {
          out.reached.push_back(Property::kBindingBesideBinding);
          break;
        }
      }
    }
  }
  if ((step.moved & before.gated()) != 0)
    out.reached.push_back(Property::kGatedPreemptorWoken);
  ledger.record(step, after);
  check_state(after, out);
}

}  // namespace preemptcheck::spec
