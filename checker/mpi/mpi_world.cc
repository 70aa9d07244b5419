// MpiWorld: starting MPI when launched by mpirun, and the rank queries (see mpi_world.h).
#include "checker/mpi/mpi_world.h"

#include <chrono>
#include <cstdlib>
#include <thread>

#ifdef PREEMPTCHECK_HAVE_MPI
#include <mpi.h>
#endif

namespace preemptcheck::checker::mpi {

namespace {

#ifdef PREEMPTCHECK_HAVE_MPI
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr ||
         std::getenv("PMI_SIZE") != nullptr;
}

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

std::vector<std::string> all_gather(const std::string& mine) {
#ifdef PREEMPTCHECK_HAVE_MPI
  if (size() > 1) {
    const auto ranks = static_cast<std::size_t>(size());
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(ranks);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(ranks);
    int total = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
      offsets[r] = total;
      total += lengths[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Allgatherv(mine.data(), length, MPI_BYTE, all.data(), lengths.data(), offsets.data(),
                   MPI_BYTE, MPI_COMM_WORLD);
    std::vector<std::string> out;
    out.reserve(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
      out.push_back(
          all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    }
    return out;
  }
#endif
  return {mine};
}

int from_lead_rank(int value) {
#ifdef PREEMPTCHECK_HAVE_MPI
  if (size() > 1) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    while (done == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
  }
#endif
  return value;
}

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
