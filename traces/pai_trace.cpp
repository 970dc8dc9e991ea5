#include "traces/pai_trace.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "sim/core/input_error.hpp"
#include "traces/machine_cluster.hpp"
#include "traces/trace_row.hpp"
#include "traces/trace_text.hpp"

namespace gcsim {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTaskColumns = {"job_name", "task_name", "inst_num", "status",   "start_time",
                                               "end_time", "plan_cpu",  "plan_mem", "plan_gpu", "gpu_type"};
const std::vector<std::string> kJobColumns = {"job_name", "inst_id", "user", "status", "start_time", "end_time"};
const std::vector<std::string> kInstanceColumns = {"job_name", "task_name",  "inst_name", "worker_name", "inst_id",
                                                   "status",   "start_time", "end_time",  "machine"};
const std::vector<std::string> kMachineColumns = {"machine", "gpu_type", "cap_cpu", "cap_mem", "cap_gpu"};

constexpr double kGiB = 1073741824.0;

// The columns of a headerless table: from `<table>.header` beside it (the
// file's own name with .header for .csv, else the table's name), else the
// documented order.
CsvHeader table_header(const std::string& csv_path, const std::string& table,
                       const std::vector<std::string>& fallback) {
  const fs::path csv(csv_path);
  std::vector<fs::path> candidates = {fs::path(csv).replace_extension(".header"),
                                      csv.parent_path() / (table + ".header")};
  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (!fs::is_regular_file(candidate, error)) continue;
    std::ifstream in(candidate);
    CsvRecords records(in, candidate.string());
    CsvRecord names;
    if (!records.next(names) || names.line != 1)
      throw InputError(candidate.string(), "line 1", "", "empty header file: expected the column names");
    CsvHeader header(names.fields, candidate.string(), 1);
    for (const std::string& name : fallback) header.require(name);
    return header;
  }
  return CsvHeader(fallback, csv_path, 0);
}

bool non_negative(double value) { return value >= 0; }

// A time in seconds, nothing for an empty field (never started, not ended).
std::optional<double> optional_time(TraceRow& row, const TraceColumn& column) {
  if (row.empty(column)) return std::nullopt;
  const double seconds = row.number_if(column, non_negative, "not a time in seconds");
  return row ? std::optional<double>(seconds) : std::nullopt;
}

// Reads every data row of a headerless table, trimmed, handing those whose
// field count matches the header to `read`.
template <typename RowReader>
std::size_t for_each_row(const std::string& path, const CsvHeader& header, SkipLog& log, RowReader read) {
  std::ifstream in = open_trace_file(path);
  CsvRecords records(in, path);
  std::size_t rows = 0;
  for (CsvRecord record; records.next(record);) {
    ++rows;
    TraceRow row(log, path, record.line, std::move(record.fields), header.size(), TraceRow::Spaces::kTrimmed);
    if (row) read(row);
  }
  return rows;
}

struct PaiJob {
  std::size_t first_line = 0;
  std::size_t bad_line = 0;  // a malformed task row of this job, 0 if none
  bool unstarted = false, unfinished = false;
  double start = INFINITY, end = -INFINITY;
  double whole_gpus = 0;                         // of instances asking 100 or more
  double fractional_workers = 0;                 // instances asking below 100: a share of one GPU each
  double gpu_instances = 0;                      // pods holding GPUs: one holding several cannot span nodes
  double largest_share = 0, smallest_share = 1;  // among those instances
  bool rounded_above_one = false;                // an instance asks more than one GPU, not a whole number of them
  double cpu_percent = 0, memory_gib = 0;
  std::string gpu_type;
  double gpu_type_gpus = 0;  // GPUs of the task gpu_type was taken from
  bool mixed_types = false;
  std::vector<std::string> task_status;

  /// One per whole GPU and one per fractional instance.
  double workers() const { return whole_gpus + fractional_workers; }
};

struct PaiJobRow {
  std::size_t line = 0;
  std::string user, status;
  std::optional<double> submit;
};

