#include "traces/trace_read.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/input_error.hpp"
#include "traces/trace_text.hpp"
#include "sim/io/work_horizon.hpp"

namespace gcsim {

void SkipLog::malformed(const std::string& file, std::size_t line, const std::string& field, const std::string& reason,
                        const std::string& detail) {
  if (strict_)
    throw InputError(file, "line " + std::to_string(line), field,
                     detail.empty() ? reason : reason + " (" + detail + ")");
  out_.push_back({file, line, field, reason, detail, true});
}

void SkipLog::not_replayable(const std::string& file, std::size_t line, const std::string& field,
                             const std::string& reason, const std::string& detail) {
  out_.push_back({file, line, field, reason, detail, false});
}

namespace {

// The trace's window: from the time origin to the latest time its jobs record.
struct TraceWindow {
  double start = 0, end = 0;
};

// The earliest time the jobs record: a submission, or the start of a job without one.
double earliest_time(const std::vector<PendingTraceJob>& pending) {
  double earliest = std::numeric_limits<double>::infinity();
  for (const PendingTraceJob& job : pending) {
    if (!job.submit_unknown)
      earliest = std::min(earliest, job.spec.submit);
    else if (job.start)
      earliest = std::min(earliest, *job.start);
  }
  return earliest == std::numeric_limits<double>::infinity() ? 0 : earliest;
}

double latest_time(const std::vector<PendingTraceJob>& pending, double origin) {
  double latest = origin;
  for (const PendingTraceJob& job : pending) {
    if (!job.submit_unknown) latest = std::max(latest, job.spec.submit);
    latest = std::max({latest, job.start.value_or(latest), job.end.value_or(latest)});
  }
  return latest;
}

// Completes a censored job from the window, or skips it (false): submitted
// before the window, it is submitted at its start and its last run counts
// from there (or from its recorded start, if later); running at its end, its
// last run lasts up to there.
bool complete_censored(PendingTraceJob& job, const TraceWindow& window, const TraceReadOptions& options, SkipLog& log) {
  if (!options.keep_censored) {
    if (job.submit_unknown)
      log.not_replayable(job.file, job.line, job.submit_field, "censored at start",
                         "no submit time: submitted before the trace's window began");
    else
      log.not_replayable(job.file, job.line, job.end_field, "censored at end",
                         "no end time: still running when the trace's window ended");
    return false;
  }
  const double to = job.end_unknown ? window.end : job.end.value_or(window.end);
  double from = job.start.value_or(window.start);
  if (job.submit_unknown) {
    if (to < window.start) {
      log.not_replayable(job.file, job.line, job.end_field, "ended before the time origin",
                         describe_number(window.start - to) + " s before");
      return false;
    }
    from = std::max(from, window.start);
    job.spec.submit = window.start;
  }
  auto* measured = std::get_if<MeasuredWork>(&job.spec.work);
  if (measured) measured->seconds += to - from;
  if (!measured || !(measured->seconds > 0)) {
    log.not_replayable(job.file, job.line, job.run_time_field, "ran for 0 s (gcsim replays positive run times)");
    return false;
  }
  return true;
}

}  // namespace

void finish_trace(std::vector<PendingTraceJob> pending, const TraceReadOptions& options,
                  std::optional<double> default_origin, SkipLog& log, TraceReadResult& result) {
  double origin = 0;
  if (options.time_origin)
    origin = *options.time_origin;
  else if (default_origin)
    origin = *default_origin;
  else
    origin = earliest_time(pending);
  result.time_origin = origin;
  const TraceWindow window{origin, latest_time(pending, origin)};

  std::vector<PendingTraceJob> kept;
  kept.reserve(pending.size());
  for (PendingTraceJob& job : pending) {
    if ((job.submit_unknown || job.end_unknown) && !complete_censored(job, window, options, log)) continue;
    if (job.spec.submit < origin) {
      log.not_replayable(job.file, job.line, "submit", "submitted before the time origin",
                         describe_number(origin - job.spec.submit) + " s before");
      continue;
    }
    job.spec.submit -= origin;
    if (const auto problem = beyond_horizon(job.spec.submit, HorizonQuantity::kTime)) {
      log.malformed(job.file, job.line, job.submit_field, "submitted beyond the horizon",
                    *problem + " after the time origin");
      continue;
    }
    if (auto* measured = std::get_if<MeasuredWork>(&job.spec.work)) {
      if (const auto problem = beyond_horizon(measured->seconds, HorizonQuantity::kTime)) {
        log.malformed(job.file, job.line, job.run_time_field, "run time beyond the horizon", *problem);
        continue;
      }
      measured->gpu_type = gpu_type_name(measured->gpu_type, options.gpu_models);
    }
    // The GPU types a job may run on are models of the trace too: renamed
    // alike, and models that become one type are listed once.
    if (!options.gpu_models.empty() && !job.spec.gpu_types.empty()) {
      std::vector<std::string> types;
      for (const std::string& model : job.spec.gpu_types) {
        std::string type = gpu_type_name(model, options.gpu_models);
        if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(std::move(type));
      }
      job.spec.gpu_types = std::move(types);
    }
    if (const auto* cpu = std::get_if<CpuWork>(&job.spec.work)) {
      if (const auto problem = beyond_horizon(cpu->seconds, HorizonQuantity::kTime)) {
        log.malformed(job.file, job.line, job.run_time_field, "run time beyond the horizon", *problem);
        continue;
      }
    }
    if (const auto problem = beyond_horizon(job.spec.runtime_estimate, HorizonQuantity::kTime)) {
      log.malformed(job.file, job.line, job.estimate_field, "run-time estimate beyond the horizon", *problem);
      continue;
    }
    result.censored_at_start += job.submit_unknown ? 1 : 0;
    result.censored_at_end += job.end_unknown ? 1 : 0;
    kept.push_back(std::move(job));
  }
  // A job submitted before the window comes before those submitted at its start.
  std::stable_sort(kept.begin(), kept.end(), [](const PendingTraceJob& a, const PendingTraceJob& b) {
    return a.spec.submit < b.spec.submit || (a.spec.submit == b.spec.submit && a.submit_unknown && !b.submit_unknown);
  });
  result.jobs.clear();
  result.job_status.clear();
  result.job_types.clear();
  result.recorded_waits.clear();
  result.jobs.reserve(kept.size());
  result.job_status.reserve(kept.size());
  result.job_types.reserve(kept.size());
  // Each job's recorded wait, kept only where some job records its start,
  // so that a trace without any costs nothing.
  auto records_start = [](const PendingTraceJob& job) { return job.recorded_start && !job.submit_unknown; };
  const bool any_start = std::any_of(kept.begin(), kept.end(), records_start);
  if (any_start) result.recorded_waits.reserve(kept.size());
  for (PendingTraceJob& job : kept) {
    if (any_start)
      result.recorded_waits.push_back(records_start(job) ? *job.recorded_start - (job.spec.submit + result.time_origin)
                                                         : std::numeric_limits<double>::quiet_NaN());
    result.jobs.push_back(std::move(job.spec));
    result.job_status.push_back(std::move(job.status));
    result.job_types.push_back(std::move(job.job_type));
  }
  // Skipped rows in file order, whatever order the reader found them in.
  std::stable_sort(result.skipped.begin(), result.skipped.end(), [](const SkippedRow& a, const SkippedRow& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
}

}  // namespace gcsim
