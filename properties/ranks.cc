// Ranks over checker/mpi/mpi_world.h (ranks.h).
#include "properties/ranks.h"

#include "checker/mpi/mpi_world.h"

namespace preemptcheck {

Ranks Ranks::of_this_process() {
  const int size = checker::mpi::init_if_launched();
  return {checker::mpi::rank(), size};
}

int Ranks::from_lead(int value) const { return checker::mpi::from_lead_rank(value); }

std::uint32_t Ranks::largest(std::uint32_t value) const {
  return checker::mpi::max_over_ranks(value);
}

}  // namespace preemptcheck
