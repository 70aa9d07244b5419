// Symmetry: the classes of interchangeable pods, and the renaming that puts a state's pods of
// each class into a canonical order (SPEC §8).
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

// Each pod's signature: a digest of what the state says of it, naming other pods only by
// their class (`class_of`), so that renaming pods within classes carries each signature along
// with its pod. Only the pods in `wanted` get one. A member added to World (impl/world.h) that
// holds or names pods is renamed by its kind in the list of fields (impl/world_fields.h) and
// should be read here too: a pod it says something of is otherwise told apart less finely.
void signatures(const World& w, const spec::Ledger& l,
                const std::array<std::uint8_t, kMaxPods>& class_of, PodSet wanted,
                std::array<std::uint64_t, kMaxPods>& out);

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
  signatures(world, ledger, class_, alike_, sig);
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
    normal.normalize_starts();
  if (options_.forget_starts)
    normal.forget_starts();
  if (!reduces_)
    return ledger.fingerprint(normal.fingerprint());
  const std::array<PodId, kMaxPods> to = canonical_renaming(normal, ledger);
  bool identity = true;
  for (int p = 0; p < pod_count_ && identity; ++p)
    identity = to[p] == p;
  if (identity)
    return ledger.fingerprint(normal.fingerprint());
  return ledger.renamed(to).fingerprint(normal.renamed(to).fingerprint());
}

namespace {

void signatures(const World& w, const spec::Ledger& l,
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
  for (std::size_t i = 0; i < w.active_queue().size(); ++i)
    active_at[w.active_queue()[i]] = i + 1;
  // Under the causal watch order an event's position in the canonical serialization depends
  // on the names of the pods whose events are concurrent with it: what is read instead is
  // what happens before it, by the classes of those events' pods.
  const bool causal = w.cluster().is_causal();
  const auto classes_of_events = [&](std::uint32_t mask) {
    PodSet pods = 0;
    std::uint64_t count = 0;
    for (std::size_t k = 0; k < w.events().size(); ++k) {
      if ((mask >> k & 1U) != 0 && w.events()[k].pod != kNoPod) {
        pods |= pod_bit(w.events()[k].pod);
        ++count;
      }
    }
    return class_multiset(pods, class_of) * 0x100000001b3ULL + count;
  };
  for (std::size_t i = 0; i < w.events().size(); ++i) {
    const WatchEvent& e = w.events()[i];
    if (e.pod == kNoPod)
      continue;
    Digest d;
    d.word(in_events[e.pod]);
    d.word((causal ? 0 : i) | static_cast<std::uint64_t>(e.type) << 8 | pack(e.obj) << 16);
    if (causal)
      d.word(classes_of_events(w.happens_after(i)));
    in_events[e.pod] = d.value();
  }
  for (std::size_t j = 0; j < w.jobs().size(); ++j) {
    const Job& job = w.jobs()[j];
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
    const auto q = static_cast<PodId>(p);
    const std::uint64_t by = std::uint64_t{class_of[p]} + 1;
    if (w.last_victim(q) != kNoPod)
      named[w.last_victim(q)] += by * 0x9e3779b97f4a7c15ULL;
    for (PodId v : pods_in(w.inflight_victims_of(q)))
      named[v] += by * 0xbf58476d1ce4e5b9ULL;
    for (PodId v : pods_in(l.chosen_by(q)))
      named[v] += by * 0x94d049bb133111ebULL;
  }
  const auto bit = [](PodSet s, std::size_t p, int at) {
    return std::uint64_t{has_pod(s, static_cast<PodId>(p))} << at;
  };
  for (std::size_t p = 0; p < n; ++p) {
    const auto q = static_cast<PodId>(p);
    if (!has_pod(wanted, q))
      continue;
    Digest d;
    d.word(pack(w.api(q)) | pack(w.lister(q)) << 32);
    d.word(std::uint64_t{w.binding(q)} | std::uint64_t{w.late_binding(q)} << 8 |
           std::uint64_t{w.assumed(q)} << 16 | std::uint64_t{w.nominated(q)} << 24 |
           std::uint64_t{w.queued_patch(q)} << 32 | std::uint64_t{l.standing_nomination(q)} << 40 |
           std::uint64_t{w.queue_stamp(q)} << 48);
    d.word(bit(w.uncreated(), p, 0) | bit(w.unschedulable_pool(), p, 1) | bit(w.gated(), p, 2) |
           bit(w.preempting(), p, 3) | bit(w.waiting_for_own_victims(), p, 4) |
           bit(w.backoff_queue(), p, 5) | bit(w.error_backoff(), p, 6) |
           bit(w.late_evictions(), p, 7) | bit(w.queued_patches(), p, 8) |
           bit(w.in_flight_decision().victims, p, 9) | bit(w.in_flight_decision().to_evict, p, 10) |
           bit(w.pdb_counted(), p, 12) | std::uint64_t{w.in_flight() == p} << 11 |
           active_at[p] << 16);
    d.word(w.last_victim(q) == kNoPod ? 0 : std::uint64_t{class_of[w.last_victim(q)]} + 1);
    d.word(class_multiset(w.inflight_victims_of(q), class_of));
    d.word(class_multiset(l.chosen_by(q), class_of));
    d.word(named[p]);
    d.word(in_events[p]);
    if (causal)
      d.word(classes_of_events(w.pod_clock(q)));
    d.word(in_jobs[p]);
    out[p] = d.value();
  }
}

}  // namespace
}  // namespace preemptcheck
