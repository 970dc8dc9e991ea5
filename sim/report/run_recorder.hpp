// run_recorder.hpp: builds a run's RunRecord from the engine's events.
//
// The engine tells the recorder what happens, as it happens: a job submitted,
// started, preempted or finished, GPUs computing for an interval, the
// allocation changed by a plan. The recorder keeps the record: job outcomes,
// GPU-time totals, and the timeline of allocated, busy and queued GPUs. It
// needs no simulator, so it is tested with events written by hand.
//
// The timeline counts GPUs in millionths so that the shares of fractional
// jobs add up exactly. Busy intervals are known when a computation starts (a
// job computes at its own share of the GPU, never slowed by the jobs sharing
// it), so they may be told ahead of time, and cut short later; the timeline
// is assembled from the changes at the end, one point per instant at which a
// count changed.
//
//   RunRecorder recorder(jobs.size(), layout.gpu_count());
//   recorder.job_submitted(0);
//   recorder.allocation_changed(0, 4.0, -1);  // a plan started a 4-GPU job
//   recorder.job_started(job, 0, gpus);
//   recorder.busy(0, 10, 4, 1.0);
//   recorder.job_finished(job, 10, 4, 1.0, held);
//   RunRecord record = recorder.finish(10, state);
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/queue_view.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class RunRecorder {
 public:
  RunRecorder(std::size_t job_count, std::size_t total_gpus);

  /// An activity completion or a timer handled (RunRecord::events).
  void event_handled(std::uint64_t count = 1) { record_.events += count; }
  /// A job arrived (an event): one more job queued.
  void job_submitted(Time now);
  /// A plan was applied: allocated GPUs changed by `allocated_delta` (shares
  /// counted) and the queue by `queued_delta` jobs.
  void allocation_changed(Time now, double allocated_delta, std::int64_t queued_delta);
  /// A job started a run on `gpus`: the first start and the last placement.
  void job_started(JobIndex job, Time now, const std::vector<GpuId>& gpus);
  /// A serving replica (a job its deployment submits, lets go and may
  /// submit again) was submitted at `submitted`: its outcome keeps the first
  /// time, so that its wait and time in the cluster count from when its
  /// deployment first asked for it (other jobs' is taken from the state at
  /// the end), and it is in the cluster again: no end until it leaves.
  void replica_submitted(JobIndex job, Time submitted);
  /// A serving replica's run began, or ended (preempted, let go, finished
  /// with its deployment, failed, cut by the end of the simulation): a
  /// replica's JobOutcome::uncontended is the time its runs lasted. An end
  /// with no run of a replica going changes nothing.
  void replica_run_started(JobIndex job, Time now);
  void replica_run_ended(JobIndex job, Time now);
  /// A serving replica left the cluster, waiting or running: its deployment
  /// let it go. Its end, unless it is submitted again.
  void replica_left(JobIndex job, Time now) { record_.outcomes[job].end = now; }
  /// A job that holds no GPU (runs_on_cpu()) started on `nodes` (one, or a
  /// DAG's several, in cluster order).
  void cpu_job_started(JobIndex job, Time now, const std::vector<NodeId>& nodes);
  /// A job completed on `gpus` GPUs of share `gpu_share`, its run having held
  /// `held_gpu_seconds`: its GPUs are no longer allocated.
  void job_finished(JobIndex job, Time now, std::size_t gpus, double gpu_share, double held_gpu_seconds);
  /// A running job failed (`failure`), having held `held_gpu_seconds` in this run.
  void job_failed(JobIndex job, Time now, std::size_t gpus, double gpu_share, double held_gpu_seconds, Failure failure);
  /// Runs ended so far, finished or failed (a job preempted and run again counts once, at its end).
  std::size_t jobs_ended() const { return jobs_ended_; }
  /// Events handled so far.
  std::uint64_t events() const { return record_.events; }
  /// A node failed, stopping `runs` runs that lost `lost_gpu_seconds`.
  void node_failed(std::size_t runs, double lost_gpu_seconds) {
    ++record_.node_failures;
    record_.node_failure_restarts += runs;
    record_.node_failure_lost_gpu_seconds += lost_gpu_seconds;
  }
  /// A job never submitted fails because `cause`, which it waited for, did.
  void dependency_failed(JobIndex job, JobIndex cause) {
    ++jobs_ended_;
    record_.outcomes[job].failure = Failure::kDependency;
    record_.outcomes[job].cause = cause;
  }
  /// A training job's speeds over its last run (JobOutcome), iterations per second.
  void job_speeds(JobIndex job, double synthetic, double real) {
    record_.outcomes[job].synthetic_iterations_per_s = synthetic;
    record_.outcomes[job].real_iterations_per_s = real;
  }
  /// A job's run was preempted: it held `held_gpu_seconds`, `lost_gpu_seconds`
  /// of which were thrown away; `kept_nothing`: the job starts over.
  void job_preempted(double held_gpu_seconds, double lost_gpu_seconds, bool kept_nothing);
  /// A job's run was cut by the end of the simulation, having held `held_gpu_seconds`.
  void run_cut(double held_gpu_seconds);
  /// A measured job runs on a GPU type other than the one it was measured on.
  void job_rescaled() { ++record_.rescaled_jobs; }

  /// `gpus` GPUs compute at `gpu_share` of each from `start` until `end`.
  void busy(Time start, Time end, std::size_t gpus, double gpu_share);
  /// Busy GPUs told to compute until `planned_end` stop at `now` instead.
  /// Nothing changes when `planned_end` is not after `now`.
  void busy_cut(Time planned_end, Time now, std::size_t gpus, double gpu_share);

  void deadlocked(DeadlockReport report) { record_.deadlock = std::move(report); }
  void livelocked(LivelockReport report) { record_.livelock = std::move(report); }
  void thrashed(ThrashingReport report) { record_.thrashing = std::move(report); }

  /// The record of a run that ended at `end`: every job's final state,
  /// preemptions, uncontended run time and GPUs as `jobs` has them, and the
  /// timeline. A serving replica's outcome is its own instead: the time its
  /// runs lasted (those still going end at `end`), and, once its deployment
  /// let it go or ended, `finished` if it ever ran, `waiting` if it was asked
  /// for but never started, `pending` (no submission, no end) if it never
  /// was. Call once.
  RunRecord finish(Time end, const QueueView& jobs);

 private:
  // A change of the counts at `time`, in millionths of a GPU.
  struct Change {
    Time time;
    std::int64_t allocated;
    std::int64_t busy;
    std::int64_t queued;
  };
  void add_change(const Change& change);
  // A change told ahead of its time (a planned end of computing). Held apart
  // until a change at or after its time arrives, so that a run's planned end,
  // cut short or not, adds no entry of its own to the changes: one cut short
  // cancels out, and one reached merges with the finish at that instant.
  void add_future_change(const Change& change);
  std::vector<TimelinePoint> assemble_timeline();
  void finish_replica(JobIndex job, Time end, const JobRuntime& runtime);

  // A serving replica's runs: the one going (kNever: none) and the time the others lasted.
  struct ReplicaRuns {
    Time running_since = kNever;
    Time ran = 0;
  };

  RunRecord record_;
  // The changes, held in the timeline's own type so that the timeline is
  // assembled in place, with no second array of a million-job run's points:
  // allocated and busy are whole millionths (doubles add integers below 2^53
  // exactly), queued a count modulo 2^32 (its running sum never negative).
  std::vector<TimelinePoint> changes_;
  std::map<Time, Change> future_;                 // by time, the changes of each instant summed
  std::map<JobIndex, ReplicaRuns> replica_runs_;  // only the replicas that ran
  std::size_t jobs_ended_ = 0;
};

}  // namespace gcsim
