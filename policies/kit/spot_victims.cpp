#include "policies/kit/spot_victims.hpp"

#include <algorithm>
#include <memory>
#include <cstdint>

namespace gcsim {

bool holds_spot_jobs(const QueueView& jobs) {
  for (JobIndex job = 0; job < jobs.job_count(); ++job)
    if (is_spot(jobs.spec(job))) return true;
  return false;
}

bool preempted_before(const QueueView& jobs, JobIndex victim, JobIndex other) {
  const std::int64_t priority = jobs.spec(victim).priority, other_priority = jobs.spec(other).priority;
  if (priority != other_priority) return priority < other_priority;
  const Time start = jobs.runtime(victim).start, other_start = jobs.runtime(other).start;
  if (start != other_start) return start > other_start;
  return victim > other;
}

void SpotVictims::list() {
  order_.emplace();
  taken_.assign(jobs_.job_count(), false);
  for (JobIndex job : jobs_.running()) {
    const JobSpec& spec = jobs_.spec(job);
    if (is_spot(spec) && spec.gpu_share >= 1 && !(spared_ && spared_(job))) order_->push_back(job);
  }
  std::sort(order_->begin(), order_->end(), [&](JobIndex a, JobIndex b) { return preempted_before(jobs_, a, b); });
}

NextCandidate SpotVictims::walk() {
  if (!order_) list();
  auto at = std::make_shared<std::size_t>(0);
  return [this, at]() -> std::optional<JobIndex> {
    for (; *at < order_->size(); ++*at) {
      const JobIndex job = (*order_)[*at];
      if (!taken_[job]) {
        ++*at;
        return job;
      }
    }
    return std::nullopt;
  };
}

void SpotVictims::taken(JobIndex job) {
  if (!order_) list();
  taken_[job] = true;
}

void SpotVictims::returned(JobIndex job) {
  if (order_) taken_[job] = false;
}

}  // namespace gcsim
