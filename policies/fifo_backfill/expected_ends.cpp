#include "policies/fifo_backfill/expected_ends.hpp"

#include <limits>

namespace gcsim {

void ExpectedEnds::list(const Run& run, JobIndex job) {
  if (run.end <= now_)
    overdue_.emplace(run.started, job);
  else
    later_.emplace(run.end, run.started, job);
}

void ExpectedEnds::update(const QueueView& jobs, Time now, const Estimate& estimate) {
  if (run_of_.size() != jobs.job_count()) run_of_.resize(jobs.job_count());
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const JobIndex job = log[runs_read_].job;
    Run& run = run_of_[job];
    if (log[runs_read_].started) {
      // The job's last start: a run that has ended since has its end entry
      // further on, which takes it out again.
      const Time est = estimate(job);
      if (est == kNever) continue;
      run = {jobs.runtime(job).start + est, runs_read_};
      list(run, job);
    } else if (run.started != kNotListed) {
      if (later_.erase({run.end, run.started, job}) == 0) overdue_.erase(run.started);
      run = {};
    }
  }
  if (now >= now_) {
    // Time moves on: the runs whose end it passes are overdue from now on.
    while (!later_.empty() && std::get<0>(*later_.begin()) <= now) {
      const auto [end, started, job] = *later_.begin();
      overdue_.emplace(started, job);
      later_.erase(later_.begin());
    }
  } else {
    // Called for an earlier time: the overdue runs ending after it are not.
    for (auto it = overdue_.begin(); it != overdue_.end();) {
      const Run& run = run_of_[it->second];
      if (run.end > now) {
        later_.emplace(run.end, run.started, it->second);
        it = overdue_.erase(it);
      } else {
        ++it;
      }
    }
  }
  now_ = now;
}

void ExpectedEnds::visit(const std::function<bool(const ExpectedEnd&)>& visit) const {
  for (const auto& [started, job] : overdue_)
    if (!visit({now_, job})) return;
  for (const auto& [end, started, job] : later_)
    if (!visit({end, job})) return;
}

Time ExpectedEnds::first_after(Time after) const {
  if (after < now_ && !overdue_.empty()) return now_;
  const auto first = later_.upper_bound({after, std::numeric_limits<std::size_t>::max(), kNoJob});
  return first == later_.end() ? kNever : std::get<0>(*first);
}

}  // namespace gcsim
