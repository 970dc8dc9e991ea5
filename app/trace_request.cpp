#include "app/trace_request.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "sim/core/usage_error.hpp"
#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "workloads/native_workload.hpp"
#include "traces/csv_trace.hpp"
#include "traces/throughput_work.hpp"
#include "traces/trace_qos.hpp"
#include "traces/trace_formats.hpp"
#include "traces/trace_text.hpp"
#include "traces/trace_units.hpp"

namespace gcsim {
namespace {

double time_unit_seconds(const std::string& unit) {
  static const std::map<std::string, double> units = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1},
                                                      {"min", 60},  {"h", 3600},  {"d", 86400}};
  const auto it = units.find(unit);
  if (it == units.end())
    throw UsageError("trace setting 'time_unit' must be one of ns, us, ms, s, min, h, d, got '" + unit + "'");
  return it->second;
}

// A setting that is true or false.
bool boolean_setting(const std::string& key, const std::string& value) {
  if (value != "true" && value != "false")
    throw UsageError("trace setting '" + key + "' expects true or false, got '" + value + "'");
  return value == "true";
}

}  // namespace

std::pair<std::string, std::string> split_setting(const std::string& text, const std::string& flag) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("option '--" + flag + "' expects KEY=VALUE, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

TraceRequest trace_request(const std::vector<std::pair<std::string, std::string>>& settings) {
  TraceRequest request;
  TraceReadOptions& options = request.read;
  TraceSelection& selection = request.selection;
  std::optional<std::string> epoch;
  const auto count = [](const std::string& key, const std::string& value) {
    const auto number = parse_trace_number(value);
    if (!number || *number < 0 || *number != std::floor(*number) || *number > 4294967295.0)
      throw UsageError("trace setting '" + key + "' expects a whole number >= 0, got '" + value + "'");
    return static_cast<std::uint32_t>(*number);
  };
  const auto positive = [](const std::string& key, const std::string& value) {
    const auto number = parse_trace_number(value);
    if (!number || *number <= 0)
      throw UsageError("trace setting '" + key + "' expects a positive number, got '" + value + "'");
    return *number;
  };
  for (const auto& [key, value] : settings) {
    if (key == "from") {
      request.from = value;
    } else if (key == "until") {
      request.until = value;
    } else if (key == "queue") {
      std::stringstream names(value);
      std::string name;
      while (std::getline(names, name, ','))
        if (!name.empty()) selection.queues.insert(name);
    } else if (key == "min_gpus") {
      selection.min_gpus = count(key, value);
    } else if (key == "max_gpus") {
      selection.max_gpus = count(key, value);
    } else if (key == "sample") {
      const auto fraction = parse_trace_number(value);
      if (!fraction || *fraction <= 0 || *fraction > 1)
        throw UsageError("trace setting 'sample' expects a fraction in (0, 1], got '" + value + "'");
      selection.sample = *fraction;
    } else if (key == "seed") {
      const auto seed = parse_trace_number(value);
      if (!seed || *seed < 0 || *seed != std::floor(*seed) || *seed > 9007199254740992.0)
        throw UsageError("trace setting 'seed' expects a whole number >= 0, got '" + value + "'");
      selection.seed = static_cast<std::uint64_t>(*seed);
    } else if (key == "load_scale") {
      selection.load_scale = positive(key, value);
    } else if (key == "gpu_type") {
      if (value.empty()) throw UsageError("trace setting 'gpu_type' must not be empty");
      if (value.find('=') == std::string::npos) {
        options.gpu_type = value;
        continue;
      }
      try {
        add_gpu_model_mapping(options.gpu_models, parse_gpu_model_mapping(value));
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("trace setting 'gpu_type': ") + e.what());
      }
    } else if (key == "procs_per_gpu") {
      options.procs_per_gpu = positive(key, value);
    } else if (key == "map") {
      try {
        options.columns = parse_csv_column_map(value);
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("trace setting 'map': ") + e.what());
      }
    } else if (key == "spot_values" || key == "guaranteed_values" || key == "priority_levels") {
      try {
        if (key == "priority_levels")
          options.priority_levels = parse_priority_levels(value);
        else
          (key == "spot_values" ? options.spot_values : options.guaranteed_values) = parse_qos_values(value);
      } catch (const std::invalid_argument& e) {
        throw UsageError("trace setting '" + key + "' " + e.what());
      }
    } else if (key == "time_unit") {
      options.time_unit_s = time_unit_seconds(value);
    } else if (key == "delimiter") {
      if (value == "tab")
        options.delimiter = '\t';
      else if (value.size() == 1)
        options.delimiter = value[0];
      else
        throw UsageError("trace setting 'delimiter' expects one character or 'tab', got '" + value + "'");
    } else if (key == "cpu_unit" || key == "memory_unit" || key == "gpu_memory_unit") {
      try {
        if (key == "cpu_unit")
          options.cpu_unit_cores = parse_cpu_unit(value);
        else
          (key == "memory_unit" ? options.memory_unit_bytes : options.gpu_memory_unit_bytes) = parse_memory_unit(value);
      } catch (const std::invalid_argument& e) {
        throw UsageError("trace setting '" + key + "' " + e.what());
      }
    } else if (key == "censored") {
      if (value != "keep" && value != "drop")
        throw UsageError(
            "trace setting 'censored' expects 'keep' (jobs submitted before the trace's window or still running at "
            "its end are completed from the window, the default) or 'drop' (skipped), got '" +
            value + "'");
      options.keep_censored = value == "keep";
    } else if (key == "epoch") {
      epoch = value;
    } else if (key == "work") {
      if (value == "recorded") {
        request.throughput_source.reset();
        continue;
      }
      const std::string prefix = "throughput:";
      const auto colon = value.find(':', prefix.size());
      const auto source = value.rfind(prefix, 0) == 0 && colon != std::string::npos
                              ? parse_throughput_source(value.substr(prefix.size(), colon - prefix.size()))
                              : std::nullopt;
      if (!source || colon + 1 >= value.size())
        throw UsageError(
            "trace setting 'work' expects 'recorded' or 'throughput:SOURCE:PATH' with SOURCE gavel, "
            "pollux or sia, got '" +
            value + "'");
      request.throughput_source = source;
      request.throughput_path = value.substr(colon + 1);
    } else if (key == "job_type") {
      if (value.empty()) throw UsageError("trace setting 'job_type' must not be empty");
      request.job_type = value;
      request.job_type_given = true;
    } else if (key == "checkpoint_interval") {
      const auto interval = parse_quantity(value, Quantity::kTime);
      if (!interval || !(*interval > 0))
        throw UsageError("trace setting 'checkpoint_interval' expects a time > 0 such as 30min or 1800, got '" + value +
                         "'");
      request.checkpoint_interval = *interval;
    } else if (key == "checkpoint_at_preemption") {
      request.checkpoint_at_preemption = boolean_setting(key, value);
    } else if (key == "mixed_gpu_types") {
      request.mixed_gpu_types = boolean_setting(key, value);
    } else if (key == "duration") {
      if (value != "recorded" && value != "scaled")
        throw UsageError(
            "trace setting 'duration' expects 'scaled' (run times rescaled by FLOP/s on other GPU types, "
            "the default) or 'recorded' (the recorded run time on any type), got '" +
            value + "'");
      request.keep_recorded_durations = value == "recorded";
    } else if (key == "strict") {
      options.strict = boolean_setting(key, value);
    } else {
      throw UsageError("unknown trace setting '" + key +
                       "' (expected gpu_type, procs_per_gpu, map, time_unit, delimiter, cpu_unit, memory_unit, "
                       "gpu_memory_unit, censored, spot_values, guaranteed_values, priority_levels, epoch, strict, "
                       "from, until, queue, min_gpus, max_gpus, sample, seed, load_scale, work, job_type, "
                       "checkpoint_interval, checkpoint_at_preemption, mixed_gpu_types or duration)");
    }
  }
  if (request.job_type_given && !request.throughput_source)
    throw UsageError("trace setting 'job_type' applies with work=throughput:SOURCE:PATH only");
  // After time_unit, whatever the order given.
  if (epoch) {
    if (const auto calendar = parse_calendar_time(*epoch))
      options.time_origin = *calendar;
    else if (const auto number = parse_trace_number(*epoch))
      options.time_origin = *number * options.time_unit_s;
    else
      throw UsageError("trace setting 'epoch' expects YYYY-MM-DD HH:MM:SS or a number, got '" + *epoch + "'");
  }
  return request;
}

