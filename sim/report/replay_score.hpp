// replay_score.hpp: how far a replayed trace's schedule lies from the one the
// traced cluster recorded.
//
// A trace that records when each job was scheduled (a start beside its
// submission: TraceReadResult::recorded_waits) is a schedule to score a
// replay against. Per job the recorded wait (first start - submit on the
// traced cluster) is set beside the simulated one; a job scores when both
// are known. Scored: the mean and median waits, simulated and recorded, and
// their relative errors; the 50th, 90th and 99th percentiles of the per-job
// absolute wait error |simulated - recorded|; the share of jobs within 60 s
// of their recorded wait; the Kolmogorov-Smirnov distance between the two
// wait distributions (sim/core/sample_comparison.hpp). The same per queue
// and per user, for the `top` groups of most scored jobs (ties by name).
// Allocated GPUs over time: the simulated run's timeline beside the GPUs
// the recorded schedule held (each job from its recorded start for its
// recorded run time), a step series over both (a row where either changes),
// and the time-weighted mean of each over the span from the first change of
// either to the last.
//
//   std::vector<ReplayJob> jobs = ...;  // one per job replayed
//   const ReplayScore score = score_replay(jobs, record.timeline, 10);
//   score.all.ks;  // 0.04
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

/// One replayed job: what the trace recorded and what the replay did.
struct ReplayJob {
  std::string id, user, queue;
  double gpus = 0;  // GPUs it holds while it runs (a share of one counts its share)
  Time submit = 0;
  double recorded_wait = 0;       // NaN: the trace does not record when it started
  Time recorded_run = 0;          // its recorded run time, for the recorded GPUs over time
  Time simulated_start = kNever;  // kNever: the replay never started it
};

/// Scored waits of a set of jobs, seconds.
struct WaitScore {
  std::size_t jobs = 0;  // scored: both waits known
  double mean_simulated = 0, mean_recorded = 0;
  double median_simulated = 0, median_recorded = 0;
  std::optional<double> mean_relative_error, median_relative_error;  // none when the recorded figure is 0
  double abs_error_p50 = 0, abs_error_p90 = 0, abs_error_p99 = 0;
  double within_60s = 0;  // share of jobs with |simulated - recorded| <= 60 s
  double ks = 0;          // Kolmogorov-Smirnov distance of the two wait distributions
};

struct GroupWaitScore {
  std::string name;
  WaitScore score;
};

/// Allocated GPUs from `time` until the next step.
struct GpuStep {
  Time time = 0;
  double simulated = 0, recorded = 0;
};

struct ReplayScore {
  std::size_t jobs = 0;                    // replayed
  std::size_t without_recorded_start = 0;  // left out: the trace records no start
  std::size_t not_started = 0;             // left out: the replay never started them
  WaitScore all;
  std::vector<GroupWaitScore> queues, users;  // the `top` of most scored jobs
  std::vector<GpuStep> gpus;
  double mean_gpus_simulated = 0, mean_gpus_recorded = 0;
};

/// Scores the waits of `jobs`, per queue and user (the `top` largest
/// groups), and the GPUs held over time (`timeline`: the simulated run's).
ReplayScore score_replay(const std::vector<ReplayJob>& jobs, const std::vector<TimelinePoint>& timeline,
                         std::size_t top);

/// The scored waits of paired simulated and recorded waits (the same length).
WaitScore score_waits(const std::vector<double>& simulated, const std::vector<double>& recorded);

}  // namespace gcsim