std::string job_status(const PaiJob& job, const PaiJobRow* row) {
  if (row && !row->status.empty()) return row->status;
  for (const std::string& status : job.task_status)
    if (status != "Terminated") return status;
  return job.task_status.empty() ? std::string() : job.task_status.front();
}

}  // namespace

PaiMachineSpec read_pai_machine_spec(const std::string& path, bool strict) {
  PaiMachineSpec spec;
  spec.file = path;
  SkipLog log(spec.skipped, strict);
  const CsvHeader header = table_header(path, "pai_machine_spec", kMachineColumns);
  const TraceColumn machine_id = header.column("machine"), gpu_type = header.column("gpu_type"),
                    cap_cpu = header.column("cap_cpu"), cap_mem = header.column("cap_mem"),
                    cap_gpu = header.column("cap_gpu");
  const auto is_capacity = [](double value) { return value >= 0 && value == std::floor(value) && value <= 1e6; };
  std::map<std::string, std::size_t> line_of;
  spec.rows = for_each_row(path, header, log, [&](TraceRow& row) {
    PaiMachine machine;
    machine.line = row.line();
    machine.id = row.text(machine_id);
    machine.gpu_type = row.text(gpu_type);
    row.malformed_if(machine.id.empty(), machine_id, "empty machine name");
    const double cpus = row.number_if(cap_cpu, is_capacity, "not a core count");
    const double memory = row.number_if(cap_mem, non_negative, "not a memory size in GB");
    const double gpus = row.number_if(cap_gpu, is_capacity, "not a GPU count");
    machine.cpu_cores = static_cast<std::uint32_t>(cpus);
    machine.memory_gb = memory;
    machine.gpus = static_cast<std::uint32_t>(gpus);
    row.first_of(line_of, machine.id, machine_id.name, "machine listed twice", "'" + machine.id + "'");
    if (row) spec.machines.push_back(std::move(machine));
  });
  return spec;
}

PaiCluster pai_cluster_json(const PaiMachineSpec& spec, const std::string& name, const GpuModelMap& models) {
  std::vector<TracedMachine> machines;
  machines.reserve(spec.machines.size());
  for (const PaiMachine& machine : spec.machines)
    machines.push_back({machine.gpu_type, machine.gpus, machine.cpu_cores, machine.memory_gb * kGiB, machine.line});
  MachineCluster cluster = machine_cluster_json(machines, name, spec.file, "gpu_type", models);
  cluster.assumptions.push_back("cap_mem is read as GiB");
  return {std::move(cluster.cluster), std::move(cluster.assumptions)};
}

PaiInstanceCheck check_pai_instance_table(const std::string& path, const PaiMachineSpec* machines, bool strict) {
  PaiInstanceCheck check;
  SkipLog log(check.skipped, strict);
  const CsvHeader header = table_header(path, "pai_instance_table", kInstanceColumns);
  const TraceColumn status = header.column("status"), start_time = header.column("start_time"),
                    end_time = header.column("end_time"), machine = header.column("machine");
  std::set<std::string> known;
  if (machines)
    for (const PaiMachine& listed : machines->machines) known.insert(listed.id);
  check.rows = for_each_row(path, header, log, [&](TraceRow& row) {
    const std::optional<double> start = optional_time(row, start_time), end = optional_time(row, end_time);
    row.malformed_if(start && end && *end < *start, end_time, "end before start",
                     "ends " + describe_number(start.value_or(0) - end.value_or(0)) + " s before it starts");
    row.malformed_if(machines && !row.empty(machine) && !known.count(row.text(machine)), machine,
                     "machine not listed in pai_machine_spec", "'" + row.text(machine) + "'");
    if (row) ++check.status_counts[row.text(status)];
  });
  return check;
}