namespace {

// A window end: a calendar time (made relative to the trace's origin) or a
// time after the origin ("36h", "2d", seconds).
double window_end(const std::string& key, const std::string& text, const TraceReadResult& trace) {
  if (const auto calendar = parse_calendar_time(text)) {
    if (!trace.calendar_clock)
      throw UsageError("trace setting '" + key + "' is a calendar time, but this " + trace.format +
                       " trace's times are not calendar times; give seconds after its start instead");
    return *calendar - trace.time_origin;
  }
  if (const auto seconds = parse_quantity(text, Quantity::kTime)) return *seconds;
  throw UsageError("trace setting '" + key + "' expects a time such as 36h, 2d or 3600, or YYYY-MM-DD HH:MM:SS, got '" +
                   text + "'");
}

}  // namespace

TraceReadResult read_trace_request(TraceFormat format, const std::string& path, const TraceRequest& request,
                                   const ClusterLayout* cluster) {
  TraceReadResult trace;
  try {
    trace = read_trace(format, path, request.read);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  TraceSelection selection = request.selection;
  if (request.from) selection.from = window_end("from", *request.from, trace);
  if (request.until) selection.until = window_end("until", *request.until, trace);
  if (!selection.empty()) {
    try {
      apply_trace_selection(trace, selection);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("trace selection: ") + e.what());
    }
  }
  if (request.throughput_source) {
    if (!cluster)
      throw UsageError("work=throughput needs the cluster the jobs will run on (--cluster), to size their FLOPs");
    const ThroughputTable table = read_throughput_table(*request.throughput_source, request.throughput_path);
    try {
      apply_throughput_work(trace, table, parse_job_type_rule(request.job_type, request.selection.seed), *cluster);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("work from a throughput table: ") + e.what());
    }
  }
  if (request.checkpoint_interval)
    for (JobSpec& job : trace.jobs) job.checkpoint.interval = *request.checkpoint_interval;
  if (request.checkpoint_at_preemption)
    for (JobSpec& job : trace.jobs) job.checkpoint.at_preemption = true;
  if (request.mixed_gpu_types)
    for (JobSpec& job : trace.jobs) job.mixed_gpu_types = true;
  if (request.keep_recorded_durations)
    for (JobSpec& job : trace.jobs)
      if (auto* measured = std::get_if<MeasuredWork>(&job.work)) measured->rescale = false;
  return trace;
}

