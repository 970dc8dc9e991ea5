// trace_read.hpp: what every cluster-trace reader returns, and its options.
//
// A trace reader turns a real cluster log (Philly, SWF, Helios, Alibaba PAI,
// or any CSV with a column mapping) into gcsim jobs: each replayable row
// becomes a JobSpec whose work is the run time recorded in the trace on the
// GPU count recorded in the trace (MeasuredWork). Rows that cannot be
// replayed are never dropped silently: each is listed in `skipped` with its
// file, line and reason, and `gcsim trace stats` counts them per reason.
// The CSV readers read RFC 4180 records (sim/io/csv_records.hpp): a quoted
// field may hold the delimiter, quotes and line breaks, and a row is named by
// the line it begins on. A file that is not UTF-8 text (UTF-16, Latin-1,
// compressed) is refused, naming what it is and the command that converts it
// (sim/io/text_lines.hpp).
//
// Two kinds of skipped rows:
//   - malformed: the row contradicts the format (a malformed number, a
//     negative run time or submit time, an end before the start, a start
//     before the submission, zero GPUs where the format only holds GPU jobs,
//     a machine the trace does not list, a calendar time in a column of
//     numbers or the reverse). In strict mode the first one throws
//     InputError(file, "line N", field, reason).
//   - not replayable: the row is well-formed but is not a GPU job gcsim can
//     replay (a CPU-only job, a job that never started, a run time of 0 s).
//     Reported in every mode, never fatal.
//
// Censored jobs are neither: the trace saw them only in part, since they were
// submitted before its window began (no submit time) or still running when it
// ended (no end time). By default they are kept, completed from the window
// (finish_trace) and counted apart (censored_at_start, censored_at_end);
// with keep_censored false they are skipped as not replayable ("censored at
// start", "censored at end").
//
// Jobs come out sorted by submit time (ties in file order), with submit
// times relative to `time_origin`. A job asking for more GPUs than a given
// cluster has is kept as it is: validate_workload_against_cluster
// (workload_validation.hpp) reports it, and `gcsim trace stats --cluster`
// counts it; no reader shrinks a job.
//
//   TraceReadOptions options;
//   options.gpu_type = "V100";
//   TraceReadResult trace = read_philly_trace("philly_jobs_pollux.csv", options);
//   for (const SkippedRow& row : trace.skipped) std::cerr << row.line << ": " << row.reason << "\n";
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "traces/gpu_models.hpp"

