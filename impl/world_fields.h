// The World's fields, listed once with what each holds: the list that the renaming of pods
// (World::renamed, for symmetry reduction) and the map of the bytes that may change (World::
// changeable_blocks, for the packed encoding) are derived from, and that a test reads to show
// that World::fingerprint digests every field. A member added to World and not listed here, or
// listed out of declaration order, fails the static_assert at the end: the list is contiguous
// and ends at sizeof(World), which a World without padding makes exact.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "impl/world.h"

namespace preemptcheck {

/// How a field holds pods, which says what a renaming of pods does to it.
enum class FieldKind : std::uint8_t {
  kCluster,     ///< the cluster pointer: the same in every World of a cluster, no state
  kUnused,      ///< always zero (no padding): no state
  kOther,       ///< names no pod: unchanged by a renaming
  kPerPod,      ///< one value per pod, naming no pod: each value moves with its pod
  kPerPodPod,   ///< one pod id per pod: each moves with its pod and is renamed
  kPerPodPods,  ///< one pod set per pod: each moves with its pod and its bits are renamed
  kPodSet,      ///< a pod set: its bits are renamed
  kPod,         ///< a pod id: renamed
  kPods,        ///< a list of pod ids: each renamed where it stands
  kHoldsPods,   ///< a struct that names pods, or a list of them: rename_pods() renames each
  /// The causal watch order's bookkeeping, by position among the pending events: it follows
  /// the events when they are put back in their canonical serialization (canonicalize_events).
  kEventOrder,
};

/// When a field can differ between two Worlds of one cluster (World::changeable_blocks).
enum class FieldWhen : std::uint8_t {
  kAlways,
  kRestarts,    ///< only in a scenario with restarts
  kDispatched,  ///< only under api-calls=dispatched
  kCausal,      ///< only under the causal watch order
};

// Every data member of World, in declaration order (impl/world.h): X(member, kind, when).
#define PREEMPTCHECK_WORLD_FIELDS(X)          \
  X(cluster_, kCluster, kAlways)              \
  X(api_, kPerPod, kAlways)                   \
  X(binding_, kPerPod, kAlways)               \
  X(late_binding_, kPerPod, kRestarts)        \
  X(events_, kHoldsPods, kAlways)             \
  X(uncreated_, kPodSet, kAlways)             \
  X(lister_, kPerPod, kAlways)                \
  X(assumed_, kPerPod, kAlways)               \
  X(nominated_, kPerPod, kAlways)             \
  X(patch_node_, kPerPod, kDispatched)        \
  X(active_, kPods, kAlways)                  \
  X(pool_, kPodSet, kAlways)                  \
  X(gated_, kPodSet, kAlways)                 \
  X(preempting_, kPodSet, kAlways)            \
  X(last_victim_, kPerPodPod, kAlways)        \
  X(stamp_, kPerPod, kAlways)                 \
  X(inflight_by_, kPerPodPods, kAlways)       \
  X(waiting_, kPodSet, kAlways)               \
  X(backoff_, kPodSet, kAlways)               \
  X(error_backoff_, kPodSet, kAlways)         \
  X(late_evictions_, kPodSet, kAlways)        \
  X(patches_, kPodSet, kAlways)               \
  X(pdb_counted_, kPodSet, kAlways)           \
  X(preempted_in_memory_, kPodSet, kAlways)   \
  X(event_after_, kEventOrder, kCausal)       \
  X(pod_clock_, kPerPod, kCausal)             \
  X(scheduler_clock_, kOther, kCausal)        \
  X(next_in_step_, kEventOrder, kCausal)      \
  X(jobs_, kHoldsPods, kAlways)               \
  X(in_flight_decision_, kHoldsPods, kAlways) \
  X(next_start_, kOther, kAlways)             \
  X(uncreated_nodes_, kOther, kAlways)        \
  X(in_flight_, kPod, kAlways)                \
  X(in_flight_event_, kOther, kAlways)        \
  X(in_flight_nominated_, kOther, kAlways)    \
  X(eviction_failures_left_, kOther, kAlways) \
  X(binding_failures_left_, kOther, kAlways)  \
  X(deletions_left_, kOther, kAlways)         \
  X(restarts_left_, kOther, kAlways)          \
  X(external_bindings_left_, kOther, kAlways) \
  X(must_deliver_, kEventOrder, kCausal)      \
  X(unused_, kUnused, kAlways)

/// How a field is stored, for reading its bytes: a per-pod array (its first pod-count values
/// in use, its size the same in every World of a cluster), a bounded queue (its first size()
/// values and its size in use), an array by pending event (as many values in use as events
/// are pending), or a whole value.
enum class FieldStorage : std::uint8_t { kPerPod, kQueue, kPerEvent, kWhole };

template <class T>
struct FieldStorageOf {
  static constexpr FieldStorage value = FieldStorage::kWhole;
  static constexpr std::size_t element = sizeof(T);
};
template <class T>
struct FieldStorageOf<PodArray<T>> {
  static constexpr FieldStorage value = FieldStorage::kPerPod;
  static constexpr std::size_t element = sizeof(T);
};
template <class T, std::size_t N>
struct FieldStorageOf<BoundedVec<T, N>> {
  static constexpr FieldStorage value = FieldStorage::kQueue;
  static constexpr std::size_t element = sizeof(T);
};
template <class T>
struct FieldStorageOf<std::array<T, kMaxCausalEvents>> {
  static constexpr FieldStorage value = FieldStorage::kPerEvent;
  static constexpr std::size_t element = sizeof(T);
};

/// One listed field: where it lies in a World and what it holds.
struct FieldInfo {
  std::string_view name;
  std::size_t offset;
  std::size_t size;
  FieldKind kind;
  FieldWhen when;
  FieldStorage storage;
  std::size_t element;  ///< the size of one value (of the whole field when kWhole)
};

/// Whether `fields` follow each other with no gap from offset 0 and end at `size`: in a
/// struct without padding, whether they are all its members, in declaration order.
template <std::size_t N>
constexpr bool fields_cover(const std::array<FieldInfo, N>& fields, std::size_t size) {
  std::size_t end = 0;
  for (const FieldInfo& f : fields) {
    if (f.offset != end)
      return false;
    end = f.offset + f.size;
  }
  return end == size;
}

/// The list as data, for the coverage check below and for tests.
struct World::Fields {
#define PREEMPTCHECK_FIELD_INFO(member, kind, when)         \
  FieldInfo{#member,                                        \
            offsetof(World, member),                        \
            sizeof(World::member),                          \
            FieldKind::kind,                                \
            FieldWhen::when,                                \
            FieldStorageOf<decltype(World::member)>::value, \
            FieldStorageOf<decltype(World::member)>::element},
  static constexpr std::array kTable = {PREEMPTCHECK_WORLD_FIELDS(PREEMPTCHECK_FIELD_INFO)};
#undef PREEMPTCHECK_FIELD_INFO
};

static_assert(fields_cover(World::Fields::kTable, sizeof(World)),
              "every data member of World is listed in PREEMPTCHECK_WORLD_FIELDS "
              "(impl/world_fields.h), in declaration order");

}  // namespace preemptcheck
