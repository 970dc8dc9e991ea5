// preemption_monitor.hpp: when preemption rounds run, and which selected
// jobs have waited long enough to be preempted.
//
// Source: ProportionalCapacityPreemptionPolicy.editSchedule and its
// preemptionCandidates map (Hadoop 3). Rounds run every
// monitoring_interval, at simulated times k x monitoring_interval. A job
// selected in a round is first only marked (YARN asks the application to give
// the container back); if a later round selects it again at least
// max_wait_before_kill after it was first marked, it is preempted then. A mark
// not renewed for more than 2 x max_wait_before_kill is forgotten, as YARN
// forgets stale candidates; a job that stops running loses its mark.
//
//   PreemptionMonitor monitor(config.preemption);
//   if (monitor.is_round(now)) for (JobIndex j : monitor.record_round(selected, now)) plan.preempt(j);
//   plan.wake_at(monitor.next_round_after(now));
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "policies/capacity/capacity_config.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

class PreemptionMonitor {
 public:
  explicit PreemptionMonitor(const PreemptionConfig& config);

  bool enabled() const { return enabled_; }
  /// `now` is a round time (k x monitoring_interval) whose round has not run yet.
  bool is_round(Time now) const;
  /// The first round time after `now`.
  Time next_round_after(Time now) const;

  /// Runs the round at `now` with the jobs it selected: marks the new ones,
  /// returns those marked at least max_wait_before_kill ago (to preempt now,
  /// in selection order) and forgets stale marks.
  std::vector<JobIndex> record_round(const std::vector<JobIndex>& selected, Time now);
  /// Drops the marks of jobs that no longer run.
  void forget_stopped(const QueueView& jobs);
  /// Drops the mark of a job preempted otherwise (a spot job preempted for a
  /// guaranteed one): if it runs again, that run starts unmarked.
  void forget(JobIndex job) { marked_.erase(job); }

  bool has_marks() const { return !marked_.empty(); }
  /// When `job` was first marked, if it is marked.
  std::optional<Time> marked_at(JobIndex job) const;

 private:
  bool enabled_;
  Time interval_;  // seconds
  Time max_wait_;  // seconds
  Time last_round_ = -kNever;
  std::map<JobIndex, Time> marked_;
};

}  // namespace gcsim
