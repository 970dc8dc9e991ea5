// run_record.hpp: what one simulation produced, as plain data.
//
// The engine fills a RunRecord; metrics and output files are computed from
// it alone, so they are tested without running a simulation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/report/run_log.hpp"
#include "sim/core/job_state.hpp"
#include "sim/core/plan.hpp"

namespace gcsim {

/// Why a job failed.
enum class Failure : std::uint8_t {
  kNone,
  kOutOfMemory,  // its GPU memory use did not fit (sim/engine/memory_watch.hpp)
  kDependency,   // a job it waited for (JobSpec::after) failed: JobOutcome::cause
};

struct JobOutcome {
  JobState state = JobState::kPending;
  Time start = kNever;  // first start
  Time end = kNever;
  std::vector<GpuId> gpus;  // last placement, in ring order
  std::uint32_t preemptions = 0;
  // Run time alone on an empty cluster (sim/model/duration_oracle.hpp); for
  // a serving replica, which serves as long as its deployment keeps it, the
  // time its runs lasted (RunRecorder::finish).
  Time uncontended = kNever;
  // A training job, over its last run: iterations per second alone on its
  // GPUs on synthetic data (no input pipeline), and as the run went (its
  // input pipeline, contention; restore and checkpoint time left out). 0:
  // not a training job, or not finished.
  double synthetic_iterations_per_s = 0;
  double real_iterations_per_s = 0;
  Time submitted = kNever;  // when it (a replica: first) joined the queue (JobRuntime::submitted); kNever: never
  Failure failure = Failure::kNone;
  JobIndex cause = 0;  // Failure::kDependency: the job it waited for that failed

  /// When its wait began: when it joined the queue, or `submit` (its spec's)
  /// if it never did. Waits and completion times count from it.
  Time queued_from(Time submit) const { return submitted == kNever ? submit : submitted; }
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

/// The policy kept taking GPUs away and giving them back without simulated
/// time advancing (sim/engine/instant_guard.hpp): the run stopped at `at`.
struct LivelockReport {
  Time at = 0;
  std::uint64_t policy_calls = 0;  // calls at that instant
  /// Jobs whose GPUs were taken away (preempted or released) at that
  /// instant, with how often, most often first.
  std::vector<std::pair<JobIndex, std::uint32_t>> jobs;
  /// The decisions that repeat, in order, GPUs left out; when no repetition
  /// was found among the last decisions, the last few of them.
  std::vector<Decision> cycle;
  bool repeats = false;  // `cycle` is a repeating sequence
};

/// Preemptions kept throwing work away while no job finished
/// (sim/engine/thrashing_guard.hpp): the run stopped at `at`.
struct ThrashingReport {
  Time at = 0;
  Time since = 0;                   // the last job completion, or the first submission
  double lost_gpu_seconds = 0;      // thrown away by preemptions since then
  double needed_gpu_seconds = 0;    // what the jobs unfinished since then needed then, each alone on the cluster
  double limit = 0;                 // the run stopped once lost > limit x needed
  std::size_t unfinished_jobs = 0;  // submitted and not finished
};

/// A serving deployment's state at one instant (an autoscaler sync, or a
/// minute apart without an autoscaler), for serving.csv.
struct ServingSample {
  Time time = 0;
  std::uint32_t desired = 0;   // replicas it should have
  std::uint32_t replicas = 0;  // replicas it has: waiting for GPUs, starting or ready
  std::uint32_t ready = 0;     // serving requests
  double arrival_rate = 0;     // requests a second since the previous sample
  double utilization = 0;      // the ready replicas' busy fraction since the previous sample
  double backlog = 0;          // requests waiting
};

/// What a serving deployment did (sim/engine/serving_controller.hpp).
struct ServingOutcome {
  std::string deployment;
  Time start = kNever, end = kNever;                      // kNever: it never started / is still serving
  double arrived = 0, served = 0, dropped = 0, late = 0;  // requests; late: slower than the SLO
  double p50 = 0, p95 = 0, p99 = 0, mean_latency = 0;     // seconds, over the requests served
  double gpu_seconds = 0;                                 // GPU time its replicas held
  double ready_replica_seconds = 0;                       // replica time spent serving
  std::uint32_t most_replicas = 0;                        // ready at once
  std::uint32_t scale_ups = 0, scale_downs = 0;           // the autoscaler's decisions that changed the count
  std::vector<Time> rollout_seconds;                      // each rollout's duration, in order; kNever: not done
  std::vector<ServingSample> samples;
};

struct RunRecord {
  double failed_gpu_seconds = 0;  // held by the runs that ended in a failure
  // Node failures replayed, the runs they stopped, and the GPU time those
  // runs lost (since their last checkpoint).
  std::size_t node_failures = 0, node_failure_restarts = 0;
  double node_failure_lost_gpu_seconds = 0;
  std::string cluster_name;
  std::string policy;
  std::string fidelity;
  std::uint64_t seed = 0;
  std::size_t total_gpus = 0;
  std::vector<JobOutcome> outcomes;  // one per job, in workload order
  // Per job, the node of a CPU job's last run (kNoNode for the others); empty
  // when no CPU job ran, so that a workload without any pays nothing for it.
  std::vector<NodeId> cpu_nodes;
  // The jobs whose last run spread over several nodes (DAGs of CPU workers):
  // all those nodes, in cluster order, the first being the job's cpu_nodes.
  std::map<JobIndex, std::vector<NodeId>> cpu_spans;
  std::vector<TimelinePoint> timeline;
  // Per job, the start-up latency of its first run (SimulationOptions::
  // startup_latency): it began its work that long after its first start.
  // Empty without a latency model.
  std::vector<Time> first_startup;
  // Kept only for a timeline of the schedule (SimulationOptions::keep_runs,
  // a RunLog the engine keeps): every run of every job, and the node failures.
  std::vector<RunSlice> runs;
  std::vector<NodeEvent> node_failure_events;
  std::optional<DeadlockReport> deadlock;
  std::optional<LivelockReport> livelock;
  std::optional<ThrashingReport> thrashing;
  std::vector<ServingOutcome> serving;   // one per deployment, in workload order
  double run_gpu_seconds = 0;            // GPU time held by jobs' runs (ended, preempted or cut by the end)
  double lost_gpu_seconds = 0;           // GPU time of preempted runs that was thrown away
  std::uint64_t restarts_from_zero = 0;  // preemptions after which the job kept none of its work
  /// Jobs of a measured duration that ran on a GPU type other than the one it
  /// was measured on, their run time rescaled by the types' FLOP/s.
  std::size_t rescaled_jobs = 0;
  /// Non-zero: the run was asked to stop before its end and stopped at
  /// simulated_time, its figures partial; the request's value
  /// (SimulationOptions::stop_request), a signal's number when a signal
  /// handler set it.
  int stop_request = 0;
  Time simulated_time = 0;   // clock when the simulation ended
  std::uint64_t events = 0;  // activity completions, arrivals and timers handled
  double wall_seconds = 0;   // host time spent simulating
};

}  // namespace gcsim
