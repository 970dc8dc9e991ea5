// job_type_metrics.hpp: a run's figures per kind of job, so that a mixed
// workload's training JCT is not averaged with its notebooks' sessions.
//
// A job's type is its kind of work: "training", "measured" (a run time
// measured on a GPU type), "dag", "notebook", "serving" (a deployment's
// replica, whose figures are its deployment's latency instead: RunRecord::
// serving) or "cpu" (a CPU-only job). Per type but serving: its jobs, how many
// finished and failed, and the JCT and queueing delay over its finished jobs
// (as summary.json's figures for the whole run). jobs.csv names each job's
// type, and `gcsim compare` tabulates these per policy from it.
//
//   for (const JobTypeFigures& t : job_type_figures(jobs, record)) ... t.type, t.jct.mean ...
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/core/statistics.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

/// "training", "measured", "dag", "notebook", "serving" or "cpu".
std::string_view job_type(const JobSpec& job);

struct JobTypeFigures {
  std::string type;
  std::size_t jobs = 0, finished = 0, failed = 0;
  Distribution jct, wait;  // over its finished jobs
};

/// The types present, in the order above.
std::vector<JobTypeFigures> job_type_figures(const std::vector<JobSpec>& jobs, const RunRecord& record);

/// The same from jobs.csv's columns: each job's type, state, JCT and wait
/// (ignored unless finished), as `gcsim compare` reads them back.
struct TypedJob {
  std::string_view type, state;
  Time jct, wait;
};
std::vector<JobTypeFigures> job_type_figures(const std::vector<TypedJob>& jobs);

}  // namespace gcsim
