// arrivals.hpp: when each job joins the queue: at its submit time, or, for
// a job that waits for others (JobSpec::after), once they have all ended.
//
// Jobs that wait for none arrive in order of submit time, then workload
// order. A job waiting for others is released when the last of them ends:
// submitted then, or, when its delay (after_delay) has not passed or its own
// submit time not come, held until the later of the two (releases come in
// order of that time, then job). A serving deployment's later replicas are
// no arrivals: its controller submits them. Every job waiting, directly or
// not, for a job that failed fails with it. No simulator here: the engine
// asks, and submits.
//
//   Arrivals arrivals(jobs);
//   while (std::optional<Submission> next = arrivals.next_due(now)) submit(next->job, next->at);
//   for (const Submission& s : arrivals.release(ended_job, now)) submit(s.job, s.at);
//   arrivals.fail_dependants(failed_job, is_pending, fail);
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// A job to submit, and its submission time.
struct Submission {
  JobIndex job = 0;
  Time at = 0;
  bool operator==(const Submission& other) const { return job == other.job && at == other.at; }
};

class Arrivals {
 public:
  explicit Arrivals(const std::vector<JobSpec>& jobs);

  /// The next job due by `now`: arrivals first (at their submit time), then
  /// releases held until now. None when nothing is due.
  std::optional<Submission> next_due(Time now) {
    if (next_arrival_ < order_.size() && jobs_[order_[next_arrival_]].submit <= now) {
      const JobIndex job = order_[next_arrival_++];
      return Submission{job, jobs_[job].submit};
    }
    if (releases_.empty() || releases_.top().first > now) return std::nullopt;
    const auto [at, job] = releases_.top();
    releases_.pop();
    return Submission{job, at};
  }
  /// `job` ended at `now`: the jobs that waited for it and for nothing else
  /// are released. Returns those due now, in workload order; the others are
  /// held until their time.
  std::vector<Submission> release(JobIndex job, Time now);
  /// When the next arrival or held release is due (kNever: none).
  Time next_time() const {
    const Time next = next_arrival_ < order_.size() ? jobs_[order_[next_arrival_]].submit : kNever;
    return releases_.empty() ? next : std::min(next, releases_.top().first);
  }
  /// Whether arrivals or held releases are still to come.
  bool pending() const { return next_arrival_ < order_.size() || !releases_.empty(); }

  /// Every job waiting, directly or not, for `failed` that `pending(job)`
  /// says was never submitted fails with it: `fail(job, cause)` for each,
  /// `cause` the job it waited for, each dependant before the next is looked
  /// at (depth first from the last failed).
  template <class Pending, class Fail>
  void fail_dependants(JobIndex failed, Pending pending, Fail fail) const {
    if (dependants_.empty()) return;
    std::vector<JobIndex> to_visit{failed};
    while (!to_visit.empty()) {
      const JobIndex job = to_visit.back();
      to_visit.pop_back();
      for (JobIndex next : dependants_[job]) {
        if (!pending(next)) continue;
        fail(next, job);
        to_visit.push_back(next);
      }
    }
  }

 private:
  const std::vector<JobSpec>& jobs_;
  std::vector<JobIndex> order_;  // the jobs that depend on none, by submit time
  std::size_t next_arrival_ = 0;
  // Per job, those waiting for it, and how many of its own it still waits
  // for (both empty when no job depends on any); those released, by when
  // they join the queue (then job).
  std::vector<std::vector<JobIndex>> dependants_;
  std::vector<std::uint32_t> unmet_;
  std::priority_queue<std::pair<Time, JobIndex>, std::vector<std::pair<Time, JobIndex>>, std::greater<>> releases_;
};

}  // namespace gcsim
