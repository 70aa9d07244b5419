// explore_auto: the one entry point a command calls for an exhaustive check — the
// distributed search when this process is one of several MPI ranks, explore() otherwise.
#pragma once

#include <cstdio>
#include <exception>

#include "checker/explore_failure.h"
#include "checker/explorer.h"
#include "checker/model.h"
#include "checker/mpi/mpi_world.h"

#ifdef PREEMPTCHECK_HAVE_MPI
#include "checker/mpi/distributed_explorer.h"
#endif

namespace preemptcheck::checker {

/// explore(model, limits, opts), spread over the ranks when the process was started by
/// mpirun with more than one rank (see checker/mpi/distributed_explorer.h). Every rank returns
/// the same Result, with the same figures and counterexample as one process (stats.seconds,
/// rates and memory aside: memory_bytes is the largest rank's), per-property results and
/// continuing past a violation included. Under MPI, opts must not ask for edges
/// (std::invalid_argument); every rank expands its part of each round on opts.threads threads. When
/// one rank fails every rank throws RankFailure naming it; an error that cannot be shared aborts
/// the MPI job with exit 3.
template <Model M>
Result<typename M::Action> explore_auto(const M& model, const Limits& limits,
                                        const ExploreOptions<typename M::Action>& opts = {}) {
#ifdef PREEMPTCHECK_HAVE_MPI
  if (mpi::init_if_launched() > 1) {
    try {
      return detail::DistributedExplorer<M>(model, limits, opts, MPI_COMM_WORLD).run();
    } catch (const RankFailure&) {
      throw;
    } catch (const std::invalid_argument&) {
      throw;  // raised alike on every rank before any message
    } catch (const std::exception& e) {
      std::fprintf(stderr, "preemptcheck: rank %d of %d failed: %s\n", mpi::rank(), mpi::size(),
                   e.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
#endif
  return explore(model, limits, opts);
}

}  // namespace preemptcheck::checker
