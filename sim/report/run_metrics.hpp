// run_metrics.hpp: the figures researchers compare policies on.
//
// JCT = end - submit and queueing delay = start - submit, over finished jobs.
// Percentiles follow sim/core/statistics.hpp (linear interpolation, numpy's
// default), so p50 of {1, 2, 3, 4} is 2.5. Makespan runs from the first submission to
// the last completion; utilization is time-weighted over that same window:
// allocated share = GPU-seconds held by jobs / (GPUs * makespan), busy share =
// GPU-seconds spent computing / (GPUs * makespan).
// Preemptions: the GPU time of jobs' runs is lost (the part of preempted runs
// since their last checkpoint, thrown away) or useful (the rest: finished
// runs, what checkpoints kept, runs cut by the end of the simulation);
// lost share = lost / (lost + useful), over the whole run: the share of the
// GPU time jobs ran that was thrown away. summary.json's lost_share, the
// printed summary, the notice on lost work and `gcsim compare` all give
// this one figure.
//
// A run cut short (--until, a signal, a deadlock, a livelock, thrashing)
// leaves jobs submitted and not ended; the figures above leave them out.
// Censored figures count them too, at the stop time T: JCT = T - submit and
// queueing delay = (first start, or T if none) - submit, beside the finished
// jobs' own. Jobs not submitted by T are left out of both.
//
//   RunMetrics m = compute_run_metrics(jobs, record);
//   std::cout << m.jct.p95;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "sim/core/statistics.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

/// The lost share (RunMetrics::lost_share) beyond which `gcsim run` says that
/// preemptions threw much work away (lost_work_notice in run_outputs.hpp).
inline constexpr double kLostWorkNoticeShare = 0.1;

struct RunMetrics {
  std::size_t jobs = 0, finished = 0, failed = 0, unfinished = 0;
  std::size_t preemptions = 0;
  std::uint64_t restarts_from_zero = 0;  // preemptions that left the job none of its work
  double gpu_hours_lost = 0, gpu_hours_useful = 0;
  double lost_share = 0;  // lost / (lost + useful); 0 when no job ran
  Time first_submit = 0, last_end = 0, makespan = 0;
  Distribution jct, wait;
  /// Jobs submitted and not ended when the run stopped, and the JCT and
  /// queueing-delay figures of the finished jobs with those jobs counted at
  /// the stop (censored). With no such job they equal jct and wait.
  std::size_t censored = 0;
  Distribution jct_censored, wait_censored;
  double allocated_share = 0, busy_share = 0;
  double gpu_hours_allocated = 0, gpu_hours_busy = 0;
};

RunMetrics compute_run_metrics(const std::vector<JobSpec>& jobs, const RunRecord& record);

}  // namespace gcsim
