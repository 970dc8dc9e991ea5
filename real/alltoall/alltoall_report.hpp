// alltoall_report.hpp: one CSV row per measured all-to-all size.
//
//   impl,transport,ranks,bytes,block_bytes,warmup,iterations,time_median_s,time_min_s,time_max_s,
//   algbw_Bps,busbw_Bps,errors
//
// bytes is each rank's buffer S as asked; block_bytes what it sends to each
// rank, whole 32-bit elements of S / N (alltoall_blocks.hpp), so N x
// block_bytes may fall short of S by less than 4N bytes. Times are per
// all-to-all (the slowest rank's, per iteration); algbw = S / t and busbw =
// algbw x (N-1)/N, nccl-tests' figures for an all-to-all (doc/PERFORMANCE.md),
// taken at the median time with S = N x block_bytes. errors is the largest
// number of received elements, on any one rank and over all iterations
// (warm-up included), that differ from what their sender put there.
//
//   AlltoallRow row{"mpi-alltoall", "netns-tbf-200mbit", 3, 16 << 20, 5592404, 1, 5, seconds, 0};
//   write_alltoall_csv("alltoall.csv", {row});
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gcsim::real {

struct AlltoallRow {
  std::string impl;       // "mpi-alltoall"
  std::string transport;  // where it ran, e.g. "netns-tbf-200mbit", "loopback"
  std::uint32_t ranks = 0;
  double bytes = 0;        // each rank's buffer as asked
  double block_bytes = 0;  // sent to each rank
  int warmup = 0;
  int iterations = 0;
  std::vector<double> seconds;  // one per timed iteration
  std::size_t errors = 0;       // wrong received elements (see above)
};

std::string alltoall_csv_header();
std::string alltoall_csv_row(const AlltoallRow& row);
/// A line for people: size, median time, algbw and busbw in MB/s, wrong elements.
std::string alltoall_summary_line(const AlltoallRow& row);

/// Appends the rows to `path` as write_allreduce_csv does (stdout when empty).
void write_alltoall_csv(const std::string& path, const std::vector<AlltoallRow>& rows);

}  // namespace gcsim::real
