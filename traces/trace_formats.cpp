#include "traces/trace_formats.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/csv_records.hpp"
#include "workloads/native_workload.hpp"
#include "traces/csv_trace.hpp"
#include "traces/helios_trace.hpp"
#include "traces/pai_trace.hpp"
#include "traces/philly_trace.hpp"
#include "traces/swf_trace.hpp"
#include "traces/trace_setting_error.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

// What the start of a file (or a folder) shows of its format.
struct TraceHead {
  bool folder = false;      // the path is a folder
  bool pai_tables = false;  // a folder holding pai_task_table.csv
  std::string name;         // the file's own name
  std::string first;        // the first non-blank line, trimmed
  // The first line's names at the first of ',', ';' and tab that splits it
  // in two or more, trimmed; empty when none does.
  std::vector<std::string> header;

  bool opens_with(char c) const { return !first.empty() && first.front() == c; }
  bool has_columns(std::initializer_list<const char*> columns) const {
    return std::all_of(columns.begin(), columns.end(), [&](const char* column) {
      return std::find(header.begin(), header.end(), column) != header.end();
    });
  }
};

// How strongly a file's head points to a format, weakest first.
enum class Evidence { kNone, kAnyHeader, kHeaderColumns, kLineShape, kFileName, kStructure };

struct TraceFormatEntry {
  TraceFormat format;
  const char* name;
  const char* title;  // what a file of the format is, for messages
  TraceReadResult (*read)(const std::string& path, const TraceReadOptions& options);
  Evidence (*evidence)(const TraceHead& head);
};

TraceReadResult read_native_as_trace(const std::string& path, const TraceReadOptions& options);

Evidence philly_evidence(const TraceHead& head) {
  if (head.opens_with('[')) return Evidence::kStructure;  // the raw job log, a JSON array
  return head.has_columns({"timestamp", "duration", "num_gpus", "gpu_time"}) ? Evidence::kHeaderColumns
                                                                             : Evidence::kNone;
}

Evidence swf_evidence(const TraceHead& head) {
  if (head.opens_with(';')) return Evidence::kLineShape;
  const std::vector<std::string> words = split_whitespace(head.first);
  const bool numbers = words.size() == 18 && std::all_of(words.begin(), words.end(), [](const std::string& w) {
                         return parse_trace_number(w).has_value();
                       });
  return numbers ? Evidence::kLineShape : Evidence::kNone;
}

Evidence helios_evidence(const TraceHead& head) {
  return head.has_columns({"job_id", "gpu_num", "submit_time"}) ? Evidence::kHeaderColumns : Evidence::kNone;
}

// PAI's tables are headerless: their names say what they are.
Evidence pai_evidence(const TraceHead& head) {
  if (head.folder) return head.pai_tables ? Evidence::kStructure : Evidence::kNone;
  const std::string& name = head.name;
  const bool pai_table = name.rfind("pai_", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0;
  return pai_table && !head.first.empty() ? Evidence::kFileName : Evidence::kNone;
}

Evidence csv_evidence(const TraceHead& head) { return head.header.empty() ? Evidence::kNone : Evidence::kAnyHeader; }

Evidence native_evidence(const TraceHead& head) {
  return head.opens_with('{') ? Evidence::kStructure : Evidence::kNone;
}

// The one list of formats, in TraceFormat's order.
constexpr TraceFormatEntry kFormats[] = {
    {TraceFormat::kPhilly, "philly", "a Philly trace", read_philly_trace, philly_evidence},
    {TraceFormat::kSwf, "swf", "an SWF log", read_swf_trace, swf_evidence},
    {TraceFormat::kHelios, "helios", "a Helios trace", read_helios_trace, helios_evidence},
    {TraceFormat::kPai, "pai", "a PAI trace folder", read_pai_trace, pai_evidence},
    {TraceFormat::kCsv, "csv", "a CSV table", read_csv_trace, csv_evidence},
    {TraceFormat::kNative, "native", "a gcsim workload", read_native_as_trace, native_evidence},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(kFormats); ++i)
    if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kFormats lists the trace formats in TraceFormat's order, one entry each");

// How many bytes at the end of `text` open a UTF-8 sequence that it does not finish (0 to 3).
std::size_t incomplete_utf8_tail(const std::string& text) {
  std::size_t continuations = 0;
  while (continuations < 3 && continuations < text.size() &&
         (static_cast<unsigned char>(text[text.size() - 1 - continuations]) & 0xC0) == 0x80)
    ++continuations;
  if (continuations == text.size()) return 0;
  const auto lead = static_cast<unsigned char>(text[text.size() - 1 - continuations]);
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  return length > continuations + 1 ? continuations + 1 : 0;
}

const TraceFormatEntry& entry_of(TraceFormat format) {
  const auto index = static_cast<std::size_t>(format);
  if (index >= std::size(kFormats)) throw std::logic_error("trace format without an entry in the format table");
  return kFormats[index];
}

std::optional<TraceHead> read_trace_head(const std::string& path) {
  TraceHead head;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    head.folder = true;
    head.pai_tables = std::filesystem::is_regular_file(std::filesystem::path(path) / "pai_task_table.csv", error);
    return head;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  // The first lines are enough; a header names the columns.
  std::string start(65536, '\0');
  in.read(start.data(), static_cast<std::streamsize>(start.size()));
  start.resize(static_cast<std::size_t>(in.gcount()));
  // A multi-byte character cut at the end of what was read is not a fault of the file.
  if (in.gcount() == 65536) start.resize(start.size() - incomplete_utf8_tail(start));
  std::istringstream text(start);
  TextLines lines(text, path);
  std::string line;
  while (lines.next(line) && is_blank(line)) {
  }
  head.name = file_name_of(path);
  head.first = std::string(trim(line));
  for (const char delimiter : {',', ';', '\t'}) {
    std::vector<std::string> names = csv_fields(head.first, delimiter);
    if (names.size() < 2) continue;
    for (std::string& name : names) name = std::string(trim(name));
    head.header = std::move(names);
    break;
  }
  return head;
}

TraceReadResult read_native_as_trace(const std::string& path, const TraceReadOptions& options) {
  if (const auto guessed = guess_trace_format(path); guessed && *guessed != TraceFormat::kNative)
    throw TraceSettingError(
        path, "", "", "not a gcsim workload (JSON): it looks like " + trace_format_title(*guessed) + "; read it with ",
        {"format", trace_format_name(*guessed)}, "");
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
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const TraceFormatEntry& entry : kFormats) list.emplace_back(entry.name);
    return list;
  }();
  return names;
}

std::optional<TraceFormat> parse_trace_format(const std::string& name) {
  for (const TraceFormatEntry& entry : kFormats)
    if (name == entry.name) return entry.format;
  return std::nullopt;
}

std::string trace_format_name(TraceFormat format) { return entry_of(format).name; }

std::string trace_format_title(TraceFormat format) { return entry_of(format).title; }

TraceReadResult read_trace(TraceFormat format, const std::string& path, const TraceReadOptions& options) {
  return entry_of(format).read(path, options);
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
  const std::optional<TraceHead> head = read_trace_head(path);
  if (!head) return std::nullopt;
  std::optional<TraceFormat> best;
  Evidence strongest = Evidence::kNone;
  for (const TraceFormatEntry& entry : kFormats)
    if (const Evidence evidence = entry.evidence(*head); evidence > strongest) {
      strongest = evidence;
      best = entry.format;
    }
  return best;
}

}  // namespace gcsim