namespace {

// A file given as a native workload that is not one: say what it looks like
// and how to give it.
void check_native_workload_file(const std::string& path) {
  const auto guessed = guess_trace_format(path);
  if (guessed && *guessed != TraceFormat::kNative) {
    const std::string name = trace_format_name(*guessed);
    throw InputError(path, "", "",
                     "not a gcsim workload (JSON): it looks like " + trace_format_title(*guessed) + "; give it as " +
                         name + ":" + path +
                         (*guessed == TraceFormat::kCsv
                              ? " with --trace-opt map=submit=COL,gpus=COL,duration=COL (docs/trace-replay.md)"
                              : ""));
  }
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError(path, "", "", "a folder, not a workload file");
}

// A trace's run times measured on a GPU type the cluster lacks: say which
// setting names or maps the type, before the generic check of the workload
// against the cluster.
void check_measured_types(const TraceReadResult& trace, const std::string& path, const TraceReadOptions& options,
                          const ClusterLayout& cluster) {
  for (const JobSpec& job : trace.jobs) {
    const auto* measured = std::get_if<MeasuredWork>(&job.work);
    if (!measured || cluster.find_gpu_type(measured->gpu_type) >= 0) continue;
    std::string types;
    for (const GpuType& type : cluster.spec().gpu_types) types += (types.empty() ? "" : ", ") + type.name;
    const std::string lacks = ", a type cluster '" + cluster.spec().name + "' lacks (it has " + types + ")";
    if (measured->gpu_type == options.gpu_type && trace.format != "pai")
      throw InputError(path, "job '" + job.id + "'", "gpu_type",
                       "the trace names no GPU type, so its run times are taken as measured on gpu_type " +
                           options.gpu_type + lacks +
                           "; name the type they were measured on with --trace-opt gpu_type=TYPE");
    throw InputError(path, "job '" + job.id + "'", "gpu_type",
                     "the trace says its run time was measured on " + measured->gpu_type + lacks +
                         "; map that model to one of them with --trace-opt gpu_type=" + measured->gpu_type + "=TYPE");
  }
}

}  // namespace

