// trace_stats.hpp: what a trace holds, summarised before replaying it
// (`gcsim trace stats`).
//
// Over the jobs read: their number, the span of their submissions, the
// distribution of GPU counts, GPU-hours (GPUs x recorded run time), run-time
// percentiles, status counts where the format has statuses; over the rows
// skipped: how many, and per reason the count and the first line numbers.
// Against a capacity (a cluster's GPUs, else the traced machine's where the
// trace says), the offered load
//
//     GPU-hours / (capacity GPUs x submission span in hours)
//
// (the span runs from the first to the last submission; the load is not
// defined for a single instant), and the jobs larger than the capacity,
// which are kept and reported, never shrunk. GPU-hours are the trace's own:
// run times are not rescaled to the cluster's GPU types.
//
//   TraceStats stats = compute_trace_stats(trace, &layout);
//   std::cout << trace_stats_text(stats);
//   write_file_atomically("stats.json", trace_stats_json(stats).dump(2) + "\n");
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "traces/trace_read.hpp"

namespace gcsim {

struct TraceSkipReason {
  std::string file;
  std::string field;
  std::string reason;
  bool malformed = true;
  std::size_t count = 0;
  std::vector<std::size_t> first_lines;  // at most kFirstLines, in file order
  static constexpr std::size_t kFirstLines = 5;
};

struct TraceCapacityStats {
  std::string name;  // "cluster 'rack-32gpu'" or "the traced machine"
  std::uint64_t gpus = 0;
  std::optional<double> offered_load;     // unset when the submission span is 0
  std::size_t jobs_larger = 0;            // jobs asking for more GPUs than `gpus`
  std::vector<std::string> first_larger;  // their ids, at most 5
  /// With a cluster: measured-duration jobs whose GPU type it does not define.
  std::size_t jobs_unknown_gpu_type = 0;
  std::vector<std::string> unknown_gpu_types;
};

struct TraceStats {
  std::string format;
  std::size_t rows = 0;
  std::size_t jobs = 0;               // after selection
  std::size_t jobs_read = 0;          // before selection
  std::size_t censored_at_start = 0;  // jobs read that the trace saw only in part
  std::size_t censored_at_end = 0;
  double first_submit = 0, last_submit = 0;  // seconds from the time origin
  double last_end = 0;                       // latest submit + recorded run time
  double time_origin = 0;
  bool calendar_clock = false;
  std::map<std::uint32_t, std::size_t> gpu_counts;  // GPUs -> jobs
  std::size_t jobs_sharing_gpus = 0;                // jobs asking a fraction of each GPU (gpu_share < 1)
  double gpu_hours = 0;                             // a job sharing GPUs counts its share
  std::size_t jobs_without_run_time = 0;            // training jobs: run time depends on the cluster
  double run_time_min = 0, run_time_p50 = 0, run_time_mean = 0, run_time_p95 = 0, run_time_max = 0;
  std::optional<TraceCapacityStats> capacity;
  std::map<std::string, std::size_t> status_counts;  // over the jobs read
  std::size_t skipped = 0, malformed = 0;
  std::vector<TraceSkipReason> skip_reasons;  // most frequent first
  std::string work_source;
  std::vector<std::string> assumptions;
  std::vector<std::string> selection;  // TraceReadResult::selection

  double span() const { return last_submit - first_submit; }
};

/// `cluster` may be null: the capacity is then the traced machine's, if the
/// trace names it (TraceReadResult::machine_gpus), else there is none.
TraceStats compute_trace_stats(const TraceReadResult& trace, const ClusterLayout* cluster);

std::string trace_stats_text(const TraceStats& stats);
nlohmann::json trace_stats_json(const TraceStats& stats);

}  // namespace gcsim