namespace gcsim {

/// A trace row that did not become a job, and why.
struct SkippedRow {
  std::string file;       // the file the row is in (a PAI trace spans several)
  std::size_t line = 0;   // 1-based line number in that file
  std::string field;      // the column at fault; empty when the row as a whole is
  std::string reason;     // fixed text, the same for every row skipped for that reason
  std::string detail;     // the offending value, e.g. "got -5"
  bool malformed = true;  // false: well-formed but not replayable (see above)
};

struct TraceReadOptions {
  /// Fail with InputError on the first malformed row instead of skipping it.
  bool strict = false;
  /// The GPU type run times are taken to be measured on when the trace does
  /// not say (every format but PAI); it must be one of the cluster's types.
  std::string gpu_type = "V100";
  /// The trace-clock time (seconds) that becomes simulation time 0, and the
  /// start of the trace's window. Unset: the earliest submission (or start,
  /// for a job submitted before the window) for traces with absolute times
  /// (Philly, Helios, PAI, CSV), and the log's own zero (UnixStartTime) for
  /// SWF, whose times are already relative. Jobs submitted before it are skipped (not
  /// replayable). Calendar times ("2017-10-09 07:01:55") count as seconds
  /// since 1970-01-01 00:00:00 of the trace's own wall clock, zone ignored.
  std::optional<double> time_origin;
  /// SWF: processors per GPU; a job of P processors asks for ceil(P / ratio) GPUs.
  double procs_per_gpu = 1;
  /// CSV: job property -> column name (see csv_trace.hpp for the properties).
  std::map<std::string, std::string> columns;
  /// CSV: seconds per unit of numeric times and durations (1 = seconds).
  double time_unit_s = 1;
  /// CSV: the field separator.
  char delimiter = ',';
  /// CSV: the unit of plain numbers in the cpu, memory and gpu_memory columns
  /// (`--trace-opt cpu_unit=`, `memory_unit=`, `gpu_memory_unit=`; a unit
  /// after the column in the mapping, "memory=mem:GiB", wins). CPU counts
  /// cores unless told otherwise; a plain memory number with no unit is an
  /// error, since traces count memory in bytes, MiB and GiB alike.
  double cpu_unit_cores = 1;
  std::optional<double> memory_unit_bytes, gpu_memory_unit_bytes;
  /// Censored jobs, which the trace saw only in part (submitted before its
  /// window began, or still running when it ended): kept and completed from
  /// the window (finish_trace), or skipped as not replayable.
  bool keep_censored = true;
  /// CSV qos column: the values (lower case; fields compare ignoring case)
  /// that make a spot job, and those that make a guaranteed one; unset: the
  /// defaults (csv_trace.hpp). A value in both lists makes a spot job.
  std::optional<std::vector<std::string>> spot_values, guaranteed_values;
  /// CSV priority column: named levels (lower case) and their priorities.
  std::map<std::string, std::int64_t> priority_levels;
  /// GPU models renamed to gcsim GPU types (`--gpu-type MODEL=NAME[:FLOPS]`,
  /// gpu_models.hpp): a job measured on MODEL is measured on NAME, and PAI's
  /// machine spec becomes a cluster with these figures.
  GpuModelMap gpu_models;
};

struct TraceReadResult {
  std::string format;  // "philly", "swf", "helios", "pai", "csv", "native"
  /// Sorted by submit time, ties in file order; submit relative to time_origin.
  std::vector<JobSpec> jobs;
  /// Parallel to `jobs`: the job's final status as the trace writes it
  /// ("COMPLETED", "Terminated", "completed" for SWF status 1, ...); empty
  /// strings when the format records none.
  std::vector<std::string> job_status;
  /// Parallel to `jobs`: the job's type (its model, e.g. "ResNet-50"), from
  /// a trace column that records one (CSV `job_type`), or set by
  /// apply_throughput_work (throughput_work.hpp); empty when unknown.
  std::vector<std::string> job_types;
  std::vector<SkippedRow> skipped;
  /// Data rows read (headers, comments and blank lines not counted).
  std::size_t rows = 0;
  /// Jobs kept that the trace saw only in part (finish_trace): submitted
  /// before its window began, and still running when it ended (a job can
  /// be both).
  std::size_t censored_at_start = 0, censored_at_end = 0;
  /// Where each job's work comes from, e.g. "recorded run time on the recorded GPU count".
  std::string work_source;
  /// What the trace lacks and what gcsim assumed instead, one sentence each,
  /// with counts where they depend on the rows (e.g. GPU requests rounded up).
  std::vector<std::string> assumptions;
  /// Adds the assumption "COUNT WHAT" (WHAT starting with a space, as in
  /// " jobs ask ...") when COUNT is not 0.
  void assume_for(std::size_t count, const std::string& what) {
    if (count > 0) assumptions.push_back(std::to_string(count) + what);
  }
  /// The trace-clock time of simulation time 0, and whether the trace clock
  /// is calendar time (seconds since 1970-01-01 of its wall clock) rather
  /// than seconds from the log's own start.
  double time_origin = 0;
  bool calendar_clock = false;
  /// GPUs of the traced machine where the trace says (SWF MaxProcs over
  /// procs_per_gpu, PAI machine spec); the default capacity for offered load.
  std::optional<std::uint64_t> machine_gpus;
  /// What apply_trace_selection (trace_selection.hpp) did, one line per step.
  std::vector<std::string> selection;
  /// Jobs read, before apply_trace_selection removed any.
  std::optional<std::size_t> jobs_before_selection;
  /// Parallel to `jobs`: how long the job waited on the traced cluster, from
  /// its submission to its first start, where the trace records when it was
  /// scheduled (PendingTraceJob::recorded_start); NaN when it does not. Kept
  /// for scoring a replay against the recorded schedule (replay_score.hpp);
  /// never read by the simulation. A wait, not a start: it holds through the
  /// selection's shifts and load_scale.
  std::vector<double> recorded_waits;
};

/// Records the rows a reader skips; in strict mode a malformed row throws.
class SkipLog {
 public:
  SkipLog(std::vector<SkippedRow>& out, bool strict) : out_(out), strict_(strict) {}

