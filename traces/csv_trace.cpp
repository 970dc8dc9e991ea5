#include "traces/csv_trace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

std::string property_list() {
  std::string list;
  for (const std::string& p : csv_trace_properties()) list += (list.empty() ? "" : ", ") + p;
  return list;
}

void check_mapping(const std::map<std::string, std::string>& columns) {
  for (const auto& [property, column] : columns)
    if (std::find(csv_trace_properties().begin(), csv_trace_properties().end(), property) ==
        csv_trace_properties().end())
      throw std::invalid_argument("unknown property '" + property +
                                  "' in the column mapping (expected one of: " + property_list() + ")");
  if (!columns.count("submit") || !columns.count("gpus"))
    throw std::invalid_argument("the column mapping must name the 'submit' and 'gpus' columns");
  if (!columns.count("duration") && !(columns.count("start") && columns.count("end")))
    throw std::invalid_argument("the column mapping must name a 'duration' column, or 'start' and 'end' columns");
}

}  // namespace

const std::vector<std::string>& csv_trace_properties() {
  static const std::vector<std::string> properties = {"submit", "gpus",  "duration", "start",    "end",     "id",
                                                      "user",   "queue", "status",   "gpu_type", "estimate",
                                                      "job_type", "cpu", "memory", "gpu_memory", "share",
                                                      "gpu_types", "single_node"};
  return properties;
}

std::map<std::string, std::string> parse_csv_column_map(const std::string& text) {
  return parse_column_map(text, csv_trace_properties());
}

TraceReadResult read_csv_trace(const std::string& path, const TraceReadOptions& options) {
  check_mapping(options.columns);
  std::ifstream in = open_trace_file(path);
  return parse_csv_trace(in, path, options);
}

