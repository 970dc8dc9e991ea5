#include "real/allreduce/allreduce_report.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "real/allreduce/ring_schedule.hpp"

namespace gcsim::real {

std::string csv_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string allreduce_csv_header() {
  return "impl,transport,ranks,bytes,warmup,iterations,time_median_s,time_min_s,time_max_s,"
         "algbw_Bps,busbw_Bps,errors,hop_latency_s,goodput_Bps";
}

std::string allreduce_csv_row(const AllreduceRow& row) {
  const double t = median(row.seconds);
  const auto [lo, hi] = std::minmax_element(row.seconds.begin(), row.seconds.end());
  return row.impl + "," + row.transport + "," + std::to_string(row.ranks) + "," + csv_number(row.bytes) + "," +
         std::to_string(row.warmup) + "," + std::to_string(row.iterations) + "," + csv_number(t) + "," +
         csv_number(*lo) + "," + csv_number(*hi) + "," + csv_number(algorithm_bandwidth(row.bytes, t)) + "," +
         csv_number(bus_bandwidth(row.bytes, t, row.ranks)) + "," + std::to_string(row.errors) + "," +
         csv_number(row.hop_latency_s) + "," + csv_number(row.goodput_Bps);
}

std::string allreduce_summary_line(const AllreduceRow& row) {
  const double t = median(row.seconds);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-9s %2u ranks %12.0f B  %10.6f s  algbw %9.3f MB/s  busbw %9.3f MB/s  wrong %zu",
                row.impl.c_str(), row.ranks, row.bytes, t, algorithm_bandwidth(row.bytes, t) / 1e6,
                bus_bandwidth(row.bytes, t, row.ranks) / 1e6, row.errors);
  return buf;
}

void write_allreduce_csv(const std::string& path, const std::vector<AllreduceRow>& rows) {
  std::vector<std::string> lines;
  for (const AllreduceRow& row : rows) lines.push_back(allreduce_csv_row(row));
  append_csv_lines(path, allreduce_csv_header(), lines);
}

void append_csv_lines(const std::string& path, const std::string& header, const std::vector<std::string>& lines) {
  std::ostringstream text;
  bool with_header = true;
  if (!path.empty()) {
    std::ifstream existing(path);
    with_header = !existing || existing.peek() == std::ifstream::traits_type::eof();
  }
  if (with_header) text << header << '\n';
  for (const std::string& line : lines) text << line << '\n';
  if (path.empty()) {
    std::cout << text.str() << std::flush;
    return;
  }
  std::ofstream out(path, std::ios::app);
  out << text.str();
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::vector<double> parse_size_list(const std::string& list) {
  std::vector<double> sizes;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) sizes.push_back(parse_size(item));
  if (sizes.empty()) throw std::invalid_argument("empty list of sizes");
  return sizes;
}

bool read_measurement_option(const std::string& flag, const std::string& value, MeasurementOptions& options) {
  if (flag == "--bytes")
    options.sizes = parse_size_list(value);
  else if (flag == "--warmup")
    options.warmup = std::max(0, std::atoi(value.c_str()));
  else if (flag == "--iterations")
    options.iterations = std::max(1, std::atoi(value.c_str()));
  else if (flag == "--csv")
    options.csv = value;
  else
    return false;
  return true;
}

double parse_size(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || value < 0) throw std::invalid_argument("bad size '" + text + "'");
  const std::string unit = end;
  static const std::pair<const char*, double> units[] = {{"", 1},         {"B", 1},           {"KB", 1e3},
                                                         {"kB", 1e3},     {"MB", 1e6},        {"GB", 1e9},
                                                         {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  for (const auto& [name, factor] : units)
    if (unit == name) return value * factor;
  throw std::invalid_argument("bad size unit in '" + text + "' (B, KB, MB, GB, KiB, MiB, GiB)");
}

}  // namespace gcsim::real
