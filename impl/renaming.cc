// Renaming: the World with its pods renamed, each field as its kind in the list of fields says
// (impl/world_fields.h), and the start order normalized: what symmetry reduction stores a state
// by (properties/symmetry.h, SPEC §8).
#include <algorithm>
#include <array>

#include "impl/pod_renaming.h"
#include "impl/world.h"
#include "impl/world_fields.h"

namespace preemptcheck {

World World::renamed(const PodRenaming& to) const {
  World r = *this;
  const std::size_t n = api_.size();
#define PREEMPTCHECK_RENAME(member, kind, when) \
  rename_field<FieldKind::kind>(member, r.member, n, to);
  PREEMPTCHECK_WORLD_FIELDS(PREEMPTCHECK_RENAME)
#undef PREEMPTCHECK_RENAME
  // Under the causal watch order the pending events are kept in the serialization that puts
  // the lowest pod first among the events free to go next: renamed pods put them in another.
  // The happens-before masks, the clocks and the step links (FieldKind::kEventOrder) follow
  // the events to their new positions.
  if (cluster().is_causal())
    r.canonicalize_events();
  return r;
}

void World::normalize_starts() {
  // The cluster's pods (the slots past them are never used).
  const auto n = static_cast<std::size_t>(cluster().pod_count());
  PodSet named = 0;
  for (const WatchEvent& e : events_) {
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
    if (!api_[p].exists && !lister_[p].exists && !has_pod(named, static_cast<PodId>(p))) {
      api_[p].start = 0xff;
      lister_[p].start = 0xff;
    }
    use(api_[p].start);
    use(lister_[p].start);
  }
  for (const WatchEvent& e : events_)
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
    api_[p].start = rank[api_[p].start];
    lister_[p].start = rank[lister_[p].start];
  }
  for (WatchEvent& e : events_)
    e.obj.start = rank[e.obj.start];
  next_start_ = next;
}

void World::forget_starts() {
  for (std::size_t p = 0; p < api_.size(); ++p) {
    api_[p].start = 0xff;
    lister_[p].start = 0xff;
  }
  for (WatchEvent& e : events_)
    e.obj.start = 0xff;
  next_start_ = 0;
}

}  // namespace preemptcheck
