// The causal watch order (`--reduce watch-order`, SPEC §8): the API server serializes
// concurrent writes in an order nobody chose, and the FIFO model records that order as state,
// multiplying every state by it. Here each pending watch event carries the pending events
// that happen before it — the same object's earlier events, the writer's earlier writes, and
// whatever the writing step read — so `observe` may deliver any event with no pending
// predecessor, and a state stores its events in one canonical serialization of that order.
// Two states that differ only in the serialization of concurrent writes become one.
//
// Happens-before is tracked with clocks, as vector clocks are: every step has a footprint
// (StepReport::touched_*) — the scheduler's side of the World, which every step but a
// kubelet's reads and writes, and the pods whose API object or monitor memory it reads or
// writes. A step's new events happen after every pending event that the clocks of its
// footprint hold, and those clocks then hold the new events too. Two steps with disjoint
// footprints commute (properties/independence_test.cc checks it on every committed scenario),
// so by the Mazurkiewicz-trace argument every serialization of a state's pending order is
// reached by some schedule of the FIFO model: the reduction is exact, and
// serialize_schedule() turns a schedule of it back into one of the FIFO model.
#include "impl/watch_order.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "impl/world.h"

namespace preemptcheck {
namespace {

// Mask m without bit k, the bits above it moved down one.
std::uint32_t without_bit(std::uint32_t m, std::size_t k) {
  const std::uint64_t wide = m;
  const std::uint64_t low = wide & ((std::uint64_t{1} << k) - 1);
  const std::uint64_t high = (wide >> (k + 1)) << k;
  return static_cast<std::uint32_t>(low | high);
}

}  // namespace

std::size_t World::delivered_event(PodId p) const {
  if (!cluster_->is_causal())
    return 0;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    if (events_[i].pod == p)
      return i;
  }
  return events_.size();
}

void World::enabled_observes(std::vector<Action>& out) const {
  if (!cluster_->is_causal()) {
    if (!events_.empty())
      out.push_back({ActionKind::kObserve, kNoPod, kNoPod});
    return;
  }
  // Any pending event none of whose happens-before predecessors is still pending — of each
  // pod its oldest, in pod order; the rest of a step's writes, once the first is delivered,
  // before anything else.
  PodSet seen = 0;
  PodSet ready = 0;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    const PodId q = events_[i].pod;
    if (!has_pod(seen, q) && event_after_[i] == 0)
      ready |= pod_bit(q);
    seen |= pod_bit(q);
  }
  if (must_deliver_ != 0)
    ready = pod_bit(events_[must_deliver_ - 1U].pod);
  for (PodId q : pods_in(ready))
    out.push_back({ActionKind::kObserve, q, kNoPod});
}

std::string World::why_observe_not_enabled(const Action& a) const {
  const Cluster& c = *cluster_;
  if (a.pod != kNoPod && !c.is_causal()) {
    return "the informer delivers the oldest pending event, whatever its pod: write 'observe' (a "
           "pod is named only under --reduce=watch-order)";
  }
  if (a.pod == kNoPod) {
    return events_.empty() ? "no watch event is pending"
                           : "under the causal watch order `observe` names a pod";
  }
  if (delivered_event(a.pod) == events_.size())
    return fmt::format("no watch event of {} is pending", c.pod_name(a.pod));
  if (must_deliver_ != 0) {
    return fmt::format("the rest of one step's writes comes first: {}'s",
                       c.pod_name(events_[must_deliver_ - 1U].pod));
  }
  return fmt::format("an event that happens before {}'s oldest is still pending",
                     c.pod_name(a.pod));
}

World World::without_serialization(const Cluster& fifo) const {
  World w = *this;
  w.cluster_ = &fifo;
  std::stable_sort(w.events_.begin(), w.events_.end(),
                   [](const WatchEvent& a, const WatchEvent& b) { return a.pod < b.pod; });
  w.event_after_.fill(0);
  for (std::uint32_t& c : w.pod_clock_)
    c = 0;
  w.scheduler_clock_ = 0;
  w.next_in_step_.fill(0);
  w.must_deliver_ = 0;
  return w;
}

void World::drop_event(std::size_t k) {
  // events_ has already lost event k; its masks follow. What the same step wrote after it is
  // delivered next.
  const std::size_t n = events_.size();
  must_deliver_ = next_in_step_[k];
  for (std::size_t i = k; i < n; ++i) {
    event_after_[i] = event_after_[i + 1];
    next_in_step_[i] = next_in_step_[i + 1];
  }
  event_after_[n] = 0;
  next_in_step_[n] = 0;
  const auto moved = [k](std::uint8_t& at) {
    if (at > k + 1)
      --at;
  };
  for (std::size_t i = 0; i < n; ++i)
    moved(next_in_step_[i]);
  moved(must_deliver_);
  for (std::size_t i = 0; i < n; ++i)
    event_after_[i] = without_bit(event_after_[i], k);
  for (std::uint32_t& c : pod_clock_)
    c = without_bit(c, k);
  scheduler_clock_ = without_bit(scheduler_clock_, k);
}

