#include "sim/report/job_type_metrics.hpp"

#include <variant>

namespace gcsim {
namespace {

constexpr std::string_view kTypes[] = {"training", "measured", "dag", "notebook"};

}  // namespace

std::string_view job_type(const JobSpec& job) {
  if (std::holds_alternative<TrainingWork>(job.work)) return kTypes[0];
  if (std::holds_alternative<MeasuredWork>(job.work)) return kTypes[1];
  if (std::holds_alternative<DagWork>(job.work)) return kTypes[2];
  return kTypes[3];
}

std::vector<JobTypeFigures> job_type_figures(const std::vector<TypedJob>& jobs) {
  std::vector<JobTypeFigures> figures;
  for (const std::string_view type : kTypes) {
    JobTypeFigures f;
    f.type = type;
    std::vector<double> jct, wait;
    for (const TypedJob& job : jobs) {
      if (job.type != type) continue;
      ++f.jobs;
      if (job.state == "failed") ++f.failed;
      if (job.state != "finished") continue;
      ++f.finished;
      jct.push_back(job.jct);
      wait.push_back(job.wait);
    }
    if (f.jobs == 0) continue;
    f.jct = summarize(std::move(jct));
    f.wait = summarize(std::move(wait));
    figures.push_back(std::move(f));
  }
  return figures;
}

std::vector<JobTypeFigures> job_type_figures(const std::vector<JobSpec>& jobs, const RunRecord& record) {
  std::vector<TypedJob> typed;
  typed.reserve(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const JobOutcome& o = record.outcomes[i];
    const Time from = o.queued_from(jobs[i].submit);
    typed.push_back({job_type(jobs[i]), to_string(o.state), o.end - from, o.start - from});
  }
  return job_type_figures(typed);
}

}  // namespace gcsim
