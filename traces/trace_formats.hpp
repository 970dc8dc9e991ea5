// trace_formats.hpp: the trace formats gcsim reads, by name, and the
// "format:FILE" workload argument that selects one.
//
//   philly  Philly derived per-job CSV          philly_trace.hpp
//   swf     Parallel Workloads Archive SWF      swf_trace.hpp
//   helios  Helios cluster_log.csv              helios_trace.hpp
//   pai     Alibaba PAI 2020 tables (a folder)  pai_trace.hpp
//   csv     any CSV with a column mapping       csv_trace.hpp
//   native  gcsim's own workload JSON           native_workload.hpp
//
//   WorkloadSource source = parse_workload_source("philly:traces/philly.csv");
//   TraceReadResult trace = read_trace(*source.format, source.path, {});
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"

namespace gcsim {

enum class TraceFormat { kPhilly, kSwf, kHelios, kPai, kCsv, kNative };

/// "philly", "swf", "helios", "pai", "csv", "native".
const std::vector<std::string>& trace_format_names();
std::optional<TraceFormat> parse_trace_format(const std::string& name);
std::string trace_format_name(TraceFormat format);

/// Reads `path` in `format`. A native workload keeps its submit times
/// (origin 0 unless options.time_origin is set) and has no skipped rows.
TraceReadResult read_trace(TraceFormat format, const std::string& path, const TraceReadOptions& options);

/// A --workload argument: "FORMAT:PATH" when FORMAT is a trace format name,
/// else a plain path to a native workload (format unset).
struct WorkloadSource {
  std::optional<TraceFormat> format;
  std::string path;
};
WorkloadSource parse_workload_source(const std::string& argument);

}  // namespace gcsim