std::vector<JobSpec> read_workload_argument(const std::string& argument, const std::vector<std::string>& trace_settings,
                                            std::ostream& notes, const ClusterLayout* cluster,
                                            TraceReadResult* trace_read) {
  const WorkloadSource source = parse_workload_source(argument);
  if (!source.unknown_format.empty())
    throw UsageError("unknown trace format '" + source.unknown_format + "' in --workload '" + argument +
                     "' (known: " + trace_format_list() + "; a path without FORMAT: is a native workload)");
  if (!source.format || *source.format == TraceFormat::kNative) {
    check_native_workload_file(source.path);
    if (!trace_settings.empty())
      throw UsageError(
          "option '--trace-opt' applies to a trace workload FORMAT:FILE (FORMAT one of philly, swf, "
          "helios, pai, csv)");
    return read_native_workload(source.path);
  }
  std::vector<std::pair<std::string, std::string>> settings;
  for (const std::string& text : trace_settings) settings.push_back(split_setting(text, "trace-opt"));
  const TraceRequest request = trace_request(settings);
  TraceReadResult trace = read_trace_request(*source.format, source.path, request, cluster);
  std::size_t malformed = 0;
  for (const SkippedRow& row : trace.skipped) malformed += row.malformed ? 1 : 0;
  notes << "gcsim: " << trace.format << " trace " << source.path << ": "
        << trace.jobs_before_selection.value_or(trace.jobs.size()) << " jobs from " << trace.rows << " rows; "
        << trace.skipped.size() << " rows skipped (" << malformed << " malformed), 'gcsim trace stats' lists them";
  if (trace.censored_at_start + trace.censored_at_end > 0)
    notes << "; censored: " << trace.censored_at_start << " submitted before the trace's window, "
          << trace.censored_at_end << " running at its end (--trace-opt censored=drop skips them)";
  notes << "\n";
  for (const std::string& step : trace.selection) notes << "gcsim: selected " << step << "\n";
  notes << "gcsim: work: " << trace.work_source << "\n";
  if (request.checkpoint_interval)
    notes << "gcsim: checkpoints: every job checkpoints every " << *request.checkpoint_interval
          << " s of work; preempted, it resumes from its last checkpoint\n";
  if (request.checkpoint_at_preemption)
    notes << "gcsim: checkpoints: every job saves its work when preempted and resumes from it\n";
  if (request.mixed_gpu_types)
    notes << "gcsim: GPU types: every job may run on GPUs of several types at once, at its slowest GPU's speed\n";
  if (request.keep_recorded_durations)
    notes << "gcsim: durations: every job runs its recorded time on whatever GPU type it gets\n";
  if (trace.jobs.empty()) throw InputError(source.path, "", "", "no replayable job in the trace (after selection)");
  if (cluster) check_measured_types(trace, source.path, request.read, *cluster);
  std::vector<JobSpec> jobs = std::move(trace.jobs);  // not a copy: a replayed trace's jobs are held once
  if (trace_read) *trace_read = std::move(trace);
  return jobs;
}

}  // namespace gcsim
