#include "traces/trace_formats.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "workloads/native_workload.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/pai_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

TraceReadResult read_native_as_trace(const std::string& path, const TraceReadOptions& options) {
  if (const auto guessed = guess_trace_format(path); guessed && *guessed != TraceFormat::kNative)
    throw InputError(path, "", "",
                     "not a gcsim workload (JSON): it looks like " + trace_format_title(*guessed) +
                         "; read it with --format " + trace_format_name(*guessed));
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

std::string trace_format_title(TraceFormat format) {
  switch (format) {
    case TraceFormat::kPhilly:
      return "a Philly trace";
    case TraceFormat::kSwf:
      return "an SWF log";
    case TraceFormat::kHelios:
      return "a Helios trace";
    case TraceFormat::kPai:
      return "a PAI trace folder";
    case TraceFormat::kCsv:
      return "a CSV table";
    case TraceFormat::kNative:
      return "a gcsim workload";
  }
  throw std::logic_error("trace_format_title: unhandled trace format");
}

std::string trace_format_list() {
  std::string list;
  for (const std::string& name : trace_format_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

WorkloadSource parse_workload_source(const std::string& argument) {
  const auto colon = argument.find(':');
  if (colon == std::string::npos) return {std::nullopt, argument, ""};
  const std::string prefix = argument.substr(0, colon);
  if (const auto format = parse_trace_format(prefix)) return {format, argument.substr(colon + 1), ""};
  // "openb:jobs.csv": a format name gcsim does not know, unless a file has that whole name.
  const bool word = !prefix.empty() && std::all_of(prefix.begin(), prefix.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  std::error_code error;
  if (word && !std::filesystem::exists(argument, error)) return {std::nullopt, argument, prefix};
  return {std::nullopt, argument, ""};
}

std::optional<TraceFormat> guess_trace_format(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    return std::filesystem::is_regular_file(std::filesystem::path(path) / "pai_task_table.csv", error)
               ? std::optional<TraceFormat>(TraceFormat::kPai)
               : std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  // The first lines are enough; a header names the columns.
  std::string head(65536, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  std::istringstream text(head);
  TraceLines lines(text);
  std::string line;
  while (lines.next(line) && is_blank(line)) {
  }
  const std::string_view first = trim(line);
  if (first.empty()) return std::nullopt;
  if (first.front() == '{') return TraceFormat::kNative;
  if (first.front() == '[') return TraceFormat::kPhilly;
  // PAI's tables are headerless: their names say what they are.
  const std::string name = file_name_of(path);
  if (name.rfind("pai_", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0)
    return TraceFormat::kPai;
  if (first.front() == ';') return TraceFormat::kSwf;
  const std::vector<std::string> words = split_whitespace(first);
  if (words.size() == 18 && std::all_of(words.begin(), words.end(), [](const std::string& w) {
        return parse_trace_number(w).has_value();
      }))
    return TraceFormat::kSwf;
  for (const char delimiter : {',', ';', '\t'}) {
    std::vector<std::string> names = split_csv_line(first, delimiter);
    if (names.size() < 2) continue;
    for (std::string& name : names) name = std::string(trim(name));
    const auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
    if (has("timestamp") && has("duration") && has("num_gpus") && has("gpu_time")) return TraceFormat::kPhilly;
    if (has("job_id") && has("gpu_num") && has("submit_time")) return TraceFormat::kHelios;
    return TraceFormat::kCsv;
  }
  return std::nullopt;
}

}  // namespace gcsim
