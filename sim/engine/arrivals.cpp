#include "sim/engine/arrivals.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {

Arrivals::Arrivals(const std::vector<JobSpec>& jobs) : jobs_(jobs) {
  order_.reserve(jobs.size());
  for (JobIndex j = 0; j < jobs.size(); ++j) {
    // A deployment's later replicas join the queue only when its controller says.
    if (const ServingWork* replica = replica_of(jobs[j].work); replica && replica->slot > 0) continue;
    if (jobs[j].after().empty()) {
      order_.push_back(j);
      continue;
    }
    if (dependants_.empty()) {
      dependants_.resize(jobs.size());
      unmet_.resize(jobs.size(), 0);
    }
    unmet_[j] = static_cast<std::uint32_t>(jobs[j].after().size());
    for (JobIndex first : jobs[j].after()) dependants_[first].push_back(j);
  }
  std::stable_sort(order_.begin(), order_.end(),
                   [&](JobIndex a, JobIndex b) { return jobs[a].submit < jobs[b].submit; });
}

std::vector<Submission> Arrivals::release(JobIndex job, Time now) {
  std::vector<Submission> due;
  if (dependants_.empty()) return due;
  for (JobIndex next : dependants_[job]) {
    if (--unmet_[next] > 0) continue;
    const Time at = std::max(jobs_[next].submit, now + jobs_[next].after_delay());
    if (at <= now) {
      due.push_back({next, at});
    } else {
      releases_.push({at, next});
    }
  }
  return due;
}

}  // namespace gcsim
