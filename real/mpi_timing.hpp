// mpi_timing.hpp: how the MPI benchmarks time a collective and gather a
// count: every rank starts together after a barrier, and a run lasts as long
// as its slowest rank took (as nccl-tests reports it).
//
//   const double seconds = slowest_rank_seconds([&] { MPI_Alltoall(...); });
//   row.errors = largest_over_ranks(wrong_here);
#pragma once

#include <mpi.h>

namespace gcsim::real {

/// Seconds the slowest rank spent in `collective`, started on every rank at
/// once; every rank gets the same figure.
template <class Collective>
double slowest_rank_seconds(Collective collective) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  collective();
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

/// The largest of every rank's `value`; every rank gets it.
inline unsigned long long largest_over_ranks(unsigned long long value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

}  // namespace gcsim::real
