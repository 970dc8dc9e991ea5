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
// One table in trace_formats.cpp holds, per format, its name, its title for
// messages, its reader and the rule that recognises its content; every
// function below reads that table. Adding a format adds a TraceFormat value,
// a table entry and the reader's own file.
//
//   WorkloadSource source = parse_workload_source("philly:traces/philly.csv");
//   TraceReadResult trace = read_trace(*source.format, source.path, {});
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "traces/trace_read.hpp"

namespace gcsim {

/// In the order of the format table (and of trace_format_names()).
enum class TraceFormat { kPhilly, kSwf, kHelios, kPai, kCsv, kNative };

/// "philly", "swf", "helios", "pai", "csv", "native".
const std::vector<std::string>& trace_format_names();
std::optional<TraceFormat> parse_trace_format(const std::string& name);
std::string trace_format_name(TraceFormat format);

/// Reads `path` in `format`. A native workload keeps its submit times
/// (origin 0 unless options.time_origin is set) and has no skipped rows; a
/// file read as native whose content looks like another format is an
/// InputError naming that format.
TraceReadResult read_trace(TraceFormat format, const std::string& path, const TraceReadOptions& options);

/// "philly, swf, helios, pai, csv, native", for messages.
std::string trace_format_list();
/// What a file of that format is, for messages: "a Philly trace", "an SWF log".
std::string trace_format_title(TraceFormat format);

/// A --workload argument: "FORMAT:PATH" when FORMAT is a trace format name,
/// else a plain path to a native workload (format unset). "NAME:PATH" where
/// NAME is a word but no format, and no file is named the whole argument,
/// sets `unknown_format` to NAME: the caller says the format is unknown.
struct WorkloadSource {
  std::optional<TraceFormat> format;
  std::string path;
  std::string unknown_format;
};
WorkloadSource parse_workload_source(const std::string& argument);

/// The format a file's content looks like, for a file given without one: a
/// folder holding pai_task_table.csv is pai; text opening with '{' native,
/// with '[' philly (the raw job log); a file named pai_*.csv pai (its
/// tables have no header); ';' comment lines or lines of 18
/// numbers swf; a header with Philly's or Helios' columns philly or helios;
/// any other header of two or more comma-, semicolon- or tab-separated names
/// csv. Nothing when it cannot tell (or cannot read the file). Each format's
/// rule weighs its own evidence: the file's structure (a folder, '{', '[')
/// outweighs its name, the name the shape of its first line, that a header's
/// known columns, and those any header; the strongest wins, ties in table order.
std::optional<TraceFormat> guess_trace_format(const std::string& path);

}  // namespace gcsim