  /// The row contradicts the format. Strict mode: throws
  /// InputError(file, "line N", field, reason + " (" + detail + ")").
  void malformed(const std::string& file, std::size_t line, const std::string& field, const std::string& reason,
                 const std::string& detail = "");
  /// The row is well-formed but not a GPU job gcsim can replay; never fatal.
  void not_replayable(const std::string& file, std::size_t line, const std::string& field, const std::string& reason,
                      const std::string& detail = "");

 private:
  std::vector<SkippedRow>& out_;
  bool strict_;
};

/// A job as a reader built it, before the common finishing step: `spec.submit`
/// still in the trace's clock.
struct PendingTraceJob {
  JobSpec spec;
  std::string status;
  std::string job_type;
  std::string file;
  std::size_t line = 0;
  /// The trace's fields its submit time, run time and run-time estimate come
  /// from, named in errors.
  std::string submit_field = "submit", run_time_field = "run time", estimate_field = "estimate";
  /// The start of its (last) run and the latest end it records, trace
  /// clock, where the trace records them: they bound the trace's window,
  /// and complete a censored job.
  std::optional<double> start, end;
  /// What the trace did not see of the job (censored), which finish_trace
  /// completes from the trace's window or, with keep_censored false, skips:
  ///   submit_unknown: no submit time, since it was submitted (and maybe ran)
  ///     before the window began; `spec.submit` is ignored;
  ///   end_unknown: no end time, since it was still running when the window
  ///     ended; `start` is set.
  /// For such a job `spec.work` (MeasuredWork) holds the run time seen
  /// outside its last run (0 but for a job of several runs), and
  /// finish_trace adds the part of the last run inside the window.
  bool submit_unknown = false, end_unknown = false;
  std::string end_field = "end";
  /// When the traced cluster first started the job (trace clock), where the
  /// trace records it: finish_trace keeps start - submit in
  /// TraceReadResult::recorded_waits. Unset for a job submitted before the
  /// window (its submission is unknown).
  std::optional<double> recorded_start;
};

/// The step every reader ends with: picks the time origin (options.time_origin,
/// else `default_origin`, else the earliest submission, or start of a job
/// without one), completes the censored jobs from the trace's window (from
/// the origin to the latest time the jobs record; see PendingTraceJob): a job
/// submitted before the window is submitted at its start and runs the part
/// of its last run inside it, one running at its end runs up to that end;
/// skips jobs submitted before the origin, makes submit times relative to
/// it, checks them and the run times and estimates against the horizon
/// (work_horizon.hpp: a job beyond it is malformed), renames GPU types
/// mapped in options.gpu_models, and sorts the jobs by submit time, those
/// submitted before the window first, then ties in the order given.
void finish_trace(std::vector<PendingTraceJob> pending, const TraceReadOptions& options,
                  std::optional<double> default_origin, SkipLog& log, TraceReadResult& result);

/// Keeps the jobs (and their statuses and types) for which `keep(index)` is true.
template <typename Predicate>
void keep_trace_jobs_if(TraceReadResult& result, Predicate keep) {
  std::vector<JobSpec> jobs;
  std::vector<std::string> status, types;
  std::vector<double> waits;
  const bool typed = result.job_types.size() == result.jobs.size();
  const bool waited = result.recorded_waits.size() == result.jobs.size();
  for (std::size_t i = 0; i < result.jobs.size(); ++i) {
    if (!keep(i)) continue;
    jobs.push_back(std::move(result.jobs[i]));
    status.push_back(std::move(result.job_status[i]));
    if (typed) types.push_back(std::move(result.job_types[i]));
    if (waited) waits.push_back(result.recorded_waits[i]);
  }
  result.jobs = std::move(jobs);
  result.job_status = std::move(status);
  result.job_types = std::move(types);
  result.recorded_waits = std::move(waits);
}

}  // namespace gcsim
