#include "real/alltoall/alltoall_report.hpp"

#include <algorithm>

#include "real/allreduce/allreduce_report.hpp"
#include "real/sample_median.hpp"

namespace gcsim::real {

namespace {

double algbw(const AlltoallRow& row, double seconds) { return row.ranks * row.block_bytes / seconds; }

double busbw(const AlltoallRow& row, double seconds) {
  return algbw(row, seconds) * (row.ranks - 1) / static_cast<double>(row.ranks);
}

}  // namespace

std::string alltoall_csv_header() {
  return "impl,transport,ranks,bytes,block_bytes,warmup,iterations,time_median_s,time_min_s,time_max_s,"
         "algbw_Bps,busbw_Bps,errors";
}

std::string alltoall_csv_row(const AlltoallRow& row) {
  const double t = median(row.seconds);
  const auto [lo, hi] = std::minmax_element(row.seconds.begin(), row.seconds.end());
  return row.impl + "," + row.transport + "," + std::to_string(row.ranks) + "," + csv_number(row.bytes) + "," +
         csv_number(row.block_bytes) + "," + std::to_string(row.warmup) + "," + std::to_string(row.iterations) + "," +
         csv_number(t) + "," + csv_number(*lo) + "," + csv_number(*hi) + "," + csv_number(algbw(row, t)) + "," +
         csv_number(busbw(row, t)) + "," + std::to_string(row.errors);
}

std::string alltoall_summary_line(const AlltoallRow& row) {
  const double t = median(row.seconds);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-12s %2u ranks %12.0f B  %10.6f s  algbw %9.3f MB/s  busbw %9.3f MB/s  wrong %zu",
                row.impl.c_str(), row.ranks, row.bytes, t, algbw(row, t) / 1e6, busbw(row, t) / 1e6, row.errors);
  return buf;
}

void write_alltoall_csv(const std::string& path, const std::vector<AlltoallRow>& rows) {
  std::vector<std::string> lines;
  for (const AlltoallRow& row : rows) lines.push_back(alltoall_csv_row(row));
  append_csv_lines(path, alltoall_csv_header(), lines);
}

}  // namespace gcsim::real
