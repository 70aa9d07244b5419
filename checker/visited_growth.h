// Growing a level-synchronous search's visited set on the search's threads: one routine for
// the thread search (level_search.h) and each rank of the distributed one (mpi/rank_search.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "checker/store/fingerprint_set.h"
#include "checker/store/trace_store.h"
#include "checker/threads.h"

namespace preemptcheck::checker::detail {

/// Makes room in `visited` for `extra` more states. When the set grows it is rebuilt from
/// `trace`, which holds the fingerprint of every state stored, each of `threads` threads
/// adding a range of it; the new table is cleared on those threads too.
inline void reserve_visited(FingerprintSet& visited, const TraceStore& trace, std::size_t threads,
                            std::size_t extra) {
  visited.reserve(
      extra,
      [&](FingerprintSet& set) {
        const std::size_t total = trace.size();
        on_threads(threads, [&](std::size_t t) {
          FingerprintSet::Inserter inserter(set);
          trace.for_each_fingerprint(total * t / threads, total * (t + 1) / threads,
                                     [&](std::size_t, std::uint64_t f) { inserter.add(f); });
        });
      },
      parts_on_threads(threads));
}

}  // namespace preemptcheck::checker::detail
