// Symmetry: the classes of interchangeable pods, and the renaming that puts a state's pods of
// each class into a canonical order (SPEC §12).
#include "properties/symmetry.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "impl/fingerprint.h"
#include "impl/world.h"
#include "spec/ledger.h"

namespace preemptcheck {
namespace {

// A PodObj in 32 bits (as World::fingerprint packs it).
std::uint64_t pack(const PodObj& o) {
  return std::uint64_t{o.exists} | std::uint64_t{o.terminating} << 1 |
         std::uint64_t{o.disruption_target} << 2 | std::uint64_t{o.node} << 8 |
         std::uint64_t{o.nominated} << 16 | std::uint64_t{o.start} << 24;
}

PodSet rename_set(PodSet s, const std::array<PodId, kMaxPods>& to) {
  PodSet out = 0;
  for (PodId p : pods_in(s))
    out |= pod_bit(to[p]);
  return out;
}

PodId rename_pod(PodId p, const std::array<PodId, kMaxPods>& to) {
  return p == kNoPod ? kNoPod : to[p];
}

// A multiset of classes as one word: the sum of a mixed value per member, so that it does not
// depend on which pods of a class are the members.
std::uint64_t class_multiset(PodSet s, const std::array<std::uint8_t, kMaxPods>& class_of) {
  std::uint64_t sum = 0;
  for (PodId p : pods_in(s)) {
    Digest d;
    d.word(class_of[p]);
    sum += d.value();
  }
  return sum;
}

}  // namespace

std::string_view reduction_name(Reduction r) {
  switch (r) {
    case Reduction::kNone:
      return "none";
    case Reduction::kSymmetry:
      return "symmetry";
    case Reduction::kWatchOrder:
      return "watch-order";
    case Reduction::kWatchOrderSymmetry:
      return "watch-order,symmetry";
  }
  return "none";
}

std::optional<Reduction> parse_reduction(std::string_view text) {
  if (text == "none")
    return Reduction::kNone;
  unsigned bits = 0;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    const unsigned bit = part == "symmetry" ? 1U : part == "watch-order" ? 2U : 0U;
    if (bit == 0 || (bits & bit) != 0)
      return std::nullopt;
    bits |= bit;
    if (comma == std::string_view::npos)
      return static_cast<Reduction>(bits);
    text.remove_prefix(comma + 1);
  }
}

Symmetry::Symmetry(const Cluster& cluster, Options options)
    : options_(options), pod_count_(cluster.pod_count()) {
  const Scenario& sc = cluster.scenario();
  // Pods some `arrival-order` entry waits for are told apart by that: each is its own class.
  PodSet waited_for = 0;
  for (int p = 0; p < pod_count_; ++p) {
    const Arrival a = cluster.pod_arrives_after(static_cast<PodId>(p));
    if (a.kind == Arrival::Kind::kPod)
      waited_for |= pod_bit(a.id);
  }
  for (int n = 0; n < cluster.node_count(); ++n) {
    const Arrival a = cluster.node_arrives_after(static_cast<NodeId>(n));
    if (a.kind == Arrival::Kind::kPod)
      waited_for |= pod_bit(a.id);
  }
  // Everything the model reads of a pod but its name: the class key.
  using Key = std::tuple<int, std::int64_t, std::int64_t, std::string, bool, bool, std::uint64_t,
                         int, int, int, int, int, bool>;
  std::map<Key, std::uint8_t> classes;
  for (int i = 0; i < pod_count_; ++i) {
    const auto p = static_cast<PodId>(i);
    const PodSpec& spec = sc.pods[p];
    std::uint64_t pdbs = 0;
    for (std::size_t b = 0; b < cluster.pdb_members().size(); ++b) {
      if (has_pod(cluster.pdb_members()[b], p))
        pdbs |= std::uint64_t{1} << b;
    }
    const Arrival after = cluster.pod_arrives_after(p);
    const int expect = (has_pod(cluster.expect_bound(), p) ? 1 : 0) |
                       (has_pod(cluster.expect_not_bound(), p) ? 2 : 0);
    const Key key{options.priority ? spec.priority : 0,
                  cluster.request(p).cpu,
                  cluster.request(p).memory,
                  spec.node,
                  spec.arrives_later,
                  spec.preempt_never,
                  pdbs,
                  expect,
                  static_cast<int>(after.kind),
                  after.kind == Arrival::Kind::kNone ? 0 : after.id,
                  has_pod(waited_for, p) ? i : -1,
                  static_cast<int>(spec.scheduler),
                  spec.recreated};
    const auto [it, added] = classes.emplace(key, static_cast<std::uint8_t>(members_.size()));
    if (added)
      members_.emplace_back();
    class_[p] = it->second;
    members_[it->second].push_back(p);
  }
  class_count_ = static_cast<int>(members_.size());
  reduces_ = class_count_ < pod_count_;
  for (const std::vector<PodId>& members : members_) {
    for (const PodId p : members)
      alike_ |= members.size() > 1 ? pod_bit(p) : PodSet{0};
  }
}

