// Renaming pods field by field: what a renaming does to a field of each FieldKind
// (impl/world_fields.h). World::renamed and spec::Ledger::renamed apply it to every field of
// their lists, so that a field's kind, declared once, is the only place its renaming is said.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "impl/world.h"
#include "impl/world_fields.h"

namespace preemptcheck {

inline PodId rename_pod(PodId p, const PodRenaming& to) { return p == kNoPod ? kNoPod : to[p]; }

inline PodSet rename_set(PodSet s, const PodRenaming& to) {
  PodSet out = 0;
  for (PodId p : pods_in(s))
    out |= pod_bit(to[p]);
  return out;
}

// The structs that name pods (FieldKind::kHoldsPods).
inline void rename_pods(WatchEvent& e, const PodRenaming& to) { e.pod = rename_pod(e.pod, to); }
inline void rename_pods(Job& j, const PodRenaming& to) {
  j.preemptor = rename_pod(j.preemptor, to);
  j.last = rename_pod(j.last, to);
  j.pending = rename_set(j.pending, to);
}
inline void rename_pods(CycleDecision& d, const PodRenaming& to) {
  d.victims = rename_set(d.victims, to);
  d.to_evict = rename_set(d.to_evict, to);
}

template <class T>
struct IsPodArray : std::false_type {};
template <class T>
struct IsPodArray<PodArray<T>> : std::true_type {};

/// Sets `out`, a copy of field `in`, to `in` with pod p renamed to[p], for the first n pods.
template <FieldKind K, class T>
void rename_field([[maybe_unused]] const T& in, [[maybe_unused]] T& out,
                  [[maybe_unused]] std::size_t n, [[maybe_unused]] const PodRenaming& to) {
  if constexpr (K == FieldKind::kPerPod) {
    static_assert(IsPodArray<T>::value, "a per-pod field is a PodArray");
    for (std::size_t p = 0; p < n; ++p)
      out[to[p]] = in[p];
  } else if constexpr (K == FieldKind::kPerPodPod) {
    static_assert(std::is_same_v<T, PodArray<PodId>>);
    for (std::size_t p = 0; p < n; ++p)
      out[to[p]] = rename_pod(in[p], to);
  } else if constexpr (K == FieldKind::kPerPodPods) {
    static_assert(std::is_same_v<T, PodArray<PodSet>>);
    for (std::size_t p = 0; p < n; ++p)
      out[to[p]] = rename_set(in[p], to);
  } else if constexpr (K == FieldKind::kPodSet) {
    static_assert(std::is_same_v<T, PodSet>);
    out = rename_set(in, to);
  } else if constexpr (K == FieldKind::kPod) {
    static_assert(std::is_same_v<T, PodId>);
    out = rename_pod(in, to);
  } else if constexpr (K == FieldKind::kPods) {
    static_assert(std::is_same_v<typename T::value_type, PodId>);
    for (PodId& p : out)
      p = rename_pod(p, to);
  } else if constexpr (K == FieldKind::kHoldsPods) {
    if constexpr (requires { out.begin(); }) {
      for (auto& x : out)
        rename_pods(x, to);
    } else {
      rename_pods(out, to);
    }
  }
  // kCluster, kUnused, kOther: unchanged. kEventOrder: the caller puts the events back in
  // their canonical serialization, which moves it.
}

}  // namespace preemptcheck
