// rank_namespace.hpp: an MPI rank entering the network namespace of its
// rank, so that its traffic crosses that namespace's shaped link
// (scripts/real-allreduce.sh makes one namespace per rank).
//
//   enter_rank_namespace("gcv123r");   // rank R enters /var/run/netns/gcv123rR, before MPI_Init
#pragma once

#include <string>

namespace gcsim::real {

/// Enters /var/run/netns/<prefix><rank> (as `ip netns add` makes them; root
/// only), the rank read from Open MPI's OMPI_COMM_WORLD_RANK, since it is
/// needed before MPI_Init opens any socket. Throws std::runtime_error saying
/// what failed.
void enter_rank_namespace(const std::string& prefix);

}  // namespace gcsim::real