TraceReadResult parse_csv_trace(std::istream& in, const std::string& file, const TraceReadOptions& options) {
  check_mapping(options.columns);
  if (!(options.time_unit_s > 0)) throw std::invalid_argument("the time unit must be positive");
  const auto& columns = options.columns;
  const auto mapped = [&](const std::string& property) { return columns.count(property) > 0; };

  TraceReadResult result;
  result.format = "csv";
  const bool by_duration = mapped("duration");
  result.work_source = std::string("recorded run time (") +
                       (by_duration ? "column '" + columns.at("duration") + "'"
                                    : "'" + columns.at("end") + "' - '" + columns.at("start") + "'") +
                       ") on the recorded GPU count (column '" + columns.at("gpus") + "')";
  if (!mapped("user")) result.assumptions.push_back("no user column: every job belongs to user 'unknown'");
  if (!mapped("queue")) result.assumptions.push_back("no queue column: every job is in queue 'unknown'");
  if (!mapped("gpu_type"))
    result.assumptions.push_back("no GPU type column: run times are taken as measured on " + options.gpu_type);
  if (!mapped("id")) result.assumptions.push_back("no id column: jobs are named csv-<line>");
  SkipLog log(result.skipped, options.strict);

  TraceLines lines(in);
  std::string text;
  const CsvHeader header = read_csv_header(lines, file, options.delimiter);
  std::map<std::string, std::size_t> at;
  for (const auto& [property, column] : columns) at[property] = header.require(column);
  const auto name = [&](const std::string& property) { return columns.at(property); };

  std::map<std::string, std::size_t> line_of_id;
  std::vector<PendingTraceJob> pending;
  std::size_t rounded_up = 0, shared = 0;
  bool calendar = false;
  while (lines.next(text)) {
    if (is_blank(text)) continue;
    ++result.rows;
    const std::size_t line = lines.number();
    std::vector<std::string> fields = split_csv_line(text, options.delimiter);
    if (fields.size() != header.size()) {
      log.malformed(file, line, "", "wrong number of fields",
                    "expected " + std::to_string(header.size()) + ", got " + std::to_string(fields.size()));
      continue;
    }
    for (std::string& field : fields) field = std::string(trim(field));
    const auto field = [&](const std::string& property) -> const std::string& { return fields[at.at(property)]; };

    std::string id = "csv-" + std::to_string(line);
    if (mapped("id")) {
      id = field("id");
      if (id.empty()) {
        log.malformed(file, line, name("id"), "empty job id");
        continue;
      }
      if (const auto [it, inserted] = line_of_id.emplace(id, line); !inserted) {
        log.malformed(file, line, name("id"), "duplicate job id",
                      "'" + id + "' is also on line " + std::to_string(it->second));
        continue;
      }
    }
    const std::optional<double> submit = parse_trace_time(field("submit"), options.time_unit_s);
    if (!submit) {
      log.malformed(file, line, name("submit"), "not a time (YYYY-MM-DD HH:MM:SS or a number)",
                    "got '" + field("submit") + "'");
      continue;
    }
    calendar = calendar || parse_calendar_time(field("submit")).has_value();
    const std::optional<double> gpus = parse_trace_number(field("gpus"));
    if (!gpus || *gpus < 0 || *gpus > 4294967295.0) {
      log.malformed(file, line, name("gpus"), "not a GPU count (a number >= 0)", "got '" + field("gpus") + "'");
      continue;
    }
    if (*gpus > 0 && *gpus < kSmallestGpuShare) {
      log.malformed(file, line, name("gpus"), "a share below a millionth of a GPU", "got " + field("gpus"));
      continue;
    }
    const std::string status = mapped("status") ? field("status") : std::string();
    double run_time = 0;
    if (by_duration) {
      const std::optional<double> duration = parse_trace_number(field("duration"));
      if (!duration) {
        log.malformed(file, line, name("duration"), "not a number", "got '" + field("duration") + "'");
        continue;
      }
      if (*duration < 0) {
        log.malformed(file, line, name("duration"), "negative run time", "got " + field("duration"));
        continue;
      }
      run_time = *duration * options.time_unit_s;
    } else {
      // Jobs still waiting or running when the log was cut: not replayable, as in every format.
      if (field("start").empty()) {
        log.not_replayable(file, line, name("start"), "never started (no start time)", status);
        continue;
      }
      if (field("end").empty()) {
        log.not_replayable(file, line, name("end"), "had not ended when the log was cut (no end time)", status);
        continue;
      }
      const std::optional<double> start = parse_trace_time(field("start"), options.time_unit_s);
      const std::optional<double> end = parse_trace_time(field("end"), options.time_unit_s);
      if (!start) {
        log.malformed(file, line, name("start"), "not a time (YYYY-MM-DD HH:MM:SS or a number)",
                      "got '" + field("start") + "'");
        continue;
      }
      if (!end) {
        log.malformed(file, line, name("end"), "not a time (YYYY-MM-DD HH:MM:SS or a number)",
                      "got '" + field("end") + "'");
        continue;
      }
      if (*end < *start) {
        log.malformed(file, line, name("end"), "end before start",
                      "ends " + describe_number(*start - *end) + " s before it starts");
        continue;
      }
      run_time = *end - *start;
    }
    double estimate = 0;
    if (mapped("estimate") && !field("estimate").empty()) {
      const std::optional<double> value = parse_trace_number(field("estimate"));
      if (!value) {
        log.malformed(file, line, name("estimate"), "not a number", "got '" + field("estimate") + "'");
        continue;
      }
      estimate = std::max(0.0, *value * options.time_unit_s);
    }
    // Host and placement columns: cores, memory (bytes, or a quantity such as
    // "16GB"), GPU memory, a share of each GPU, allowed GPU types ("A|B"), single node.
    auto optional_amount = [&](const std::string& property, Quantity kind) -> std::optional<double> {
      if (!mapped(property) || field(property).empty()) return 0.0;
      std::optional<double> value = parse_trace_number(field(property));
      if (!value) value = parse_quantity(field(property), kind);
      if (!value || *value < 0 || !std::isfinite(*value)) {
        log.malformed(file, line, name(property), "not an amount >= 0", "got '" + field(property) + "'");
        return std::nullopt;
      }
      return value;
    };
    const std::optional<double> cpu = optional_amount("cpu", Quantity::kPlain);
    if (!cpu) continue;
    const std::optional<double> memory = optional_amount("memory", Quantity::kBytes);
    if (!memory) continue;
    const std::optional<double> gpu_memory = optional_amount("gpu_memory", Quantity::kBytes);
    if (!gpu_memory) continue;
    const std::optional<double> share = optional_amount("share", Quantity::kPlain);
    if (!share) continue;
    if (*share > 1 || (mapped("share") && !field("share").empty() && *share < kSmallestGpuShare)) {
      log.malformed(file, line, name("share"), "not a share of a GPU in (0, 1]", "got '" + field("share") + "'");
      continue;
    }
    bool single_node = false;
    if (mapped("single_node") && !field("single_node").empty()) {
      const std::string& text = field("single_node");
      if (text == "true" || text == "1" || text == "yes") single_node = true;
      else if (!(text == "false" || text == "0" || text == "no")) {
        log.malformed(file, line, name("single_node"), "not true or false", "got '" + text + "'");
        continue;
      }
    }
    std::vector<std::string> gpu_types;
    if (mapped("gpu_types"))
      for (const std::string& type : split_csv_line(field("gpu_types"), '|'))
        if (!type.empty()) gpu_types.push_back(type);
    if (*gpus == 0) {
      log.not_replayable(file, line, name("gpus"), "CPU job (0 GPUs)");
      continue;
    }
    if (run_time == 0) {
      log.not_replayable(file, line, by_duration ? name("duration") : name("end"),
                         "ran for 0 s (gcsim replays positive run times)");
      continue;
    }
    // Below one GPU: one worker on that share of a GPU; above, a fraction is rounded up.
    const bool sharing = *gpus < 1;
    const double whole = std::ceil(*gpus);
    if (sharing) ++shared;
    if (!sharing && whole != *gpus) ++rounded_up;
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = name("submit");
    job.run_time_field = by_duration ? name("duration") : name("end");
    if (mapped("estimate")) job.estimate_field = name("estimate");
    job.spec.id = id;
    job.spec.user = mapped("user") && !field("user").empty() ? field("user") : "unknown";
    job.spec.queue = mapped("queue") && !field("queue").empty() ? field("queue") : "unknown";
    job.status = status;
    if (mapped("job_type")) job.job_type = field("job_type");
    job.spec.submit = *submit;
    job.spec.gpus = static_cast<std::uint32_t>(whole);
    if (sharing) job.spec.gpu_share = *gpus;
    job.spec.runtime_estimate = estimate;
    job.spec.cpu_cores = static_cast<std::uint32_t>(std::min(std::ceil(*cpu), 4294967295.0));
    job.spec.memory_bytes = *memory;
    job.spec.gpu_memory_bytes = *gpu_memory;
    if (mapped("share") && *share > 0) job.spec.gpu_share = *share;
    job.spec.single_node = single_node;
    job.spec.gpu_types = std::move(gpu_types);
    const std::string type = mapped("gpu_type") && !field("gpu_type").empty() ? field("gpu_type") : options.gpu_type;
    job.spec.work = MeasuredWork{run_time, type};
    pending.push_back(std::move(job));
  }
  result.assume_for(shared, " jobs ask less than one GPU: each holds that share of one GPU (gpu_share), beside other "
                    "fractional jobs, its recorded run time taken at that share");
  result.assume_for(rounded_up, " jobs ask more than one GPU but not a whole number: rounded up to whole GPUs");
  result.calendar_clock = calendar;
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