std::array<PodId, kMaxPods> Symmetry::canonical_renaming(const World& world,
                                                         const spec::Ledger& ledger) const {
  std::array<PodId, kMaxPods> to{};
  for (int p = 0; p < pod_count_; ++p)
    to[p] = static_cast<PodId>(p);
  std::array<std::uint64_t, kMaxPods> sig{};
  PodRenaming::signatures(world, ledger, class_, alike_, sig);
  std::array<PodId, kMaxPods> sorted{};
  for (const std::vector<PodId>& members : members_) {
    if (members.size() < 2)
      continue;
    std::copy(members.begin(), members.end(), sorted.begin());
    const auto end = sorted.begin() + static_cast<std::ptrdiff_t>(members.size());
    // Ties (equal signatures) keep PodId order: such pods may be stored twice, never merged
    // wrongly, since the representative is always a renaming of the state itself.
    std::stable_sort(sorted.begin(), end, [&](PodId a, PodId b) { return sig[a] < sig[b]; });
    for (std::size_t k = 0; k < members.size(); ++k)
      to[sorted[k]] = members[k];
  }
  return to;
}

std::uint64_t Symmetry::fingerprint(const World& world, const spec::Ledger& ledger) const {
  World normal = world;
  if (options_.starts)
    PodRenaming::normalize_starts(normal);
  if (options_.forget_starts)
    PodRenaming::forget_starts(normal);
  if (!reduces_)
    return ledger.fingerprint(normal.fingerprint());
  const std::array<PodId, kMaxPods> to = canonical_renaming(normal, ledger);
  bool identity = true;
  for (int p = 0; p < pod_count_ && identity; ++p)
    identity = to[p] == p;
  if (identity)
    return ledger.fingerprint(normal.fingerprint());
  const World w = PodRenaming::rename(normal, to);
  return PodRenaming::rename(ledger, to, pod_count_).fingerprint(w.fingerprint());
}

// A member added to World (impl/world.h) that holds or names pods must be renamed here, and
// read by signatures() below.
void PodRenaming::normalize_starts(World& w) {
  // The cluster's pods (the slots past them are never used).
  const auto n = static_cast<std::size_t>(w.cluster().pod_count());
  PodSet named = 0;
  for (const WatchEvent& e : w.events_) {
    if (e.pod != kNoPod)
      named |= pod_bit(e.pod);
  }
  std::array<bool, 256> used{};
  std::size_t top = 0;  // one past the largest start in use (0xff, not started, aside)
  const auto use = [&](std::uint8_t start) {
    used[start] = true;
    top = start == 0xff ? top : std::max<std::size_t>(top, start + 1U);
  };
  for (std::size_t p = 0; p < n; ++p) {
    if (!w.api_[p].exists && !w.lister_[p].exists && !has_pod(named, static_cast<PodId>(p))) {
      w.api_[p].start = 0xff;
      w.lister_[p].start = 0xff;
    }
    use(w.api_[p].start);
    use(w.lister_[p].start);
  }
  for (const WatchEvent& e : w.events_)
    use(e.obj.start);
  // Order-preserving: the k-th start in use becomes k; 0xff (not started) stays.
  std::array<std::uint8_t, 256> rank{};
  std::uint8_t next = 0;
  for (std::size_t v = 0; v < top; ++v) {
    if (used[v])
      rank[v] = next++;
  }
  rank[0xff] = 0xff;
  for (std::size_t p = 0; p < n; ++p) {
    w.api_[p].start = rank[w.api_[p].start];
    w.lister_[p].start = rank[w.lister_[p].start];
  }
  for (WatchEvent& e : w.events_)
    e.obj.start = rank[e.obj.start];
  w.next_start_ = next;
}