void World::record_footprint(StepReport& r) const {
  const Action& a = r.action;
  const auto all_pods = static_cast<PodSet>((std::uint64_t{1} << api_.size()) - 1);
  switch (a.kind) {
    case ActionKind::kTerminate:
      // The pod's kubelet (a pod worker of its own): its API object and nothing of the
      // scheduler's.
      r.touched_pods = pod_bit(a.pod);
      return;
    case ActionKind::kRestart:       // relists every pod
    case ActionKind::kCreateNode:    // creates a node's pods in the API and in the view at once
    case ActionKind::kExternalBind:  // reads what the API server has on the node
    case ActionKind::kPdbSync:       // counts the PDB's pods in the API server
    case ActionKind::kRecreate:      // renumbers the start order of every pod
    case ActionKind::kFlush:  // waits for an empty watch stream: every pod's writes delivered
      r.touched_scheduler = true;
      r.touched_pods = all_pods;
      return;
    case ActionKind::kObserve:
      // The informer reads the event, not the API server; under stale-nomination=ignore also
      // whether the pod has a later event pending.
      r.touched_scheduler = true;
      r.touched_pods = r.read_later_event ? pod_bit(r.event.pod) : 0;
      return;
    case ActionKind::kSchedule:
    case ActionKind::kBind:
    case ActionKind::kBindFails:
    case ActionKind::kClearNominations:
    case ActionKind::kEvict:
    case ActionKind::kEvictFails:
    case ActionKind::kFinish:
    case ActionKind::kCreate:
    case ActionKind::kDelete:
    case ActionKind::kCycleEnd:
    case ActionKind::kBackoffExpires:
    case ActionKind::kLateBind:
    case ActionKind::kLateEvict:
    case ActionKind::kStatusPatch:
    case ActionKind::kBindingPreempted:
      break;
  }
  // A step of the scheduler's (or of a user's, or of the fault budget's): the scheduler's side,
  // and every pod whose API object or monitor memory it may read or write — the step's own
  // pods, the victims a cycle chose to evict (the ledger records them; a cycle reads the
  // others in its own view only), the nominations it cleared (each a status patch read against
  // the API server's object), the pods it deleted, gave up or rejected in memory.
  r.touched_scheduler = true;
  PodSet pods = r.cleared | r.deleted | r.abandoned | r.in_memory | r.decision.to_evict;
  // An executor job's steps name their preemptor, whose object they do not read: only the
  // victim's. A backoff's expiry moves a pod between the scheduler's queues only.
  const bool job_step = a.kind == ActionKind::kClearNominations || a.kind == ActionKind::kEvict ||
                        a.kind == ActionKind::kEvictFails || a.kind == ActionKind::kFinish;
  if (!job_step && a.kind != ActionKind::kBackoffExpires && a.pod != kNoPod)
    pods |= pod_bit(a.pod);
  // An eviction that changed nothing because its victim was already being evicted (deletion
  // started, DisruptionTarget set) reads nothing its kubelet's last step changes: before it
  // or after, the eviction changes nothing. One that found its victim gone did read the
  // kubelet's write: before it, a pod deleted by a user without the condition gets it.
  const bool blind = a.kind == ActionKind::kEvict && r.no_op && api_[a.victim].exists;
  if (a.victim != kNoPod && !blind)
    pods |= pod_bit(a.victim);
  if (r.pod != kNoPod)
    pods |= pod_bit(r.pod);
  r.touched_pods = pods;
}

