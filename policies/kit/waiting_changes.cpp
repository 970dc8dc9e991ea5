#include "policies/kit/waiting_changes.hpp"

namespace gcsim {

void WaitingChanges::mark(JobIndex job, bool waiting, Delta& delta) {
  if (static_cast<bool>(waiting_[job]) == waiting) return;
  waiting_[job] = waiting;
  if (waiting) {
    ++waiting_count_;
    delta.joined.push_back(job);
  } else {
    --waiting_count_;
    delta.left.push_back(job);
  }
}

WaitingChanges::Delta WaitingChanges::since_last_call(const QueueView& jobs) {
  Delta delta;
  if (waiting_.size() != jobs.job_count()) waiting_.resize(jobs.job_count(), 0);
  for (JobIndex job : touched_) mark(job, jobs.runtime(job).state == JobState::kWaiting, delta);
  touched_.clear();
  // Arrivals: at the end of the queue, after every job that waited before.
  const std::vector<JobIndex>& queue = jobs.waiting();
  for (auto it = queue.rbegin(); it != queue.rend() && !waiting_[*it]; ++it) mark(*it, true, delta);
  if (waiting_count_ != queue.size() || jobs.withdrawals() != withdrawals_) resynchronise(jobs, delta);
  withdrawals_ = jobs.withdrawals();
  return delta;
}

// The queue changed in a way the fast path does not see: compare every job.
void WaitingChanges::resynchronise(const QueueView& jobs, Delta& delta) {
  for (JobIndex job : delta.joined) waiting_[job] = 0;  // back to the previous call's view
  for (JobIndex job : delta.left) waiting_[job] = 1;
  waiting_count_ = waiting_count_ - delta.joined.size() + delta.left.size();
  delta = {};
  std::vector<char> now(jobs.job_count(), 0);
  for (JobIndex job : jobs.waiting()) now[job] = 1;
  for (JobIndex job = 0; job < now.size(); ++job) mark(job, now[job], delta);
}

}  // namespace gcsim