void PodRenaming::forget_starts(World& w) {
  for (std::size_t p = 0; p < w.api_.size(); ++p) {
    w.api_[p].start = 0xff;
    w.lister_[p].start = 0xff;
  }
  for (WatchEvent& e : w.events_)
    e.obj.start = 0xff;
  w.next_start_ = 0;
}

World PodRenaming::rename(const World& w, const std::array<PodId, kMaxPods>& to) {
  World r = w;
  const std::size_t n = w.api_.size();
  for (std::size_t p = 0; p < n; ++p) {
    const PodId q = to[p];
    r.api_[q] = w.api_[p];
    r.binding_[q] = w.binding_[p];
    r.late_binding_[q] = w.late_binding_[p];
    r.lister_[q] = w.lister_[p];
    r.assumed_[q] = w.assumed_[p];
    r.nominated_[q] = w.nominated_[p];
    r.patch_node_[q] = w.patch_node_[p];
    r.last_victim_[q] = rename_pod(w.last_victim_[p], to);
    r.stamp_[q] = w.stamp_[p];
    r.inflight_by_[q] = rename_set(w.inflight_by_[p], to);
    r.pod_clock_[q] = w.pod_clock_[p];
  }
  for (WatchEvent& e : r.events_)
    e.pod = rename_pod(e.pod, to);
  r.uncreated_ = rename_set(w.uncreated_, to);
  for (PodId& p : r.active_)
    p = rename_pod(p, to);
  r.pool_ = rename_set(w.pool_, to);
  r.gated_ = rename_set(w.gated_, to);
  r.preempting_ = rename_set(w.preempting_, to);
  r.waiting_ = rename_set(w.waiting_, to);
  r.backoff_ = rename_set(w.backoff_, to);
  r.error_backoff_ = rename_set(w.error_backoff_, to);
  r.late_evictions_ = rename_set(w.late_evictions_, to);
  r.patches_ = rename_set(w.patches_, to);
  r.pdb_counted_ = rename_set(w.pdb_counted_, to);
  for (Job& j : r.jobs_) {
    j.preemptor = rename_pod(j.preemptor, to);
    j.last = rename_pod(j.last, to);
    j.pending = rename_set(j.pending, to);
  }
  r.in_flight_decision_.victims = rename_set(w.in_flight_decision_.victims, to);
  r.in_flight_decision_.to_evict = rename_set(w.in_flight_decision_.to_evict, to);
  r.in_flight_ = rename_pod(w.in_flight_, to);
  // Under the causal watch order the pending events are kept in the serialization that puts
  // the lowest pod first among the events free to go next: renamed pods put them in another.
  // The happens-before masks, the clocks and the step links follow the events to their new
  // positions.
  if (w.cluster().is_causal())
    r.canonicalize_events();
  return r;
}

spec::Ledger PodRenaming::rename(const spec::Ledger& l, const std::array<PodId, kMaxPods>& to,
                                 int pod_count) {
  spec::Ledger r = l;
  for (int p = 0; p < pod_count; ++p) {
    r.chosen_by_[to[p]] = rename_set(l.chosen_by_[p], to);
    r.standing_[to[p]] = l.standing_[p];
  }
  return r;
}

