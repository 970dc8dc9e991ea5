// comparison_table.hpp: one row of figures per policy, from the files each
// policy's run wrote, rendered as CSV (for tools) and Markdown (for people).
//
// Figures that summary.json holds (JCT, wait, makespan, utilization,
// preemptions, deadlock, wall time) are copied from it unchanged; the CSV
// prints every number in its shortest exact form, so a value read back equals
// the summary's. The others come from jobs.csv and timeline.csv through
// sim/report/comparison_metrics.hpp. A figure that is undefined for a run (no
// finished job with a known uncontended time, no deadlock, per-queue
// attainment before capacity queues exist) is written "n/a".
//
//   std::vector<ComparisonRow> rows;
//   for (const std::string& policy : policies) rows.push_back(comparison_row(policy, outputs_of(policy)));
//   write(comparison_csv(rows));
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/report/comparison_metrics.hpp"
#include "sim/report/run_output_reader.hpp"

namespace gcsim {

/// What one `gcsim run` wrote, parsed.
struct RunOutputs {
  RunSummaryFigures summary;
  std::vector<JobsCsvRow> jobs;
  std::vector<TimelinePoint> timeline;
};

struct ComparisonRow {
  std::string policy;
  std::size_t jobs = 0, finished = 0, failed = 0, unfinished = 0;
  Distribution jct, wait;
  double makespan = 0;
  double allocated_share = 0, busy_share = 0;
  double fragmentation = 0;
  std::size_t preemptions = 0;
  double lost_gpu_hours = 0;
  std::optional<double> jain_slowdown;  // Jain's index of the users' mean slowdowns
  SlowdownSummary finish_time_fairness;  // rho = jct / uncontended over finished jobs
  std::optional<Time> deadlock_at;
  std::optional<double> wall_seconds;
};

/// The row of one run. Fragmentation is taken over the summary's makespan
/// window, from the earliest submission in jobs.csv.
ComparisonRow comparison_row(const std::string& policy, const RunOutputs& run);

/// Header and one line per row, in the given order. Columns:
/// policy,jobs,finished,failed,unfinished,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,
/// wait_mean_s,wait_p50_s,wait_p95_s,wait_p99_s,makespan_s,gpu_util_allocated,gpu_util_busy,
/// fragmentation,preemptions,lost_gpu_hours,jain_fairness_slowdown,ftf_rho_max,ftf_rho_mean,
/// queue_guarantee_attainment,deadlocks,deadlock_at_s,wall_time_s
std::string comparison_csv(const std::vector<ComparisonRow>& rows);

/// A Markdown table of the same rows (times in one unit chosen for the
/// table, shares in percent) followed by a short key to the columns.
std::string comparison_markdown(const std::vector<ComparisonRow>& rows);

/// The shortest decimal text that reads back as exactly `value`.
std::string exact_number(double value);

}  // namespace gcsim
