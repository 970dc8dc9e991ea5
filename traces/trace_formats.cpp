#include "traces/trace_formats.hpp"

#include <stdexcept>

#include "workloads/native_workload.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/pai_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/swf_trace.hpp"

namespace gcsim {
namespace {

TraceReadResult read_native_as_trace(const std::string& path, const TraceReadOptions& options) {
  TraceReadResult result;
  result.format = "native";
  result.work_source = "the workload's own work (training or measured durations)";
  std::vector<PendingTraceJob> pending;
  std::size_t index = 0;
  for (JobSpec& job : read_native_workload(path)) {
    PendingTraceJob entry;
    entry.spec = std::move(job);
    entry.file = path;
    entry.line = ++index;
    pending.push_back(std::move(entry));
  }
  result.rows = pending.size();
  SkipLog log(result.skipped, options.strict);
  finish_trace(std::move(pending), options, 0.0, log, result);
  return result;
}

}  // namespace

const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names = {"philly", "swf", "helios", "pai", "csv", "native"};
  return names;
}

std::optional<TraceFormat> parse_trace_format(const std::string& name) {
  static const TraceFormat formats[] = {TraceFormat::kPhilly, TraceFormat::kSwf, TraceFormat::kHelios,
                                        TraceFormat::kPai,    TraceFormat::kCsv, TraceFormat::kNative};
  for (std::size_t i = 0; i < trace_format_names().size(); ++i)
    if (trace_format_names()[i] == name) return formats[i];
  return std::nullopt;
}

std::string trace_format_name(TraceFormat format) { return trace_format_names()[static_cast<std::size_t>(format)]; }

TraceReadResult read_trace(TraceFormat format, const std::string& path, const TraceReadOptions& options) {
  switch (format) {
    case TraceFormat::kPhilly:
      return read_philly_trace(path, options);
    case TraceFormat::kSwf:
      return read_swf_trace(path, options);
    case TraceFormat::kHelios:
      return read_helios_trace(path, options);
    case TraceFormat::kPai:
      return read_pai_trace(path, options);
    case TraceFormat::kCsv:
      return read_csv_trace(path, options);
    case TraceFormat::kNative:
      return read_native_as_trace(path, options);
  }
  throw std::logic_error("read_trace: unhandled trace format");
}

WorkloadSource parse_workload_source(const std::string& argument) {
  const auto colon = argument.find(':');
  if (colon != std::string::npos)
    if (const auto format = parse_trace_format(argument.substr(0, colon))) return {format, argument.substr(colon + 1)};
  return {std::nullopt, argument};
}

}  // namespace gcsim