void PodRenaming::signatures(const World& w, const spec::Ledger& l,
                             const std::array<std::uint8_t, kMaxPods>& class_of, PodSet wanted,
                             std::array<std::uint64_t, kMaxPods>& out) {
  // The cluster's pods (the slots past them are never used, and no signature of theirs read).
  const auto n = static_cast<std::size_t>(w.cluster().pod_count());
  // What other pods' fields and the queues say of each pod, by position or by the class of
  // the pod that names it.
  std::array<std::uint64_t, kMaxPods> named{};
  std::array<std::uint64_t, kMaxPods> active_at{};
  std::array<std::uint64_t, kMaxPods> in_events{};
  std::array<std::uint64_t, kMaxPods> in_jobs{};
  for (std::size_t i = 0; i < w.active_.size(); ++i)
    active_at[w.active_[i]] = i + 1;
  // Under the causal watch order an event's position in the canonical serialization depends
  // on the names of the pods whose events are concurrent with it: what is read instead is
  // what happens before it, by the classes of those events' pods.
  const bool causal = w.cluster().is_causal();
  const auto classes_of_events = [&](std::uint32_t mask) {
    PodSet pods = 0;
    std::uint64_t count = 0;
    for (std::size_t k = 0; k < w.events_.size(); ++k) {
      if ((mask >> k & 1U) != 0 && w.events_[k].pod != kNoPod) {
        pods |= pod_bit(w.events_[k].pod);
        ++count;
      }
    }
    return class_multiset(pods, class_of) * 0x100000001b3ULL + count;
  };
  for (std::size_t i = 0; i < w.events_.size(); ++i) {
    const WatchEvent& e = w.events_[i];
    if (e.pod == kNoPod)
      continue;
    Digest d;
    d.word(in_events[e.pod]);
    d.word((causal ? 0 : i) | static_cast<std::uint64_t>(e.type) << 8 | pack(e.obj) << 16);
    if (causal)
      d.word(classes_of_events(w.event_after_[i]));
    in_events[e.pod] = d.value();
  }
  for (std::size_t j = 0; j < w.jobs_.size(); ++j) {
    const Job& job = w.jobs_[j];
    const std::uint64_t at = (j + 1) << 8;
    const std::uint64_t what =
        at | static_cast<std::uint64_t>(job.phase) << 4 | std::uint64_t{job.failed} << 3 |
        std::uint64_t{job.last_in_memory} << 6 | std::uint64_t{job.node} << 24;
    if (job.preemptor != kNoPod)
      in_jobs[job.preemptor] = in_jobs[job.preemptor] * 0x100000001b3ULL + (what | 1);
    if (job.last != kNoPod)
      in_jobs[job.last] = in_jobs[job.last] * 0x100000001b3ULL + (what | 2);
    for (PodId v : pods_in(job.pending))
      in_jobs[v] = in_jobs[v] * 0x100000001b3ULL + (what | 4);
  }
  for (std::size_t p = 0; p < n; ++p) {
    const std::uint64_t by = std::uint64_t{class_of[p]} + 1;
    if (w.last_victim_[p] != kNoPod)
      named[w.last_victim_[p]] += by * 0x9e3779b97f4a7c15ULL;
    for (PodId v : pods_in(w.inflight_by_[p]))
      named[v] += by * 0xbf58476d1ce4e5b9ULL;
    for (PodId v : pods_in(l.chosen_by_[p]))
      named[v] += by * 0x94d049bb133111ebULL;
  }
  const auto bit = [](PodSet s, std::size_t p, int at) {
    return std::uint64_t{has_pod(s, static_cast<PodId>(p))} << at;
  };
  for (std::size_t p = 0; p < n; ++p) {
    if (!has_pod(wanted, static_cast<PodId>(p)))
      continue;
    Digest d;
    d.word(pack(w.api_[p]) | pack(w.lister_[p]) << 32);
    d.word(std::uint64_t{w.binding_[p]} | std::uint64_t{w.late_binding_[p]} << 8 |
           std::uint64_t{w.assumed_[p]} << 16 | std::uint64_t{w.nominated_[p]} << 24 |
           std::uint64_t{w.patch_node_[p]} << 32 | std::uint64_t{l.standing_[p]} << 40 |
           std::uint64_t{w.stamp_[p]} << 48);
    d.word(bit(w.uncreated_, p, 0) | bit(w.pool_, p, 1) | bit(w.gated_, p, 2) |
           bit(w.preempting_, p, 3) | bit(w.waiting_, p, 4) | bit(w.backoff_, p, 5) |
           bit(w.error_backoff_, p, 6) | bit(w.late_evictions_, p, 7) | bit(w.patches_, p, 8) |
           bit(w.in_flight_decision_.victims, p, 9) | bit(w.in_flight_decision_.to_evict, p, 10) |
           bit(w.pdb_counted_, p, 12) | std::uint64_t{w.in_flight_ == p} << 11 |
           active_at[p] << 16);
    d.word(w.last_victim_[p] == kNoPod ? 0 : std::uint64_t{class_of[w.last_victim_[p]]} + 1);
    d.word(class_multiset(w.inflight_by_[p], class_of));
    d.word(class_multiset(l.chosen_by_[p], class_of));
    d.word(named[p]);
    d.word(in_events[p]);
    if (causal)
      d.word(classes_of_events(w.pod_clock_[p]));
    d.word(in_jobs[p]);
    out[p] = d.value();
  }
}

}  // namespace preemptcheck
