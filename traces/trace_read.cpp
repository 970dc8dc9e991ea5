#include "traces/trace_read.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/input_error.hpp"
#include "traces/trace_text.hpp"
#include "workloads/work_horizon.hpp"

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

void finish_trace(std::vector<PendingTraceJob> pending, const TraceReadOptions& options,
                  std::optional<double> default_origin, SkipLog& log, TraceReadResult& result) {
  double origin = 0;
  if (options.time_origin) {
    origin = *options.time_origin;
  } else if (default_origin) {
    origin = *default_origin;
  } else if (!pending.empty()) {
    origin = std::numeric_limits<double>::infinity();
    for (const PendingTraceJob& job : pending) origin = std::min(origin, job.spec.submit);
  }
  result.time_origin = origin;

  std::vector<PendingTraceJob> kept;
  kept.reserve(pending.size());
  for (PendingTraceJob& job : pending) {
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
    kept.push_back(std::move(job));
  }
  std::stable_sort(kept.begin(), kept.end(),
                   [](const PendingTraceJob& a, const PendingTraceJob& b) { return a.spec.submit < b.spec.submit; });
  result.jobs.clear();
  result.job_status.clear();
  result.job_types.clear();
  result.jobs.reserve(kept.size());
  result.job_status.reserve(kept.size());
  result.job_types.reserve(kept.size());
  for (PendingTraceJob& job : kept) {
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
