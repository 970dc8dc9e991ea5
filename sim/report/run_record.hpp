// run_record.hpp: what one simulation produced, as plain data.
//
// The engine fills a RunRecord; metrics and output files are computed from
// it alone, so they are tested without running a simulation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/job_state.hpp"

namespace gcsim {

struct JobOutcome {
  JobState state = JobState::kPending;
  Time start = kNever;  // first start
  Time end = kNever;
  std::vector<GpuId> gpus;  // last placement, in ring order
  std::uint32_t preemptions = 0;
  Time uncontended = kNever;  // run time alone on an empty cluster (sim/model/duration_oracle.hpp)
};

/// From `time` until the next point: GPUs held by jobs, GPUs computing, and
/// jobs submitted but not running. A job holding a share of a GPU
/// (JobSpec::gpu_share) counts that share, so GPU counts may be fractional.
struct TimelinePoint {
  Time time;
  double allocated;
  double busy;
  std::uint32_t queued = 0;
};

/// Jobs holding GPUs while waiting for more, with nothing left that could
/// free any: the run stopped at `at` instead of waiting forever.
struct DeadlockReport {
  Time at = 0;
  std::vector<JobIndex> jobs;  // each holds outcomes[job].gpus
};

struct RunRecord {
  std::string cluster_name;
  std::string policy;
  std::string fidelity;
  std::uint64_t seed = 0;
  std::size_t total_gpus = 0;
  std::vector<JobOutcome> outcomes;  // one per job, in workload order
  std::vector<TimelinePoint> timeline;
  std::optional<DeadlockReport> deadlock;
  double lost_gpu_seconds = 0;    // GPU time of preempted runs that was thrown away
  Time simulated_time = 0;        // clock when the simulation ended
  std::uint64_t events = 0;       // activity completions, arrivals and timers handled
  double wall_seconds = 0;        // host time spent simulating
};

}  // namespace gcsim
