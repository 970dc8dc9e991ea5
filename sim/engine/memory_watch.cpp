#include "sim/engine/memory_watch.hpp"

#include <algorithm>

namespace gcsim {

MemoryWatch::MemoryWatch(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, bool isolation)
    : jobs_(jobs), layout_(layout), isolation_(isolation) {
  const bool any = std::any_of(jobs.begin(), jobs.end(), [this](const JobSpec& job) {
    return !job.gpu_memory_use().empty() || (!isolation_ && job.gpu_memory_bytes > 0);
  });
  if (!any) return;  // nothing to watch: every call is a no-op
  run_.assign(jobs.size(), 0);
  start_.assign(jobs.size(), 0);
  use_.assign(jobs.size(), 0);
  on_.resize(jobs.size());
  if (!isolation_) gpu_used_.assign(layout.gpu_count(), 0);
}

bool MemoryWatch::watched(JobIndex job) const {
  if (run_.empty()) return false;
  const JobSpec& spec = jobs_[job];
  return !spec.gpu_memory_use().empty() || (!isolation_ && spec.gpu_memory_bytes > 0);
}

// A profile that does not start at 0 uses the job's ask until its first point.
std::size_t MemoryWatch::points(JobIndex job) const {
  const std::vector<MemoryUse>& uses = jobs_[job].gpu_memory_use();
  return uses.empty() ? 1 : uses.size() + (uses.front().at > 0 ? 1 : 0);
}

double MemoryWatch::use_at_point(JobIndex job, std::size_t k) const {
  const std::vector<MemoryUse>& uses = jobs_[job].gpu_memory_use();
  const std::size_t lead = uses.empty() || uses.front().at > 0 ? 1 : 0;
  return k < lead ? jobs_[job].gpu_memory_bytes : uses[k - lead].bytes;
}

Time MemoryWatch::point_time(JobIndex job, std::size_t k) const {
  const std::vector<MemoryUse>& uses = jobs_[job].gpu_memory_use();
  const std::size_t lead = uses.empty() || uses.front().at > 0 ? 1 : 0;
  return k < lead ? 0 : uses[k - lead].at;
}

void MemoryWatch::started(JobIndex job, const std::vector<GpuId>& gpus, Time now) {
  if (!watched(job)) return;
  ++run_[job];
  start_[job] = now;
  on_[job] = gpus;
  use_[job] = 0;
  changes_.push({now, job, run_[job], 0});
}

void MemoryWatch::ended(JobIndex job) {
  if (!watched(job) || on_[job].empty()) return;
  set_use(job, 0);
  on_[job].clear();
  ++run_[job];  // its pending changes are stale
}

Time MemoryWatch::next_change() {
  while (!changes_.empty() && changes_.top().run != run_[changes_.top().job]) changes_.pop();
  return changes_.empty() ? kNever : changes_.top().at;
}

bool MemoryWatch::fits(JobIndex job, double bytes) const {
  for (GpuId g : on_[job]) {
    const double memory = layout_.gpu_type_of(g).memory_bytes;
    if (isolation_) {
      const double limit = jobs_[job].gpu_memory_bytes > 0 ? jobs_[job].gpu_memory_bytes : memory;
      if (bytes > limit) return false;
    } else if (gpu_used_[g] - use_[job] + bytes > memory) {
      return false;
    }
  }
  return true;
}

void MemoryWatch::set_use(JobIndex job, double bytes) {
  if (!isolation_)
    for (GpuId g : on_[job]) gpu_used_[g] += bytes - use_[job];
  use_[job] = bytes;
}

std::vector<JobIndex> MemoryWatch::out_of_memory(Time now) {
  std::vector<JobIndex> failed;
  while (next_change() <= now && !changes_.empty()) {
    const Change change = changes_.top();
    changes_.pop();
    const JobIndex job = change.job;
    const double bytes = use_at_point(job, change.point);
    if (!fits(job, bytes)) {
      failed.push_back(job);
      ended(job);
      continue;
    }
    set_use(job, bytes);
    if (change.point + 1 < points(job))
      changes_.push({start_[job] + point_time(job, change.point + 1), job, change.run,
                     static_cast<std::uint32_t>(change.point + 1)});
  }
  return failed;
}

}  // namespace gcsim
