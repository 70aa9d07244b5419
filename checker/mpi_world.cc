// MpiWorld: starting MPI when launched by mpirun, and the rank queries (see mpi_world.h).
#include "checker/mpi_world.h"

#include <cstdlib>

#ifdef PREEMPTCHECK_HAVE_MPI
#include <mpi.h>
#endif

namespace preemptcheck::checker::mpi {

namespace {

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

#ifdef PREEMPTCHECK_HAVE_MPI
struct World {
  int rank = 0;
  int size = 1;
};

// Every rank waits for the others (rank 0 may still be printing and writing files): mpirun
// ends the whole job as soon as one rank exits with a non-zero status.
void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
  }
}

World start() {
  World world;
  if (!launched_by_mpirun()) {
    return world;
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized == 0) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    std::atexit(finalize_at_exit);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  return world;
}

const World& world() {
  static const World instance = start();
  return instance;
}
#endif

}  // namespace

bool available() {
#ifdef PREEMPTCHECK_HAVE_MPI
  return true;
#else
  return false;
#endif
}

int init_if_launched() { return size(); }

int rank() {
#ifdef PREEMPTCHECK_HAVE_MPI
  return world().rank;
#else
  return 0;
#endif
}

int size() {
#ifdef PREEMPTCHECK_HAVE_MPI
  return world().size;
#else
  return 1;
#endif
}

bool is_lead_rank() { return rank() == 0; }

std::uint32_t max_over_ranks(std::uint32_t value) {
#ifdef PREEMPTCHECK_HAVE_MPI
  if (size() > 1) {
    std::uint32_t out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }
#endif
  return value;
}

}  // namespace preemptcheck::checker::mpi
