// trace_fit.hpp: fitting a synthetic workload generator (fitted_generator.hpp)
// to the jobs of a real trace (`gcsim trace fit`).
//
// What is fitted, from the jobs that record a run time (MeasuredWork):
//   - mean inter-arrival: (last submission - first) / (jobs - 1);
//   - daily cycle: for each hour of the day h, the jobs submitted in it over
//     the seconds of the submission span that fall in it (so a span that
//     covers some hours once more than others is not biased), relative to
//     the mean of the 24 rates; an hour the span never covers (a trace
//     shorter than a day) gets the mean rate;
//   - GPU counts: the share of jobs of each count, exactly;
//   - run times per GPU count: an empirical quantile table at the levels of
//     TraceFitOptions (by default every 0.5% and, since the mean run time
//     hangs on the longest jobs, 99.75%, 99.9%, 99.95%, 99.99%; linear
//     interpolation between order statistics), or the sorted run times
//     themselves at levels k / (n - 1) when there are no more of them.
//     A lognormal is not used: trace run times mix jobs that fail within a
//     minute with runs of weeks. Fitted to Philly's 76,627 1-GPU jobs (mean
//     and deviation of log run time), a lognormal gives a 25th percentile of
//     219 s (recorded: 122 s), a median of 828 s (1,117 s) and a 99th
//     percentile of 81,286 s (135,386 s); the table reproduces every
//     percentile to within the interpolation between two neighbouring levels;
//   - users and queues: the share of jobs of each (user, queue) pair, so a
//     user who submits to one queue keeps doing so.
// Not fitted: day-of-week and longer trends (only the mean rate and the daily
// cycle), correlations between a job's GPU count and its user or queue, and
// between consecutive jobs; job statuses.
//
// Time of day: for traces with calendar times (Philly, Helios, PAI, CSV with
// dates) the trace's own wall clock, `clock_origin_s` being the trace time of
// simulation time 0 (TraceReadResult::time_origin); for the others (SWF, and
// traces with numeric times) counted from time 0 of the trace.
//
//   TraceFit fit = fit_workload_model(trace.jobs, {trace.time_origin, trace.calendar_clock}, {});
//   std::vector<JobSpec> synthetic = generate_fitted_workload(fit.model, trace.jobs.size(), 0);
#pragma once

#include <string>
#include <vector>

#include "sim/core/job_spec.hpp"
#include "workloads/fitted_generator.hpp"

namespace gcsim {

/// Where a trace's times sit on the clock: trace time of simulation time 0
/// (seconds; with `wall_clock`, since 1970-01-01 00:00:00 of the trace's wall
/// clock, so that its remainder modulo 86400 is the time of day).
struct TraceClock {
  double origin_s = 0;
  bool wall_clock = false;
};

/// 0, 0.005, ..., 0.995, 0.9975, 0.999, 0.9995, 0.9999, 1.
std::vector<double> default_quantile_levels();

struct TraceFitOptions {
  /// Levels of each GPU count's run-time table: from 0 to 1, increasing.
  std::vector<double> quantile_levels = default_quantile_levels();
  std::string source_file;    // recorded in the model, informative
  std::string source_format;  // likewise
};

struct TraceFit {
  FittedWorkloadModel model;
  /// What was left out or assumed, one sentence each.
  std::vector<std::string> notes;
};

/// Throws std::invalid_argument when fewer than two jobs record a run time or
/// they were all submitted at the same instant (no arrival rate to fit).
TraceFit fit_workload_model(const std::vector<JobSpec>& jobs, const TraceClock& clock, const TraceFitOptions& options);

/// Seconds after midnight of trace time `t` (seconds since the clock's origin).
double time_of_day(double t);

}  // namespace gcsim
