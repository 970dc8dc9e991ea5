// mpi_allreduce: Open MPI's MPI_Allreduce (sum of floats, in place), timed
// and checked like the TCP ring, for a side-by-side figure on the same links;
// one CSV row per size (allreduce_report.hpp), written by rank 0.
//
//   mpirun -np 4 --mca pml ob1 --mca btl tcp,self mpi_allreduce --bytes 1MiB,64MiB --csv out.csv
//   mpirun ... mpi_allreduce --netns gcv123r --label mpi-ring ...   # rank R enters namespace gcv123rR
//
// With --netns PREFIX each rank first enters the network namespace
// PREFIX<rank> (rank_namespace.hpp), so that its TCP traffic crosses that
// namespace's shaped link. Each iteration starts after a barrier and its
// time is the slowest rank's; the median is reported.
#include <mpi.h>

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "real/allreduce/allreduce_report.hpp"
#include "real/allreduce/result_check.hpp"
#include "real/mpi_run_options.hpp"
#include "real/mpi_timing.hpp"
#include "real/rank_namespace.hpp"

// Open MPI keeps allocations past MPI_Finalize in plugins it unloads there,
// where LeakSanitizer can neither name nor suppress them (open-mpi/ompi
// issue 12584). This program, Open MPI's allreduce and a few buffers, opts
// out of leak checking; a build without sanitizers never calls this.
extern "C" int __lsan_is_turned_off() { return 1; }

namespace {

using namespace gcsim::real;

struct Options {
  MeasurementOptions measure;
  MpiRunOptions run{"", "mpi"};
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + ": missing value");
    const std::string value = argv[++i];
    if (read_measurement_option(flag, value, o.measure) || read_mpi_run_option(flag, value, o.run)) continue;
    throw std::invalid_argument("unknown option '" + flag + "'");
  }
  return o;
}

AllreduceRow measure(const Options& o, std::size_t bytes, int rank, int ranks) {
  const std::size_t count = bytes / sizeof(float);
  std::vector<float> buffer(count);
  AllreduceRow row;
  row.impl = o.run.label;
  row.transport = o.run.transport;
  row.ranks = static_cast<std::uint32_t>(ranks);
  row.bytes = static_cast<double>(count * sizeof(float));
  row.warmup = o.measure.warmup;
  row.iterations = o.measure.iterations;
  unsigned long long wrong = 0;
  for (int i = 0; i < o.measure.warmup + o.measure.iterations; ++i) {
    fill_rank_input(static_cast<std::uint32_t>(rank), buffer);
    const double seconds = slowest_rank_seconds([&] {
      MPI_Allreduce(MPI_IN_PLACE, buffer.data(), static_cast<int>(count), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    });
    if (i >= o.measure.warmup) row.seconds.push_back(seconds);
    wrong = std::max<unsigned long long>(wrong, check_allreduce_result(row.ranks, buffer).mismatches);
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
    std::cerr << "mpi_allreduce: " << e.what() << "\nusage: mpirun -np N mpi_allreduce [--bytes LIST] [--warmup W] "
              << "[--iterations K] [--netns PREFIX] [--label NAME] [--transport LABEL] [--csv FILE]\n";
    return 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<AllreduceRow> rows;
  std::size_t errors = 0;
  for (double size : o.measure.sizes) {
    rows.push_back(measure(o, static_cast<std::size_t>(size), rank, ranks));
    errors += rows.back().errors;
    if (rank == 0) std::cerr << allreduce_summary_line(rows.back()) << '\n';
  }
  if (rank == 0) write_allreduce_csv(o.measure.csv, rows);
  MPI_Finalize();
  return errors == 0 ? 0 : 3;
}
