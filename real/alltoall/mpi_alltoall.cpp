// mpi_alltoall: Open MPI's MPI_Alltoall, timed and checked: every rank sends
// a block of S / N bytes to every rank (alltoall_blocks.hpp) and checks each
// block it received; one CSV row per size (alltoall_report.hpp), written by
// rank 0.
//
//   mpirun -np 4 --mca pml ob1 --mca btl tcp,self mpi_alltoall --bytes 1MiB,64MiB --csv out.csv
//   mpirun ... mpi_alltoall --netns gcv123r --drain-bytes 131072 ...   # rank R enters namespace gcv123rR
//
// With --netns PREFIX each rank first enters the network namespace
// PREFIX<rank> (rank_namespace.hpp), so that its TCP traffic crosses that
// namespace's shaped link. Each iteration starts after a barrier on a
// cleared receive buffer and its time is the slowest rank's; the median is
// reported. With --drain-bytes B every rank first sends B bytes to the next
// rank, untimed, to spend the credit a token-bucket shaper saved while the
// link was idle (a real link has none), as real_allreduce does.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/alltoall/alltoall_blocks.hpp"
#include "real/alltoall/alltoall_report.hpp"
#include "real/mpi_run_options.hpp"
#include "real/mpi_timing.hpp"
#include "real/rank_namespace.hpp"

// As in mpi_allreduce.cpp: Open MPI keeps allocations past MPI_Finalize in
// plugins it unloads there (open-mpi/ompi issue 12584); no leak checking.
extern "C" int __lsan_is_turned_off() { return 1; }

namespace {

using namespace gcsim::real;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitWrongResult = 3;

struct Options {
  MeasurementOptions measure;
  MpiRunOptions run{"", "mpi-alltoall"};
  std::size_t drain_bytes = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
    const std::string value = argv[++i];
    if (read_measurement_option(flag, value, o.measure) || read_mpi_run_option(flag, value, o.run)) continue;
    if (flag == "--drain-bytes") {
      o.drain_bytes = static_cast<std::size_t>(parse_size(value));
    } else {
      throw std::invalid_argument("unknown option '" + flag + "'");
    }
  }
  return o;
}

// Every rank sends `bytes` to the next and receives as many from the previous.
void drain(std::vector<char>& out, std::vector<char>& in, int rank, int ranks) {
  if (out.empty()) return;
  MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_BYTE, (rank + 1) % ranks, 0, in.data(),
               static_cast<int>(in.size()), MPI_BYTE, (rank + ranks - 1) % ranks, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

AlltoallRow measure(const Options& o, double bytes, int rank, int ranks) {
  const auto me = static_cast<std::uint32_t>(rank);
  const auto n = static_cast<std::uint32_t>(ranks);
  const std::size_t block = block_elements(bytes, n);
  if (block > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("blocks of more than 2^31 elements do not fit MPI_Alltoall's count");
  std::vector<std::uint32_t> send(n * block), recv(n * block);
  fill_send_blocks(me, n, block, send);
  std::vector<char> drain_out(o.drain_bytes, 0), drain_in(o.drain_bytes);  // content unused
  AlltoallRow row;
  row.impl = o.run.label;
  row.transport = o.run.transport;
  row.ranks = n;
  row.bytes = bytes;
  row.block_bytes = static_cast<double>(block * sizeof(std::uint32_t));
  row.warmup = o.measure.warmup;
  row.iterations = o.measure.iterations;
  unsigned long long wrong = 0;
  for (int i = 0; i < o.measure.warmup + o.measure.iterations; ++i) {
    std::fill(recv.begin(), recv.end(), 0xFFFFFFFFu);  // nothing left from the previous iteration
    drain(drain_out, drain_in, rank, ranks);
    const double seconds = slowest_rank_seconds([&] {
      MPI_Alltoall(send.data(), static_cast<int>(block), MPI_UINT32_T, recv.data(), static_cast<int>(block),
                   MPI_UINT32_T, MPI_COMM_WORLD);
    });
    if (i >= o.measure.warmup) row.seconds.push_back(seconds);
    wrong = std::max<unsigned long long>(wrong, check_received_blocks(me, n, block, recv).mismatches);
  }
  row.errors = static_cast<std::size_t>(largest_over_ranks(wrong));
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
    if (!o.run.netns_prefix.empty()) enter_rank_namespace(o.run.netns_prefix);
  } catch (const std::exception& e) {
    std::cerr << "mpi_alltoall: " << e.what() << "\nusage: mpirun -np N mpi_alltoall [--bytes LIST] [--warmup W] "
              << "[--iterations K] [--netns PREFIX] [--drain-bytes B] [--label NAME] [--transport LABEL] "
                 "[--csv FILE]\n";
    return kExitUsage;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<AlltoallRow> rows;
  std::size_t errors = 0;
  try {
    for (double size : o.measure.sizes) {
      rows.push_back(measure(o, size, rank, ranks));
      errors += rows.back().errors;
      if (rank == 0) std::cerr << alltoall_summary_line(rows.back()) << '\n';
    }
    if (rank == 0) write_alltoall_csv(o.measure.csv, rows);
  } catch (const std::exception& e) {
    std::cerr << "mpi_alltoall: rank " << rank << ": " << e.what() << '\n';
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return errors == 0 ? kExitOk : kExitWrongResult;
}