void World::order_new_events(const StepReport& r, std::size_t from) {
  const std::size_t n = events_.size();
  if (n > kMaxCausalEvents) {
    throw std::length_error(fmt::format(
        "more than {} watch events pending under the causal watch order", kMaxCausalEvents));
  }
  if (r.action.kind == ActionKind::kRestart) {
    // The relist starts a new watch: nothing pending is ordered before what follows.
    event_after_.fill(0);
    next_in_step_.fill(0);
    must_deliver_ = 0;
    for (std::uint32_t& c : pod_clock_)
      c = 0;
    scheduler_clock_ = 0;
  }
  // Every pod a step writes an event of is in its footprint: write() writes its API object.
  PodSet touched = r.touched_pods;
  for (std::size_t i = from; i < n; ++i)
    touched |= pod_bit(events_[i].pod);
  // A step's writes are adjacent in the stream: each is delivered right after the one before.
  for (std::size_t i = from; i + 1 < n; ++i)
    next_in_step_[i] = static_cast<std::uint8_t>(i + 2);
  if (cluster_->watch_order() == WatchOrder::kPerObject) {
    // Unsound on purpose: each event ordered after its own object's only.
    for (std::size_t i = from; i < n; ++i) {
      std::uint32_t& clock = pod_clock_[events_[i].pod];
      event_after_[i] = clock;
      clock |= std::uint32_t{1} << i;
    }
    canonicalize_events();
    return;
  }
  std::uint32_t c = r.touched_scheduler ? scheduler_clock_ : 0;
  for (PodId q : pods_in(touched))
    c |= pod_clock_[q];
  // The step's own writes are in its program order.
  for (std::size_t i = from; i < n; ++i) {
    event_after_[i] = c;
    c |= std::uint32_t{1} << i;
  }
  if (r.touched_scheduler)
    scheduler_clock_ = c;
  for (PodId q : pods_in(touched))
    pod_clock_[q] = c;
  // What a pod's clock holds that the scheduler's does not is all a later step can read of
  // it, unless the pod is terminating: every step but its kubelet's reads the scheduler's
  // clock too, and only a terminating pod has a kubelet step to come (one that makes it
  // terminate touches it first, and so sets its clock anew). Forgetting the rest merges the
  // states that differ only in when the scheduler last read a pod.
  for (PodId q = 0; q < api_.size(); ++q) {
    if (!(api_[q].exists && api_[q].terminating))
      pod_clock_[q] &= ~scheduler_clock_;
  }
  canonicalize_events();
}

void World::canonicalize_events() {
  // Of the events with no unplaced predecessor, the one of the lowest pod comes next. Each
  // pod's events are ordered among themselves, so the choice is unique: the serialization
  // depends on the order alone, not on the schedule that wrote it.
  const std::size_t n = events_.size();
  if (n < 2)
    return;
  std::array<std::uint8_t, kMaxCausalEvents> order{};  // order[k]: the old position placed k-th
  std::array<std::uint8_t, kMaxCausalEvents> at{};     // at[i]: old position i's new one
  std::uint32_t placed = 0;
  bool moved = false;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i) {
      if ((placed >> i & 1U) == 0 && (event_after_[i] & ~placed) == 0 &&
          (best == n || events_[i].pod < events_[best].pod)) {
        best = i;
      }
    }
    order[k] = static_cast<std::uint8_t>(best);
    at[best] = static_cast<std::uint8_t>(k);
    placed |= std::uint32_t{1} << best;
    moved = moved || best != k;
  }
  if (!moved)
    return;
  const auto remap = [&](std::uint32_t m) {
    std::uint32_t out = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if ((m >> i & 1U) != 0)
        out |= std::uint32_t{1} << at[i];
    }
    return out;
  };
  const auto reposition = [&](std::uint8_t position_plus_one) {
    return position_plus_one == 0 ? std::uint8_t{0}
                                  : static_cast<std::uint8_t>(at[position_plus_one - 1U] + 1U);
  };
  const EventQueue old_events = events_;
  const std::array<std::uint32_t, kMaxCausalEvents> old_after = event_after_;
  const std::array<std::uint8_t, kMaxCausalEvents> old_next = next_in_step_;
  for (std::size_t k = 0; k < n; ++k) {
    events_[k] = old_events[order[k]];
    event_after_[k] = remap(old_after[order[k]]);
    next_in_step_[k] = reposition(old_next[order[k]]);
  }
  must_deliver_ = reposition(must_deliver_);
  for (std::uint32_t& c : pod_clock_)
    c = remap(c);
  scheduler_clock_ = remap(scheduler_clock_);
}

namespace {

// One step of a causal schedule, as serialize_schedule() sees it.
struct StepInfo {
  Action action;
  bool scheduler = false;
  PodSet pods = 0;
  std::vector<std::pair<PodId, int>> written;  ///< its events: pod, and the pod's write count
  std::pair<PodId, int> delivered{kNoPod, 0};  ///< observe: the event delivered
};

}  // namespace

