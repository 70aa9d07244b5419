// Fingerprint: a stable 64-bit digest of a World, the explorer's identity for a state. It
// covers every field kube-scheduler holds, packed into words explicitly, so it does not
// depend on memory layout, padding or the build; equal Worlds have equal fingerprints.
// Beside it, the map of the World's bytes that may change, for the packed encoding, derived
// from the list of the World's fields.
#include "impl/fingerprint.h"

#include "impl/world.h"
#include "impl/world_fields.h"

#include <cstddef>
#include <type_traits>

namespace preemptcheck {
namespace {

// A PodObj in 32 bits.
std::uint64_t pack(const PodObj& o) {
  return std::uint64_t{o.exists} | std::uint64_t{o.terminating} << 1 |
         std::uint64_t{o.disruption_target} << 2 | std::uint64_t{o.node} << 8 |
         std::uint64_t{o.nominated} << 16 | std::uint64_t{o.start} << 24;
}

}  // namespace

// The words are hand-ordered, so that every state keeps its digest as fields were added; the
// list of fields (impl/world_fields.h) is not walked here, but impl/world_fields_test.cc flips
// every byte of every listed field and fails unless the digest moves.
std::uint64_t World::fingerprint() const {
  Digest d;
  const size_t n = api_.size();
  for (size_t p = 0; p < n; ++p) {
    d.word(pack(api_[p]) | pack(lister_[p]) << 32);
    d.word(std::uint64_t{binding_[p]} | std::uint64_t{assumed_[p]} << 8 |
           std::uint64_t{nominated_[p]} << 16 | std::uint64_t{last_victim_[p]} << 24 |
           std::uint64_t{stamp_[p]} << 32);  // the queue timestamp: kFingerprintScheme 2
    d.word(inflight_by_[p]);
  }
  d.word(events_.size() | std::uint64_t{next_start_} << 32 |
         std::uint64_t{eviction_failures_left_} << 40 |
         std::uint64_t{binding_failures_left_} << 48);
  for (const WatchEvent& e : events_) {
    d.word(static_cast<std::uint64_t>(e.type) | std::uint64_t{e.pod} << 8 | pack(e.obj) << 16);
  }
  d.word(active_.size());
  for (PodId p : active_)
    d.word(p);
  d.word(std::uint64_t{pool_} | std::uint64_t{gated_} << 32);
  d.word(std::uint64_t{preempting_} | std::uint64_t{uncreated_} << 32);
  d.word(waiting_);
  d.word(jobs_.size());
  for (const Job& j : jobs_) {
    d.word(std::uint64_t{j.preemptor} | std::uint64_t{j.node} << 8 |
           static_cast<std::uint64_t>(j.phase) << 16 | std::uint64_t{j.failed} << 24 |
           std::uint64_t{j.last_in_memory} << 25 | std::uint64_t{j.last} << 32);
    d.word(j.pending);
  }
  // Only scenarios with later nodes, deletions, restarts or external bindings digest this
  // word, so every other state keeps the digest it had before these existed
  // (a rule since kFingerprintScheme 1).
  if (uncreated_nodes_ != 0 || deletions_left_ != 0 || restarts_left_ != 0 ||
      external_bindings_left_ != 0) {
    d.word(std::uint64_t{1} << 63 | std::uint64_t{uncreated_nodes_} |
           std::uint64_t{deletions_left_} << 8 | std::uint64_t{restarts_left_} << 16 |
           std::uint64_t{external_bindings_left_} << 24);
  }
  // Only a split cycle in flight digests these words, so every state of an atomic cycle keeps
  // its digest (a rule since kFingerprintScheme 1).
  if (in_flight_ != kNoPod) {
    const CycleDecision& c = in_flight_decision_;
    d.word(std::uint64_t{1} << 62 | std::uint64_t{in_flight_} |
           static_cast<std::uint64_t>(c.kind) << 8 | std::uint64_t{c.node} << 16 |
           std::uint64_t{in_flight_event_} << 24);
    d.word(std::uint64_t{c.victims} | std::uint64_t{c.to_evict} << 32);
    // The PDB violations the decision counted, which no-pdb-overspend reads at cycle-end; only
    // when there are some, so every other state keeps its digest.
    if (c.pdb_violations != 0)
      d.word(std::uint64_t{1} << 55 | std::uint64_t{c.pdb_violations});
    // patch-diff=view: the popped copy's nominatedNodeName, when the informer has changed it
    // since (otherwise it is the lister's, digested above).
    if (in_flight_nominated_ != lister_[in_flight_].nominated && mechanisms().patch_diff_view)
      d.word(std::uint64_t{1} << 59 | std::uint64_t{in_flight_nominated_});
  }
  // Only a non-empty backoffQ, or requests sent before a restart, digest these words, so
  // every state without them keeps its digest (a rule since kFingerprintScheme 1).
  if (backoff_ != 0)
    d.word(std::uint64_t{1} << 61 | std::uint64_t{backoff_});
  if (error_backoff_ != 0)
    d.word(std::uint64_t{1} << 58 | std::uint64_t{error_backoff_});
  // Only a status patch queued in the API dispatcher (api-calls=dispatched) digests these
  // words, so every state without one keeps its digest (a rule since kFingerprintScheme 1).
  if (patches_ != 0) {
    d.word(std::uint64_t{1} << 57 | std::uint64_t{patches_});
    for (PodId p : pods_in(patches_))
      d.word(patch_node_[p]);
  }
  // Only a victim preempted in memory whose binding cycle has not yet woken digests this word,
  // so every other state keeps its digest.
  if (preempted_in_memory_ != 0)
    d.word(std::uint64_t{1} << 53 | std::uint64_t{preempted_in_memory_});
  // Only pdb-status=lagged publishes a PDB status, so every other state keeps its digest.
  if (mechanisms().pdb_status_lagged)
    d.word(std::uint64_t{1} << 56 | std::uint64_t{pdb_counted_});
  bool late = late_evictions_ != 0;
  // Only a scenario with restarts ever sets a late binding: no other state looks.
  for (size_t p = 0; p < n && !late && cluster_->scenario().faults.restarts > 0; ++p)
    late = late_binding_[p] != kNoNode;
  if (late) {
    d.word(std::uint64_t{1} << 60 | std::uint64_t{late_evictions_});
    for (size_t p = 0; p < n; ++p)
      d.word(late_binding_[p]);
  }
  // Only the causal watch order (--reduce watch-order) keeps a happens-before order of the
  // pending events and the clocks that extend it: every FIFO state keeps its digest.
  if (cluster_->is_causal()) {
    d.word(std::uint64_t{1} << 54 | std::uint64_t{scheduler_clock_});
    for (std::size_t i = 0; i < events_.size(); ++i)
      d.word(std::uint64_t{event_after_[i]} | std::uint64_t{next_in_step_[i]} << 32);
    d.word(must_deliver_);
    for (size_t p = 0; p < n; ++p)
      d.word(pod_clock_[p]);
  }
  return d.value();
}

namespace {

// The blocks covering bytes [offset, offset + length) of a World.
std::uint64_t blocks(std::size_t offset, std::size_t length) {
  if (length == 0) {
    return 0;
  }
  const std::size_t first = offset / World::kImageBlock;
  const std::size_t last = (offset + length - 1) / World::kImageBlock;
  const std::uint64_t upto = last >= 63 ? ~std::uint64_t{0} : (std::uint64_t{2} << last) - 1;
  return upto & ~((std::uint64_t{1} << first) - 1);
}

// The blocks of a field that may differ between two Worlds of a cluster whose queues are no
// longer than this one's: its storage says which of its bytes are in use (impl/world_fields.h).
template <FieldKind K, class T>
std::uint64_t field_blocks(std::size_t offset, [[maybe_unused]] const T& field,
                           [[maybe_unused]] std::size_t events) {
  using Storage = FieldStorageOf<T>;
  if constexpr (K == FieldKind::kCluster || K == FieldKind::kUnused) {
    return 0;
  } else if constexpr (Storage::value == FieldStorage::kPerPod) {
    // The used prefix; the size is the pod count in every World of the cluster.
    return blocks(offset, field.size() * Storage::element);
  } else if constexpr (Storage::value == FieldStorage::kQueue) {
    // The used prefix, and the size field.
    return blocks(offset, field.size() * Storage::element) |
           blocks(offset + sizeof(T) - sizeof(std::uint32_t), sizeof(std::uint32_t));
  } else if constexpr (Storage::value == FieldStorage::kPerEvent) {
    return blocks(offset, events * Storage::element);
  } else {
    return blocks(offset, sizeof(T));
  }
}

}  // namespace

std::uint64_t World::changeable_blocks() const {
  // Only a scenario with restarts ever sets a late binding; only api-calls=dispatched ever
  // queues a status patch; only the causal watch order keeps the pending events' order and
  // clocks (FieldWhen).
  const bool restarts = cluster_->scenario().faults.restarts > 0;
  const bool dispatched = mechanisms().dispatched_calls;
  const bool causal = cluster_->is_causal();
  const auto when = [&](FieldWhen w) {
    return w == FieldWhen::kAlways || (w == FieldWhen::kRestarts && restarts) ||
           (w == FieldWhen::kDispatched && dispatched) || (w == FieldWhen::kCausal && causal);
  };
  const std::size_t events = events_.size();
  std::uint64_t b = 0;
#define PREEMPTCHECK_BLOCKS(member, kind, w) \
  if (when(FieldWhen::w))                    \
    b |= field_blocks<FieldKind::kind>(offsetof(World, member), member, events);
  PREEMPTCHECK_WORLD_FIELDS(PREEMPTCHECK_BLOCKS)
#undef PREEMPTCHECK_BLOCKS
  return b;
}

}  // namespace preemptcheck
