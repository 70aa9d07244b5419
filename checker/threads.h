// on_threads: a phase of a level run on several threads — the level search's expansion, merge,
// visited-set rebuild and the clearing of its tables (checker/level_search.h), and a rank's
// expansion of its round in the distributed search (checker/mpi/distributed_explorer.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace preemptcheck::checker::detail {

/// Runs f(0) to f(n - 1), each on a thread of its own (f(0) on this one), and rethrows the
/// first exception any of them threw once all have ended.
template <class F>
void on_threads(std::size_t n, const F& f) {
  std::exception_ptr error;
  std::atomic<bool> failed{false};
  const auto guarded = [&](std::size_t t) {
    try {
      f(t);
    } catch (...) {
      if (!failed.exchange(true)) {
        error = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (std::size_t t = 1; t < n; ++t) {
      pool.emplace_back(guarded, t);
    }
    guarded(0);
  }  // joins
  if (error) {
    std::rethrow_exception(error);
  }
}

/// A table's `on_parts` (checker/store/hash_slots.h) on n threads: part t of n on thread t.
inline auto parts_on_threads(std::size_t n) {
  return [n](const auto& g) { on_threads(n, [&](std::size_t t) { g(t, n); }); };
}

}  // namespace preemptcheck::checker::detail
