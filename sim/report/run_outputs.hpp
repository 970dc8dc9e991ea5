// run_outputs.hpp: the files and the console summary of a run.
//
//   summary.json  counts, makespan, JCT and queueing-delay distributions,
//                 utilization, simulated time, events, wall time
//   jobs.csv      one row per job (placement as "node:gpu" labels, ';'-separated)
//   timeline.csv  allocated and busy GPUs and queued jobs, one row per change
//
// Every number is printed the same way on every machine, so the same inputs
// give byte-identical files (wall time aside, see SummaryOptions).
//
//   std::string csv = jobs_csv(jobs, layout, record);
#pragma once

#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/report/run_metrics.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

struct SummaryOptions {
  /// Host wall time differs between runs; leave it out for byte-identical summaries.
  bool include_wall_time = true;
};

std::string summary_json(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record,
                         const RunMetrics& metrics, const SummaryOptions& options);
std::string jobs_csv(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record);
std::string timeline_csv(const RunRecord& record);
/// A few lines for the terminal.
std::string human_summary(const RunRecord& record, const RunMetrics& metrics);
/// Which jobs deadlocked and what each holds; empty when the run had no deadlock.
std::string deadlock_diagnosis(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, const RunRecord& record);

/// RFC 4180 quoting when the field holds a comma, a quote or a newline.
std::string csv_field(const std::string& text);
/// Fixed six-decimal rendering used for times in CSV files.
std::string format_seconds(double seconds);

}  // namespace gcsim
