#include "traces/csv_trace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_row.hpp"
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
  static const std::vector<std::string> properties = {
      "submit",   "gpus",     "duration", "start", "end",    "id",         "user",  "queue",     "status",
      "gpu_type", "estimate", "job_type", "cpu",   "memory", "gpu_memory", "share", "gpu_types", "single_node"};
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
  std::map<std::string, TraceColumn> column_of;
  for (const auto& [property, column] : columns) column_of[property] = header.column(column);
  const auto column = [&](const std::string& property) -> const TraceColumn& { return column_of.at(property); };
  const std::string not_a_time = "not a time (YYYY-MM-DD HH:MM:SS or a number)";

  std::map<std::string, std::size_t> line_of_id;
  std::vector<PendingTraceJob> pending;
  std::size_t rounded_up = 0, shared = 0, cpu_jobs = 0;
  bool calendar = false;
  while (lines.next(text)) {
    if (is_blank(text)) continue;
    ++result.rows;
    const std::size_t line = lines.number();
    TraceRow row(log, file, line, split_csv_line(text, options.delimiter), header.size(), TraceRow::Spaces::kTrimmed);
    // The field of a mapped property; "" for one not mapped.
    const auto field = [&](const std::string& property) -> std::string {
      return mapped(property) ? row.text(column(property)) : std::string();
    };

    std::string id = "csv-" + std::to_string(line);
    if (mapped("id")) {
      id = field("id");
      row.malformed_if(id.empty(), column("id"), "empty job id");
      row.first_of(line_of_id, id, column("id").name, "duplicate job id", "'" + id + "'");
    }
    const double submit = row.time(column("submit"), options.time_unit_s, not_a_time);
    if (row) calendar = calendar || parse_calendar_time(field("submit")).has_value();
    const double gpus = row.number_if(
        column("gpus"), [](double value) { return value >= 0 && value <= 4294967295.0; },
        "not a GPU count (a number >= 0)");
    row.malformed_if(gpus > 0 && gpus < kSmallestGpuShare, column("gpus"), "a share below a millionth of a GPU",
                     "got " + field("gpus"));
    const std::string status = field("status");
    double run_time = 0;
    if (by_duration) {
      const double duration = row.number(column("duration"));
      row.malformed_if(duration < 0, column("duration"), "negative run time", "got " + field("duration"));
      run_time = duration * options.time_unit_s;
    } else {
      // Jobs still waiting or running when the log was cut: not replayable, as in every format.
      row.not_replayable_if(field("start").empty(), column("start"), "never started (no start time)", status);
      row.not_replayable_if(field("end").empty(), column("end"), "had not ended when the log was cut (no end time)",
                            status);
      const double start = row.time(column("start"), options.time_unit_s, not_a_time);
      const double end = row.time(column("end"), options.time_unit_s, not_a_time);
      row.malformed_if(end < start, column("end"), "end before start",
                       "ends " + describe_number(start - end) + " s before it starts");
      run_time = end - start;
    }
    const double estimate = mapped("estimate") && !field("estimate").empty()
                                ? std::max(0.0, row.number(column("estimate")) * options.time_unit_s)
                                : 0;
    // Host and placement columns: cores, memory (bytes, or a quantity such as
    // "16GB"), GPU memory, a share of each GPU, allowed GPU types ("A|B"), single node.
    const auto amount = [&](const std::string& property, Quantity kind) -> double {
      if (!row || field(property).empty()) return 0;
      std::optional<double> value = parse_trace_number(field(property));
      if (!value) value = parse_quantity(field(property), kind);
      const bool valid = value && *value >= 0 && std::isfinite(*value);
      return row.malformed_if(!valid, column(property), "not an amount >= 0", row.got(column(property))) ? *value : 0;
    };
    const double cpu = amount("cpu", Quantity::kPlain);
    const double memory = amount("memory", Quantity::kBytes);
    const double gpu_memory = amount("gpu_memory", Quantity::kBytes);
    const double share = amount("share", Quantity::kPlain);
    if (mapped("share"))
      row.malformed_if(share > 1 || (!field("share").empty() && share < kSmallestGpuShare), column("share"),
                       "not a share of a GPU in (0, 1]", row.got(column("share")));
    const std::string single = field("single_node");
    const bool single_node = single == "true" || single == "1" || single == "yes";
    if (mapped("single_node"))
      row.malformed_if(!single.empty() && !single_node && !(single == "false" || single == "0" || single == "no"),
                       column("single_node"), "not true or false", row.got(column("single_node")));
    std::vector<std::string> gpu_types;
    for (const std::string& type : split_csv_line(field("gpu_types"), '|'))
      if (!type.empty()) gpu_types.push_back(type);
    // A row of no GPU is a CPU job when it asks cores; one asking neither has nothing to replay.
    const bool cpu_job = gpus == 0 && cpu > 0;
    row.not_replayable_if(gpus == 0 && !cpu_job, column("gpus"),
                          mapped("cpu") ? "0 GPUs and 0 cores (a CPU job asks cores)"
                                        : "0 GPUs and no cpu column (map one to replay CPU jobs)");
    row.not_replayable_if(run_time == 0, by_duration ? column("duration") : column("end"),
                          "ran for 0 s (gcsim replays positive run times)");
    if (!row) continue;
    // Below one GPU: one worker on that share of a GPU; above, a fraction is rounded up.
    const bool sharing = !cpu_job && gpus < 1;
    const double whole = std::ceil(gpus);
    if (sharing) ++shared;
    if (!sharing && whole != gpus) ++rounded_up;
    PendingTraceJob job;
    job.file = file;
    job.line = line;
    job.submit_field = column("submit").name;
    job.run_time_field = (by_duration ? column("duration") : column("end")).name;
    if (mapped("estimate")) job.estimate_field = column("estimate").name;
    job.spec.id = id;
    job.spec.user = mapped("user") && !field("user").empty() ? field("user") : "unknown";
    job.spec.queue = mapped("queue") && !field("queue").empty() ? field("queue") : "unknown";
    job.status = status;
    if (mapped("job_type")) job.job_type = field("job_type");
    job.spec.submit = submit;
    job.spec.gpus = static_cast<std::uint32_t>(whole);
    if (sharing) job.spec.gpu_share = gpus;
    job.spec.runtime_estimate = estimate;
    job.spec.cpu_cores = static_cast<std::uint32_t>(std::min(std::ceil(cpu), 4294967295.0));
    job.spec.memory_bytes = memory;
    job.spec.gpu_memory_bytes = gpu_memory;
    if (mapped("share") && share > 0) job.spec.gpu_share = share;
    job.spec.single_node = single_node;
    job.spec.gpu_types = std::move(gpu_types);
    const std::string type = mapped("gpu_type") && !field("gpu_type").empty() ? field("gpu_type") : options.gpu_type;
    job.spec.work = MeasuredWork{run_time, type};
    if (cpu_job) {  // its cores and memory on nodes for its recorded run time; nothing of a GPU
      ++cpu_jobs;
      job.spec.work = CpuWork{run_time};
      job.spec.gpu_memory_bytes = 0;
      job.spec.gpu_share = 1;
      job.spec.gpu_types.clear();
    }
    pending.push_back(std::move(job));
  }
  result.assume_for(shared,
                    " jobs ask less than one GPU: each holds that share of one GPU (gpu_share), beside other "
                    "fractional jobs, its recorded run time taken at that share");
  result.assume_for(rounded_up, " jobs ask more than one GPU but not a whole number: rounded up to whole GPUs");
  result.assume_for(cpu_jobs,
                    " jobs ask no GPU but cores (column '" + (mapped("cpu") ? columns.at("cpu") : std::string()) +
                        "'): CPU jobs, each holding its cores and memory on one node for its recorded run time");
  result.calendar_clock = calendar;
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
