// comparison_table.hpp: one row of figures per policy, from the files each
// policy's run wrote, rendered as CSV (for tools) and Markdown (for people).
//
// Figures that summary.json holds (JCT, wait, makespan, utilization,
// preemptions, deadlock, wall time) are copied from it unchanged; the CSV
// prints every number in its shortest exact form, so a value read back equals
// the summary's. The others come from jobs.csv and timeline.csv through
// sim/report/comparison_metrics.hpp. For a run scheduled with capacity
// queues, each leaf's guarantee attainment comes from jobs.csv and the
// queues' guarantees; the table shows the least, the Markdown adds one row
// per queue. A figure that is undefined for a run (no finished job with a
// known uncontended time, no deadlock, guarantee attainment without capacity
// queues) is written "n/a". Each row says why its run stopped early, if it
// did (a deadlock, a livelock, thrashing or a signal: summary.json's reports),
// and the lost share of its GPU time; the figures over finished jobs then
// cover only part of the jobs, which the Markdown marks.
//
//   std::vector<ComparisonRow> rows;
//   for (const std::string& policy : policies) rows.push_back(comparison_row(policy, outputs_of(policy)));
//   write(comparison_csv(rows));
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/report/comparison_metrics.hpp"
#include "sim/report/job_type_metrics.hpp"
#include "sim/report/run_output_reader.hpp"

namespace gcsim {

/// What one `gcsim run` wrote, parsed.
struct RunOutputs {
  RunSummaryFigures summary;
  std::vector<JobsCsvRow> jobs;
  std::vector<TimelinePoint> timeline;
};

/// The queues a run was scheduled with, for the guarantee figures.
struct CapacityQueues {
  std::vector<QueueGuarantee> leaves;
  /// The leaf (index into `leaves`) each queue name jobs.csv may hold designates.
  std::map<std::string, std::size_t> leaf_of_name;
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
  double lost_share = 0;                          // lost / (lost + useful) GPU time
  std::optional<double> jain_slowdown;            // Jain's index of the users' mean slowdowns
  SlowdownSummary finish_time_fairness;           // rho = jct / uncontended over finished jobs
  std::vector<QueueAttainment> queue_attainment;  // one per leaf queue; empty without capacity queues
  std::optional<Time> deadlock_at;
  std::string stopped = "none";  // RunSummaryFigures::stopped
  std::optional<Time> stopped_at;
  std::optional<double> wall_seconds;
  std::optional<double> energy_kwh, facility_kwh, peak_kw;  // RunSummaryFigures'
  std::vector<JobTypeFigures> job_types;                    // from jobs.csv
  std::vector<ServingFigures> serving;                      // from summary.json, one per deployment
};

/// The row of one run. Fragmentation is taken over the summary's makespan
/// window, from the earliest submission in jobs.csv. With `queues`, each
/// leaf's guarantee attainment up to the summary's simulated time; a job whose
/// queue names no leaf is an InputError.
ComparisonRow comparison_row(const std::string& policy, const RunOutputs& run,
                             const std::optional<CapacityQueues>& queues = std::nullopt);

/// Header and one line per row, in the given order. Columns:
/// policy,jobs,finished,failed,unfinished,finished_jobs,jct_mean_s,jct_p50_s,jct_p95_s,jct_p99_s,
/// wait_mean_s,wait_p50_s,wait_p95_s,wait_p99_s,makespan_s,gpu_util_allocated,gpu_util_busy,
/// fragmentation,preemptions,lost_gpu_hours,lost_share,jain_fairness_slowdown,ftf_rho_max,ftf_rho_mean,
/// queue_guarantee_attainment,deadlocks,deadlock_at_s,stopped,stopped_at_s,wall_time_s,
/// and when a run accounted its energy (--energy), energy_kwh,facility_kwh,peak_kw
/// (finished_jobs: "finished/jobs", the jobs the time figures cover; stopped:
/// none, deadlock, livelock, thrashing or signal).
std::string comparison_csv(const std::vector<ComparisonRow>& rows);

/// A Markdown table of the same rows (times in one unit chosen for the
/// table, shares in percent) followed by a short key to the columns and,
/// when a row has capacity queues, a table of each queue's attainment. A row
/// whose figures cover only part of its jobs (some did not finish) has its
/// finished count marked "†", and a note under the table says over how many
/// jobs and why its run stopped. Runs that accounted their energy add the
/// columns energy (kWh) and peak (kW).
std::string comparison_markdown(const std::vector<ComparisonRow>& rows);

}  // namespace gcsim