TraceReadResult read_pai_trace(const std::string& path, const TraceReadOptions& options) {
  std::error_code error;
  const bool directory = fs::is_directory(path, error);
  const fs::path dir = directory ? fs::path(path) : fs::path(path).parent_path();
  const std::string task_path = directory ? (dir / "pai_task_table.csv").string() : path;
  const auto beside = [&](const std::string& name) -> std::optional<std::string> {
    const fs::path candidate = dir / name;
    std::error_code e;
    if (fs::is_regular_file(candidate, e)) return candidate.string();
    return std::nullopt;
  };
  if (!fs::is_regular_file(task_path, error))
    throw InputError(task_path, "", "", "the PAI task table is missing (read_pai_trace needs pai_task_table.csv)");

  TraceReadResult result;
  result.format = "pai";
  result.work_source =
      "recorded run time (first task start to last task end) on the GPUs the tasks asked for "
      "(inst_num x plan_gpu: whole GPUs, or a share of one GPU per instance below 100), measured on the tasks' "
      "gpu_type";
  SkipLog log(result.skipped, options.strict);

  std::optional<PaiMachineSpec> spec;
  std::set<std::string> spec_types;
  if (const auto spec_path = beside("pai_machine_spec.csv")) {
    spec = read_pai_machine_spec(*spec_path, options.strict);
    result.skipped.insert(result.skipped.end(), spec->skipped.begin(), spec->skipped.end());
    std::uint64_t gpus = 0;
    for (const PaiMachine& machine : spec->machines) {
      gpus += machine.gpus;
      if (machine.gpus > 0) spec_types.insert(machine.gpu_type);
    }
    result.machine_gpus = gpus;
  }
  if (const auto instance_path = beside("pai_instance_table.csv")) {
    const PaiInstanceCheck check = check_pai_instance_table(*instance_path, spec ? &*spec : nullptr, options.strict);
    result.skipped.insert(result.skipped.end(), check.skipped.begin(), check.skipped.end());
  }

  std::map<std::string, PaiJobRow> job_rows;
  bool have_job_table = false;
  if (const auto job_path = beside("pai_job_table.csv")) {
    have_job_table = true;
    const CsvHeader header = table_header(*job_path, "pai_job_table", kJobColumns);
    const TraceColumn job_name = header.column("job_name"), user = header.column("user"),
                      status = header.column("status"), start_time = header.column("start_time");
    for_each_row(*job_path, header, log, [&](TraceRow& row) {
      const std::string& name = row.text(job_name);
      row.malformed_if(name.empty(), job_name, "empty job name");
      PaiJobRow job_row;
      job_row.line = row.line();
      job_row.user = row.text(user);
      job_row.status = row.text(status);
      job_row.submit = optional_time(row, start_time);
      if (!row) return;
      if (const auto [it, inserted] = job_rows.emplace(name, job_row); !inserted)
        row.malformed(job_name.name, "job listed twice",
                      "'" + name + "' is also on line " + std::to_string(it->second.line));
    });
  }

  const CsvHeader header = table_header(task_path, "pai_task_table", kTaskColumns);
  const TraceColumn job_name = header.column("job_name"), inst_num = header.column("inst_num"),
                    status = header.column("status"), start_time = header.column("start_time"),
                    end_time = header.column("end_time"), gpu_type = header.column("gpu_type");
  // Empty plan_* fields are requests of nothing (CPU tasks have no plan_gpu).
  const TraceColumn plan_columns[3] = {header.column("plan_cpu"), header.column("plan_mem"), header.column("plan_gpu")};
  const auto is_instance_count = [](double value) { return value >= 1 && value == std::floor(value) && value <= 1e6; };
  std::vector<std::string> order;
  std::map<std::string, PaiJob> jobs;
  result.rows = for_each_row(task_path, header, log, [&](TraceRow& row) {
    const std::size_t line = row.line();
    const std::string& name = row.text(job_name);
    if (!row.malformed_if(name.empty(), job_name, "empty job name")) return;
    auto [it, inserted] = jobs.try_emplace(name);
    PaiJob& job = it->second;
    if (inserted) {
      job.first_line = line;
      order.push_back(name);
    }
    const double inst = row.number_if(inst_num, is_instance_count, "not an instance count (an integer >= 1)");
    double plan[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k)
      if (!row.empty(plan_columns[k]))
        plan[k] = row.number_if(plan_columns[k], non_negative, "not a non-negative number");
    const std::optional<double> start = optional_time(row, start_time), end = optional_time(row, end_time);
    row.malformed_if(start && end && *end < *start, end_time, "end before start",
                     "ends " + describe_number(start.value_or(0) - end.value_or(0)) + " s before it starts");
    const std::string& type = row.text(gpu_type);
    row.malformed_if(plan[2] > 0 && !type.empty() && spec && !spec_types.count(type), gpu_type,
                     "GPU type not among pai_machine_spec's machines", "'" + type + "'");
    const bool fractional = plan[2] > 0 && plan[2] < 100;
    row.malformed_if(fractional && plan[2] / 100 < kSmallestGpuShare, plan_columns[2],
                     "a share below a millionth of a GPU", row.got(plan_columns[2]));
    if (!row) {
      if (job.bad_line == 0) job.bad_line = line;
      return;
    }

    // An instance below 100 is a worker on a share of one GPU; above, whole GPUs (rounded up).
    const double per_instance = fractional ? 1 : std::ceil(plan[2] / 100);
    if (!fractional && per_instance * 100 != plan[2]) job.rounded_above_one = true;
    if (fractional) {
      job.fractional_workers += inst;
      job.largest_share = std::max(job.largest_share, plan[2] / 100);
      job.smallest_share = std::min(job.smallest_share, plan[2] / 100);
    } else {
      job.whole_gpus += inst * per_instance;
    }
    const double task_gpus = inst * per_instance;
    if (plan[2] > 0) job.gpu_instances += inst;
    job.cpu_percent += inst * plan[0];
    job.memory_gib += inst * plan[1];
    if (task_gpus > 0 && !type.empty()) {
      if (!job.gpu_type.empty() && type != job.gpu_type) job.mixed_types = true;
      if (task_gpus > job.gpu_type_gpus) {
        job.gpu_type = type;
        job.gpu_type_gpus = task_gpus;
      }
    }
    if (!start)
      job.unstarted = true;
    else
      job.start = std::min(job.start, *start);
    if (!end)
      job.unfinished = true;
    else
      job.end = std::max(job.end, *end);
    job.task_status.push_back(row.text(status));
  });

  std::size_t sharing = 0, shares_differ = 0, mixed_whole = 0, above_one = 0;
  std::size_t mixed = 0, default_type = 0, no_job_row = 0, submit_clamped = 0;
  std::vector<PendingTraceJob> pending;
  for (const std::string& name : order) {
    const PaiJob& job = jobs.at(name);
    const auto row_it = job_rows.find(name);
    const PaiJobRow* row = row_it == job_rows.end() ? nullptr : &row_it->second;
    const std::string status = job_status(job, row);
    if (job.bad_line != 0) {
      log.not_replayable(task_path, job.first_line, "", "a task row of this job is malformed",
                         "line " + std::to_string(job.bad_line));
      continue;
    }
    if (job.workers() == 0) {
      log.not_replayable(task_path, job.first_line, "plan_gpu", "CPU-only job (no task asks for a GPU)", status);
      continue;
    }
    if (job.unstarted) {
      log.not_replayable(task_path, job.first_line, "start_time", "never started (a task has no start_time)", status);
      continue;
    }

    if (job.workers() > 4294967295.0) {
      log.malformed(task_path, job.first_line, "inst_num", "too many GPUs", describe_number(job.workers()));
      continue;
    }
    if (!job.unfinished && job.end == job.start) {
      log.not_replayable(task_path, job.first_line, "end_time", "ran for 0 s (gcsim replays positive run times)",
                         status);
      continue;
    }
    PendingTraceJob pending_job;
    pending_job.file = task_path;
    pending_job.line = job.first_line;
    pending_job.submit_field = "start_time";
    pending_job.run_time_field = "end_time";
    // A task without an end was still running when the log was cut (censored:
    // finish_trace ends the job with the log).
    pending_job.start = job.start;
    if (std::isfinite(job.end)) pending_job.end = job.end;  // a finished task's end bounds the log too
    pending_job.end_unknown = job.unfinished;
    pending_job.end_field = "end_time";
    pending_job.status = status;
    JobSpec& spec_out = pending_job.spec;
    spec_out.id = name;
    spec_out.user = row && !row->user.empty() ? row->user : "unknown";
    spec_out.queue = "unknown";
    spec_out.submit = job.start;
    if (row && row->submit) {
      if (*row->submit <= job.start) {
        spec_out.submit = *row->submit;
        // The job table's submission and its first task's start: how long it waited.
        pending_job.recorded_start = job.start;
      } else
        ++submit_clamped;
    } else if (have_job_table) {
      ++no_job_row;
    }
    spec_out.gpus = static_cast<std::uint32_t>(job.workers());
    // One instance is one pod: all its GPUs on one node.
    spec_out.single_node = job.gpu_instances == 1 && spec_out.gpus > 1;
    spec_out.cpu_cores = static_cast<std::uint32_t>(std::min(std::ceil(job.cpu_percent / 100), 4294967295.0));
    spec_out.memory_bytes = job.memory_gib * kGiB;
    std::string type = job.gpu_type;
    if (type.empty()) {
      type = options.gpu_type;
      ++default_type;
    }
    spec_out.work = MeasuredWork{job.unfinished ? 0 : job.end - job.start, type};
    // Workers of one job share one gpu_share: all fractional, they take the
    // largest of their shares; beside whole-GPU instances, whole GPUs.
    if (job.fractional_workers > 0 && job.whole_gpus == 0) {
      spec_out.gpu_share = job.largest_share;
      ++sharing;
      if (job.smallest_share < job.largest_share) ++shares_differ;
    } else if (job.fractional_workers > 0) {
      ++mixed_whole;
    }
    if (job.rounded_above_one) ++above_one;
    if (job.mixed_types) ++mixed;
    pending.push_back(std::move(pending_job));
  }

  result.assumptions.push_back(
      std::to_string(sharing) +
      " jobs ask a fraction of a GPU per instance (plan_gpu below 100): each instance is a worker holding that share "
      "of one GPU (gpu_share), beside other fractional jobs, and computing at that share; their recorded run time was "
      "taken at it" +
      (shares_differ > 0 ? "; " + std::to_string(shares_differ) + " of them mix shares and take their largest" : ""));
  result.assume_for(mixed_whole,
                    " jobs mix fractional and whole-GPU instances: their fractional instances get whole "
                    "GPUs");
  result.assume_for(above_one,
                    " jobs have instances asking more than one GPU but not a whole number (plan_gpu 150): "
                    "rounded up to whole GPUs");
  result.assumptions.push_back("the trace has no queues: every job is in queue 'unknown'");
  if (!have_job_table)
    result.assumptions.push_back(
        "no pai_job_table: submit times are the first task's start, so PAI's queueing delay is lost, and users are "
        "'unknown'");
  result.assume_for(no_job_row,
                    " jobs have no pai_job_table row: submitted at their first task's start, user 'unknown'");
  result.assume_for(submit_clamped,
                    " jobs' pai_job_table start_time is after their first task's start: submitted at "
                    "the first task's start");
  result.assume_for(default_type, " jobs' tasks name no GPU type: taken as " + options.gpu_type);
  result.assume_for(mixed, " jobs' tasks use several GPU types: the type of the task with the most GPUs is used");
  if (!spec)
    result.assumptions.push_back("no pai_machine_spec: GPU types are not checked against the cluster's machines");
  finish_trace(std::move(pending), options, std::nullopt, log, result);
  return result;
}

}  // namespace gcsim
