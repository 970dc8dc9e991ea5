// sweep_mpi.hpp: a sweep's ranks under mpirun, and rank 0's gathering of
// their rows. The rank, the count and the job come from Open MPI's
// environment (OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, PMIX_NAMESPACE);
// gcsim links no MPI library (SimGrid's own MPI_Init would shadow it). Each
// rank leaves its rows in OUT/ranks/, written atomically once its runs are
// done, and rank 0 waits for them all: OUT must be on a file system every
// rank sees (one machine, or a shared one across machines). Outside mpirun:
// rank 0 of 1.
//
//   SweepRanks ranks(out_dir);
//   ... the runs whose number is ranks.rank() modulo ranks.size() ...
//   SweepRanks::Totals all = ranks.gather(my_rows, ran, failed);  // whole at rank 0
#pragma once

#include <cstddef>
#include <string>

namespace gcsim {

class SweepRanks {
 public:
  explicit SweepRanks(std::string out_dir);

  std::size_t rank() const { return rank_; }
  std::size_t size() const { return size_; }

  struct Totals {
    std::string rows;                 // every rank's rows (in rank order), at rank 0; its own elsewhere
    std::size_t ran = 0, failed = 0;  // summed over the ranks, at rank 0
  };
  /// Every rank calls it once, with its rows and counts; rank 0 returns once every rank has.
  Totals gather(const std::string& rows, std::size_t ran, std::size_t failed) const;

 private:
  std::string file_of(std::size_t rank) const;
  std::string out_dir_, job_;
  std::size_t rank_ = 0, size_ = 1;
};

}  // namespace gcsim
