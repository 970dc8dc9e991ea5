// allreduce_report.hpp: one CSV row per measured allreduce size, the same
// columns for the TCP ring and NCCL.
//
//   impl,transport,ranks,bytes,warmup,iterations,time_median_s,time_min_s,time_max_s,
//   algbw_Bps,busbw_Bps,errors,hop_latency_s,goodput_Bps
//
// Times are per allreduce (the slowest rank's, per iteration); algbw and
// busbw (nccl-tests' doc/PERFORMANCE.md) are taken at the median time, in
// bytes per second. errors is the largest number of result elements, on any
// one rank and over all iterations (warm-up included), that differ from the
// expected sum: 0 when the run is correct. hop_latency_s and goodput_Bps are
// the link calibration measured on the same connections (0 when not measured).
//
//   AllreduceRow row{"tcp-ring", "loopback", 2, 1 << 20, 1, 5, seconds, 0, 2.1e-5, 1.2e9};
//   out << allreduce_csv_header() << '\n' << allreduce_csv_row(row) << '\n';
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gcsim::real {

struct AllreduceRow {
  std::string impl;       // "tcp-ring", "nccl"
  std::string transport;  // where it ran, e.g. "netns-tbf-200mbit", "loopback", "cuda"
  std::uint32_t ranks = 0;
  double bytes = 0;
  int warmup = 0;
  int iterations = 0;
  std::vector<double> seconds;  // one per timed iteration
  std::size_t errors = 0;       // wrong elements (see above)
  double hop_latency_s = 0;
  double goodput_Bps = 0;
};

std::string allreduce_csv_header();
std::string allreduce_csv_row(const AllreduceRow& row);
/// A line for people: size, median time, algbw and busbw in MB/s, wrong elements.
std::string allreduce_summary_line(const AllreduceRow& row);

/// Writes the rows as CSV: appended to `path`, with the header when the file
/// is new or empty, or to standard output (with the header) when `path` is
/// empty. Throws std::runtime_error when the file cannot be written.
void write_allreduce_csv(const std::string& path, const std::vector<AllreduceRow>& rows);

/// Writes CSV `lines` (no newline each) the same way: appended to `path`,
/// after `header` when the file is new or empty, or to standard output with
/// the header when `path` is empty.
void append_csv_lines(const std::string& path, const std::string& header, const std::vector<std::string>& lines);

/// Parses a size: plain bytes or a number with B, KB, MB, GB (10^3) or KiB, MiB, GiB (2^10).
/// Throws std::invalid_argument naming the text.
double parse_size(const std::string& text);

/// A comma-separated list of sizes ("4KiB,1MiB"); an empty list is an error.
std::vector<double> parse_size_list(const std::string& list);

/// A figure as the benchmarks' CSV rows write it: 9 significant digits
/// (printf's %.9g).
std::string csv_number(double v);

/// What every allreduce tool measures: --bytes LIST, --warmup W (untimed),
/// --iterations K (timed, at least 1), --csv FILE (rows appended; stdout when empty).
struct MeasurementOptions {
  std::vector<double> sizes{1048576.0};
  int warmup = 1;
  int iterations = 5;
  std::string csv;
};

/// Reads `flag value` into `options` when the flag is one of the above;
/// false for any other flag.
bool read_measurement_option(const std::string& flag, const std::string& value, MeasurementOptions& options);

}  // namespace gcsim::real
