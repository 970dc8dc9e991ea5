// run_outputs.hpp: the files and the console summary of a run.
//
//   summary.json  for a replayed trace, what was read, kept, censored,
//                 skipped and selected ("trace", ReplayedTrace); counts,
//                 makespan, JCT and queueing-delay distributions,
//                 utilization, preemptions and the GPU time they threw away,
//                 why the run stopped early (deadlock, livelock, thrashing:
//                 null when it did not), simulated time, events, wall time;
//                 when jobs were submitted and not ended at the stop, the
//                 censored JCT and queueing-delay figures (run_metrics.hpp);
//                 when a signal stopped the run, "partial"; when the workload
//                 holds spot jobs, "qos": each QoS class's jobs, preemptions,
//                 mean JCT and queueing delay (qos_metrics.hpp); under
//                 --contention, "contention" (contention_outputs.hpp)
//   jobs.csv      one row per job (placement as "node:gpu" labels, ';'-separated;
//                 the GPU types of its last run and the one whose speed it ran at);
//                 a last column `qos` (guaranteed or spot) when the workload
//                 holds spot jobs
//   timeline.csv  allocated and busy GPUs and queued jobs, one row per change
//   serving.csv   each serving deployment's replicas, request rate, utilization
//                 and backlog at each autoscaler sync (a minute apart without one)
//
// Every number is printed the same way on every machine, so the same inputs
// give byte-identical files (wall time aside, see SummaryOptions).
//
//   std::string csv = jobs_csv(jobs, layout, record);
//   out.stage("jobs.csv", [&](std::ostream& file) { write_jobs_csv(file, jobs, layout, record); });
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/policy.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

struct ContentionReport;
struct EnergyReport;

/// The trace a run replayed (`--workload FORMAT:FILE`), as summary.json's
/// "trace" object and the printed summary state it: the rows read, the jobs
/// the reader kept, those it saw only in part (censored), the rows it
/// skipped per reason, and what the selection left.
struct ReplayedTrace {
  std::string format, file;
  std::size_t rows = 0, jobs = 0;
  std::size_t censored_at_start = 0, censored_at_end = 0;
  /// Skipped rows per reason: malformed, and well-formed but not replayable.
  std::map<std::string, std::size_t> malformed, not_replayable;
  /// The selection's steps, one line each, and the jobs it kept; none when
  /// no selection applied.
  std::vector<std::string> selection;
  std::optional<std::size_t> jobs_selected;
};

struct SummaryOptions {
  /// Host wall time differs between runs; leave it out for byte-identical summaries.
  bool include_wall_time = true;
  /// The policy's guaranteed queues (SchedulingPolicy::guaranteed_queues):
  /// summary.json then gives each one's guarantee attainment
  /// (comparison_metrics.hpp) under "queues", and the least of them.
  std::vector<GuaranteedQueue> queues;
  /// The trace replayed, if the workload is one: summary.json's "trace".
  std::optional<ReplayedTrace> trace;
  /// Who slowed whom (`--contention`): summary.json's "contention"
  /// (contention_outputs.hpp); none: no such field.
  const ContentionReport* contention = nullptr;
  /// The energy drawn (`--energy`): summary.json's "energy"
  /// (energy_outputs.hpp); none: no such field.
  const EnergyReport* energy = nullptr;
};

std::string summary_json(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record,
                         const RunMetrics& metrics, const SummaryOptions& options);
std::string jobs_csv(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record);
std::string timeline_csv(const RunRecord& record);
/// The same files written row by row to `out`, so that a run of a million
/// jobs does not hold them whole in memory.
/// With `energy`, each job's energy_kwh and energy_kwh_per_gpu_hour come last (energy_outputs.hpp).
void write_jobs_csv(std::ostream& out, const std::vector<JobSpec>& jobs, const ClusterLayout& layout,
                    const RunRecord& record, const EnergyReport* energy = nullptr);
void write_timeline_csv(std::ostream& out, const RunRecord& record);
/// serving.csv; written only when the workload has a serving deployment.
void write_serving_csv(std::ostream& out, const RunRecord& record);
/// Jobs whose last run held GPUs of several types (summary.json's
/// jobs_across_gpu_types): they allow it (may_mix_gpu_types()) and ran each
/// step at the pace of their slowest GPU.
std::size_t jobs_across_gpu_types(const ClusterLayout& layout, const RunRecord& record);
/// A few lines for the terminal; with `trace`, one on the trace replayed.
std::string human_summary(const RunRecord& record, const RunMetrics& metrics, const ReplayedTrace* trace = nullptr);
/// Which jobs deadlocked and what each holds; empty when the run had no deadlock.
std::string deadlock_diagnosis(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record);
/// The instant the policy went round in circles, its jobs and the decisions
/// that repeat; empty when the run had no livelock.
std::string livelock_diagnosis(const std::vector<JobSpec>& jobs, const RunRecord& record);
/// Since when preemptions threw work away, how much against what the
/// unfinished jobs need, the most preempted jobs, and what to set; empty when
/// the run did not thrash.
std::string thrashing_diagnosis(const std::vector<JobSpec>& jobs, const RunRecord& record, const RunMetrics& metrics);
/// A notice when the lost share (RunMetrics::lost_share, summary.json's
/// lost_share: lost / (lost + useful), the share of the GPU time jobs ran
/// that preemptions threw away) exceeds kLostWorkNoticeShare, saying what to
/// set; empty otherwise.
std::string lost_work_notice(const RunMetrics& metrics);

/// RFC 4180 quoting when the field holds a comma, a quote or a newline.
std::string csv_field(const std::string& text);
/// Fixed six-decimal rendering used for times in CSV files.
std::string format_seconds(double seconds);

}  // namespace gcsim