std::vector<Action> serialize_schedule(const Cluster& causal, const std::vector<Action>& path) {
  if (!causal.is_causal())
    return path;
  const std::size_t n = path.size();
  // Replay under the causal order: each step's footprint, events written and delivered.
  std::vector<StepInfo> steps(n);
  std::array<int, kMaxPods> written_count{};
  std::array<int, kMaxPods> delivered_count{};
  // Each event's step of writing, and when it left the queue: delivered at step o, or dropped
  // by a restart at step r; events still pending at the end rank after every step.
  struct EventInfo {
    std::size_t writer;
    std::size_t gone;
    bool delivered;
  };
  std::vector<std::vector<EventInfo>> events(static_cast<std::size_t>(causal.pod_count()));
  std::vector<std::pair<PodId, int>> pending;  // in the order written
  World w(causal);
  for (std::size_t i = 0; i < n; ++i) {
    const Action& a = path[i];
    if (!w.is_enabled(a)) {
      throw std::invalid_argument(fmt::format("step {} ({}) of the causal schedule is not enabled",
                                              i + 1, format_action(a, causal)));
    }
    const StepReport r = w.apply(a);
    StepInfo& s = steps[i];
    s.action = a;
    s.scheduler = r.touched_scheduler;
    s.pods = r.touched_pods;
    if (a.kind == ActionKind::kObserve) {
      const PodId q = r.event.pod;
      s.delivered = {q, delivered_count[q]++};
      events[q][static_cast<std::size_t>(s.delivered.second)].gone = i;
      events[q][static_cast<std::size_t>(s.delivered.second)].delivered = true;
      std::erase(pending, s.delivered);
    }
    if (a.kind == ActionKind::kRestart) {
      // The relist drops every pending event: the next one delivered is written after it.
      for (const auto& [q, k] : pending)
        events[q][static_cast<std::size_t>(k)].gone = i;
      pending.clear();
      delivered_count = written_count;
    }
    // The events written: per pod, those pending now beyond those pending before. A step
    // that writes several pods' events writes them in its program order, which the causal
    // order keeps; the serialization below moves whole steps, so their order within the step
    // needs no record.
    {
      std::array<int, kMaxPods> pending_now{};
      for (const WatchEvent& e : w.events())
        ++pending_now[e.pod];
      std::array<int, kMaxPods> pending_before{};
      for (const auto& pe : pending)
        ++pending_before[pe.first];
      for (PodId q = 0; q < causal.pod_count(); ++q) {
        for (int extra = pending_now[q] - pending_before[q]; extra > 0; --extra) {
          s.written.push_back({q, written_count[q]++});
          events[q].push_back({i, n + 1 + i, false});
          pending.push_back(s.written.back());
        }
      }
    }
  }
  // Dependence: steps that share the scheduler's side or a pod keep their order, and an
  // observe comes after the step that wrote its event. Then the FIFO order: an event the
  // informer delivers is written before every event that leaves the queue after it.
  std::vector<std::vector<std::size_t>> after(n);  // after[i]: steps that must follow step i
  std::vector<int> needs(n, 0);
  const auto edge = [&](std::size_t i, std::size_t j) {
    after[i].push_back(j);
    ++needs[j];
  };
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const bool shared = (steps[i].scheduler && steps[j].scheduler) ||
                          (steps[i].pods & steps[j].pods) != 0 ||
                          std::find(steps[i].written.begin(), steps[i].written.end(),
                                    steps[j].delivered) != steps[i].written.end();
      if (shared)
        edge(i, j);
    }
  }
  for (const auto& of_pod : events) {
    for (const EventInfo& e1 : of_pod) {
      if (!e1.delivered)
        continue;
      for (const auto& other_pod : events) {
        for (const EventInfo& e2 : other_pod) {
          if (e2.gone > e1.gone && e2.writer != e1.writer)
            edge(e1.writer, e2.writer);
        }
      }
    }
  }
  // The serialization: of the steps whose predecessors are placed, the earliest in `path`.
  std::vector<Action> out;
  std::vector<std::size_t> taken;  // out[k] is path[taken[k]]
  out.reserve(n);
  std::vector<bool> done(n, false);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t next = n;
    for (std::size_t i = 0; i < n && next == n; ++i) {
      if (!done[i] && needs[i] == 0)
        next = i;
    }
    if (next == n)
      throw std::logic_error("the causal schedule's order has a cycle: no FIFO serialization");
    done[next] = true;
    taken.push_back(next);
    for (std::size_t j : after[next])
      --needs[j];
    Action a = path[next];
    if (a.kind == ActionKind::kObserve)
      a.pod = kNoPod;
    out.push_back(a);
  }
  // Checked in the FIFO model: every step enabled, every delivery the event expected.
  const Cluster fifo = causal.with_watch_order(WatchOrder::kFifo);
  World check(fifo);
  for (std::size_t k = 0; k < n; ++k) {
    if (!check.is_enabled(out[k])) {
      throw std::logic_error(fmt::format("the FIFO serialization's step {} ({}) is not enabled",
                                         k + 1, format_action(out[k], fifo)));
    }
    const StepReport r = check.apply(out[k]);
    if (out[k].kind == ActionKind::kObserve && r.event.pod != path[taken[k]].pod) {
      throw std::logic_error(
          fmt::format("the FIFO serialization's step {} delivers an event of {}, not of {}", k + 1,
                      fifo.pod_name(r.event.pod), fifo.pod_name(path[taken[k]].pod)));
    }
  }
  return out;
}

}  // namespace preemptcheck
