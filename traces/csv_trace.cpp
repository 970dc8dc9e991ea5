#include "traces/csv_trace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "traces/trace_qos.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_setting_error.hpp"
#include "traces/trace_text.hpp"
#include "traces/trace_units.hpp"

namespace gcsim {
namespace {

std::string property_list() {
  std::string list;
  for (const std::string& p : csv_trace_properties()) list += (list.empty() ? "" : ", ") + p;
  return list;
}

// The properties whose plain numbers have a unit, which the mapping may name
// after the column ("memory=mem:GiB"): cpu, memory, gpu_memory, share and disk.
bool has_unit(const std::string& property) {
  return property == "cpu" || property == "memory" || property == "gpu_memory" || property == "share" ||
         property == "disk";
}

// A mapped column: its header name, and the unit named after it, if any.
struct MappedColumn {
  std::string name;
  std::optional<double> unit;  // cores, bytes or shares of a GPU per unit of a plain number
};

// The unit of a share column: "fraction" (1, the default), "percent"
// (PAI's plan_gpu of 50 is half a GPU) or "milli" (thousandths, as
// Kubernetes GPU-sharing pod lists count gpu_milli).
double parse_share_unit(const std::string& unit) {
  if (unit == "fraction") return 1;
  if (unit == "percent") return 0.01;
  if (unit == "milli") return 0.001;
  throw std::invalid_argument("expected fraction, percent or milli");
}

// The amount per unit `unit` names for `property` (one that has_unit()).
double parse_unit_of(const std::string& property, const std::string& unit) {
  if (property == "cpu") return parse_cpu_unit(unit);
  if (property == "share") return parse_share_unit(unit);
  return parse_memory_unit(unit);
}

// A field that writes its own unit ("16Gi", "500m"); a share has none.
std::optional<double> amount_with_unit(const std::string& property, const std::string& text) {
  if (property == "cpu") return parse_cores_with_unit(text);
  if (property == "share") return std::nullopt;
  return parse_bytes_with_unit(text);
}

// "COLUMN" or, for a property with a unit, "COLUMN:UNIT".
MappedColumn mapped_column(const std::string& property, const std::string& value) {
  const auto colon = value.rfind(':');
  if (colon == std::string::npos) return {value, std::nullopt};
  const std::string unit = value.substr(colon + 1);
  if (!has_unit(property))
    throw std::invalid_argument("property '" + property + "' takes no unit ('" + value +
                                "' in the column mapping): only cpu, memory, gpu_memory, share and disk do");
  if (colon == 0) throw std::invalid_argument("no column before the unit in '" + property + "=" + value + "'");
  try {
    return {value.substr(0, colon), parse_unit_of(property, unit)};
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("unknown unit '" + unit + "' for '" + property + "' in the column mapping (" +
                                e.what() + ")");
  }
}

void check_mapping(const std::map<std::string, std::string>& columns) {
  for (const auto& [property, column] : columns) {
    if (std::find(csv_trace_properties().begin(), csv_trace_properties().end(), property) ==
        csv_trace_properties().end())
      throw std::invalid_argument("unknown property '" + property +
                                  "' in the column mapping (expected one of: " + property_list() + ")");
    mapped_column(property, column);
  }
  if (!columns.count("submit") || !columns.count("gpus"))
    throw std::invalid_argument("the column mapping must name the 'submit' and 'gpus' columns");
  if (!columns.count("duration") && !(columns.count("start") && columns.count("end")))
    throw std::invalid_argument("the column mapping must name a 'duration' column, or 'start' and 'end' columns");
  if (columns.count("max_per_node") && !columns.count("application"))
    throw std::invalid_argument(
        "the column mapping names 'max_per_node', a limit on the jobs of an application per node, and no "
        "'application' column");
}

// The error for a plain number in a column whose unit nobody declared: the
// setting PROPERTY_unit declares it.
TraceSettingError plain_amount(const std::string& file, std::size_t line, const std::string& property,
                               const std::string& column, const std::string& text) {
  const std::string units = property == "cpu" ? cpu_unit_list() : memory_unit_list();
  return TraceSettingError(file, "line " + std::to_string(line), column,
                           "a plain number (got '" + text + "') needs the column's unit: declare it with ",
                           {property + "_unit", "UNIT"},
                           " or in the mapping, " + property + "=" + column + ":UNIT (UNIT one of " + units +
                               "); or write the unit in the field (16Gi, 16GB)");
}

// The same for a disk column, whose unit no setting declares: the mapping does.
InputError plain_disk(const std::string& file, std::size_t line, const std::string& column, const std::string& text) {
  return InputError(file, "line " + std::to_string(line), column,
                    "a plain number (got '" + text + "') needs the column's unit: disk=" + column +
                        ":UNIT in the mapping (UNIT one of " + memory_unit_list() +
                        "); or write the unit in the field (680Gi, 680GB)");
}

// A row's Kubernetes placement constraints (Alibaba's 2025 GPU-disaggregated
// trace): RDMA in whole percent of an RNIC, a node role, an application and
// at most max_per_node of its jobs on a node (empty or -1: no limit).
struct RowConstraints {
  std::uint32_t rdma_percent = 0;
  NodeRole role = NodeRole::kNone;
  std::string application;
  std::uint32_t max_per_node = 0;
};

}  // namespace

const std::vector<std::string>& csv_trace_properties() {
  static const std::vector<std::string> properties = {
      "submit",   "gpus",     "duration", "start", "end",    "id",          "user",        "queue",     "status",
      "gpu_type", "estimate", "job_type", "cpu",   "memory", "gpu_memory",  "share",       "gpu_types", "single_node",
      "priority", "qos",      "rdma",     "disk",  "role",   "application", "max_per_node"};
  return properties;
}

std::map<std::string, std::string> parse_csv_column_map(const std::string& text) {
  std::map<std::string, std::string> columns = parse_column_map(text, csv_trace_properties());
  for (const auto& [property, column] : columns) mapped_column(property, column);
  return columns;
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

  CsvRecords records(in, file, options.delimiter);
  const CsvHeader header = read_csv_header(records);
  std::map<std::string, TraceColumn> column_of;
  // Cores, bytes or GPU shares per unit of a plain number: the mapping's unit,
  // else the declared one (a share is a fraction unless told otherwise).
  std::map<std::string, std::optional<double>> unit_of = {{"cpu", options.cpu_unit_cores},
                                                          {"memory", options.memory_unit_bytes},
                                                          {"gpu_memory", options.gpu_memory_unit_bytes},
                                                          {"share", 1.0},
                                                          {"disk", std::nullopt}};
  for (const auto& [property, column] : columns) {
    const MappedColumn mapped_as = mapped_column(property, column);
    column_of[property] = header.column(mapped_as.name);
    if (mapped_as.unit) unit_of[property] = mapped_as.unit;
  }
  const auto column = [&](const std::string& property) -> const TraceColumn& { return column_of.at(property); };
  const std::string not_a_time = "not a time (YYYY-MM-DD HH:MM:SS or a number)";

  std::map<std::string, std::size_t> line_of_id;
  std::map<std::pair<std::string, std::uint32_t>, std::shared_ptr<const Application>> applications;
  std::vector<PendingTraceJob> pending;
  std::size_t rounded_up = 0, shared = 0, cpu_jobs = 0;
  bool calendar = false;
  TimeFormats time_formats;
  for (CsvRecord record; records.next(record);) {
    ++result.rows;
    const std::size_t line = record.line;
    TraceRow row(log, file, line, std::move(record.fields), header.size(), TraceRow::Spaces::kTrimmed);
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
    // No submit time: submitted before the trace's window began (censored), when
    // a start or end says when it ran.
    const bool submit_unknown = field("submit").empty();
    const double submit =
        submit_unknown ? 0 : row.submit_time(column("submit"), options.time_unit_s, not_a_time, time_formats);
    if (row) calendar = calendar || parse_calendar_time(field("submit")).has_value();
    const double gpus = row.number_if(
        column("gpus"), [](double value) { return value >= 0 && value <= 4294967295.0; },
        "not a GPU count (a number >= 0)");
    row.malformed_if(gpus > 0 && gpus < kSmallestGpuShare, column("gpus"), "a share below a millionth of a GPU",
                     "got " + field("gpus"));
    const std::string status = field("status");
    double run_time = 0;
    std::optional<double> start, end;
    if (by_duration) {
      row.not_replayable_if(submit_unknown, column("submit"), "no submit time");
      const double duration = row.number(column("duration"));
      row.malformed_if(duration < 0, column("duration"), "negative run time", "got " + field("duration"));
      run_time = duration * options.time_unit_s;
    } else {
      // A job still waiting when the log was cut is not replayable; one
      // submitted before it began, or still running when it was cut, is
      // censored (finish_trace completes it from the trace's window).
      const bool no_start = field("start").empty(), no_end = field("end").empty();
      row.not_replayable_if(submit_unknown && no_start && no_end, column("submit"), "no submit, start or end time");
      row.not_replayable_if(!submit_unknown && no_start, column("start"), "never started (no start time)", status);
      if (!no_start) start = row.time(column("start"), options.time_unit_s, not_a_time, time_formats);
      if (!no_end) end = row.time(column("end"), options.time_unit_s, not_a_time, time_formats);
      if (start && end)
        row.malformed_if(*end < *start, column("end"), "end before start",
                         "ends " + describe_number(*start - *end) + " s before it starts");
      if (start && !submit_unknown) row.starts_after_submit(submit, *start, column("start").name);
      if (start && end && !submit_unknown) run_time = *end - *start;
    }
    const bool censored = !by_duration && (submit_unknown || !end);
    const double estimate = mapped("estimate") && !field("estimate").empty()
                                ? std::max(0.0, row.number(column("estimate")) * options.time_unit_s)
                                : 0;
    // Host and placement columns: cores, memory, GPU memory (plain numbers in
    // the column's unit, or a field with its own: "16Gi", "16GB", "500m"), a
    // share of each GPU, allowed GPU types ("A|B"), single node.
    const auto amount = [&](const std::string& property) -> double {
      if (!row || field(property).empty()) return 0;
      std::optional<double> value = parse_trace_number(field(property));
      if (value && has_unit(property)) {
        const std::optional<double>& unit = unit_of.at(property);
        if (!unit && property == "disk") throw plain_disk(file, line, column(property).name, field(property));
        if (!unit) throw plain_amount(file, line, property, column(property).name, field(property));
        *value *= *unit;
      } else if (!value && has_unit(property)) {
        value = amount_with_unit(property, field(property));
      }
      const bool valid = value && *value >= 0 && std::isfinite(*value);
      return row.malformed_if(!valid, column(property), "not an amount >= 0", row.got(column(property))) ? *value : 0;
    };
    const double cpu = amount("cpu");
    const double memory = amount("memory");
    const double gpu_memory = amount("gpu_memory");
    const double share = amount("share");
    const double disk = amount("disk");
    RowConstraints constraints;
    if (mapped("rdma") && !field("rdma").empty())
      constraints.rdma_percent = static_cast<std::uint32_t>(row.number_if(
          column("rdma"), [](double v) { return is_whole_count(v); }, "not a whole percent of an RNIC >= 0"));
    if (mapped("role") && !field("role").empty()) {
      const std::optional<NodeRole> role = parse_node_role(field("role"));
      if (row.malformed_if(!role, column("role"), "not a node role (CN or HN)", row.got(column("role"))))
        constraints.role = *role;
    }
    if (mapped("application")) constraints.application = field("application");
    if (mapped("max_per_node") && !field("max_per_node").empty()) {
      const double most = row.number_if(
          column("max_per_node"), [](double v) { return v == -1 || (v >= 1 && is_whole_count(v)); },
          "not a count of jobs per node >= 1, or -1 for no limit");
      if (most >= 1) {
        row.malformed_if(constraints.application.empty(), column("application"),
                         "no application for the limit of its jobs per node", "got ''");
        constraints.max_per_node = static_cast<std::uint32_t>(most);
      }
    }
    // A row of no GPU asks no share of one (a pod list's CPU pods give 0).
    if (mapped("share") && gpus > 0)
      row.malformed_if(share > 1 || (!field("share").empty() && share < kSmallestGpuShare), column("share"),
                       "not a share of a GPU in (0, 1]", row.got(column("share")));
    const std::string single = field("single_node");
    const bool single_node = single == "true" || single == "1" || single == "yes";
    if (mapped("single_node"))
      row.malformed_if(!single.empty() && !single_node && !(single == "false" || single == "0" || single == "no"),
                       column("single_node"), "not true or false", row.got(column("single_node")));
    std::vector<std::string> gpu_types;
    for (const std::string& type : csv_fields(field("gpu_types"), '|'))
      if (!type.empty()) gpu_types.push_back(type);
    // QoS class and priority (trace_qos.hpp).
    const std::optional<QosClass> qos = trace_qos_class(field("qos"), options);
    if (mapped("qos"))
      row.malformed_if(!qos, column("qos"), "not a QoS class (spot_values, guaranteed_values)", row.got(column("qos")));
    const std::optional<std::int64_t> priority = trace_priority(field("priority"), options);
    if (mapped("priority"))
      row.malformed_if(!priority, column("priority"), "not a priority (an integer or a level of priority_levels)",
                       row.got(column("priority")));
    // A row of no GPU is a CPU job when it asks cores; one asking neither has nothing to replay.
    const bool cpu_job = gpus == 0 && cpu > 0;
    row.not_replayable_if(gpus == 0 && !cpu_job, column("gpus"),
                          mapped("cpu") ? "0 GPUs and 0 cores (a CPU job asks cores)"
                                        : "0 GPUs and no cpu column (map one to replay CPU jobs)");
    row.not_replayable_if(!censored && run_time == 0, by_duration ? column("duration") : column("end"),
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
    if (!by_duration) {
      job.end_field = column("end").name;
      job.start = start;
      job.recorded_start = start;
      job.end = end;
      job.submit_unknown = submit_unknown;
      job.end_unknown = !end;
    }
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
    job.spec.disk_bytes = disk;
    job.spec.rdma_percent = constraints.rdma_percent;
    job.spec.role = constraints.role;
    if (!constraints.application.empty()) {
      // One Application per name and limit, shared by its jobs.
      auto& shared = applications[{constraints.application, constraints.max_per_node}];
      if (!shared)
        shared = std::make_shared<const Application>(Application{constraints.application, constraints.max_per_node});
      job.spec.application = shared;
    }
    job.spec.qos = *qos;
    job.spec.priority = *priority;
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
