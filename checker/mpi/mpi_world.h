// MpiWorld: whether this process is one rank of an MPI job, and which. The only place that
// starts and ends MPI; without the MPI build every process is rank 0 of a world of one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace preemptcheck::checker::mpi {

/// True when the project was built with the MPI component (PREEMPTCHECK_MPI).
bool available();

/// Starts MPI (once) when this process was launched by mpirun (Open MPI's
/// OMPI_COMM_WORLD_SIZE, or PMIx/PMI's PMIX_RANK/PMI_SIZE in the environment) and the build
/// has MPI; MPI is ended at exit. Returns the world size: 1 when not under MPI.
int init_if_launched();

/// This process's rank (0 outside MPI). Calls init_if_launched().
int rank();

/// The number of ranks (1 outside MPI). Calls init_if_launched().
int size();

/// Whether this rank prints results and writes files: rank 0, or any process outside MPI.
bool is_lead_rank();

/// Every rank's `mine`, in rank order, on every rank (one MPI_Allgather of the sizes and one
/// MPI_Allgatherv of the bytes; collective: every rank must call it). Outside MPI: {mine}.
/// The bytes of all ranks together must stay below 2 GiB.
std::vector<std::string> all_gather(const std::string& mine);

/// Rank 0's `value`, on every rank (collective). The other ranks wait without spinning — a
/// nonblocking broadcast looked at every millisecond — because rank 0 may work alone for a
/// long time before it calls this (a search shrinking its counterexample). Outside MPI: value.
int from_lead_rank(int value);

/// The largest of every rank's `value` (a collective: every rank must call it); `value`
/// itself outside MPI.
std::uint32_t max_over_ranks(std::uint32_t value);

}  // namespace preemptcheck::checker::mpi
