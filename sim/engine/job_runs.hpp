// job_runs.hpp: the runs of GPU jobs and DAGs of CPU workers: how each starts (its activity plan,
// what its placement costs it), runs (on a runner actor, on timers, or as
// a DAG's workers) and stops (finished, preempted with the checkpoint
// model's accounting, failed, taken back by its deployment, cut by the
// end of the simulation), each told to the engine's listeners.
//
// One pointer per job, the run itself only while it runs: a run holds its
// plan, hosts and activities, far more than a waiting job should cost. A
// job's epoch counts its runs' stops, so that what a stopped run left
// behind (a timer step in the heap, a DAG's actors' names) is known stale.
//
//   JobRuns runs(engine, cpu, serving);
//   SchedulerState::Applied applied = runs.apply_plan(plan);  // preempted runs stopped
//   for (JobIndex job : applied.started) runs.launch(job);
//   ... runners report: runs.steps_done(job) ...
//   for (JobIndex job : runs.finish_ended()) ...;
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/engine/cpu_dispatch.hpp"
#include "sim/engine/engine_context.hpp"
#include "sim/engine/node_wake.hpp"
#include "sim/engine/runner_pool.hpp"
#include "sim/engine/running_job.hpp"
#include "sim/engine/serving_deployments.hpp"
#include "sim/engine/timer_steps.hpp"
#include "sim/model/job_activity_plan.hpp"

namespace gcsim {

class JobRuns {
 public:
  JobRuns(EngineContext& engine, CpuDispatch& cpu, ServingDeployments& serving);

  /// The job's run while it runs; null otherwise.
  RunningJob* run(JobIndex job) { return running_[job].get(); }
  std::uint32_t epoch(JobIndex job) const { return epoch_[job]; }
  /// Per job, its first run's start-up latency (RunRecord::first_startup); empty without a latency model.
  const std::vector<Time>& first_startups() const { return first_startup_; }
  TimerSteps& timers() { return timers_; }

  /// Applies a plan (the policy's, or a node failure's: `crashed`) to the
  /// state, tells the allocation's change, and stops the preempted runs;
  /// what they threw away is in `lost_gpu_seconds`.
  SchedulerState::Applied apply_plan(const Plan& plan, double* lost_gpu_seconds = nullptr, bool crashed = false);
  /// Starts the run of a job the plan started on GPUs, as its form runs: a
  /// training job, a measured run or a notebook its activity plan's steps, a
  /// DAG its workers, a serving replica held busy until its deployment ends
  /// or lets it go.
  void launch(JobIndex job);
  /// A job the CPU dispatch started on the nodes it holds: a DAG of CPU
  /// workers starts them (launch_cpu_dag()); a CPU job and a replica on CPUs
  /// have no run here (the dispatch ends the one, the deployment the other).
  void launch_on_cores(JobIndex job);
  /// A job on CPUs whose node failed: a DAG of CPU workers' actors stop (it
  /// starts over); a CPU job or replica has no run here, and nothing happens.
  void stop_on_cpu(JobIndex job);
  /// A job's steps ran to their end (on its runner, its timers, or its DAG's
  /// coordinator): the scheduler ends it with the other changes of this instant.
  void steps_done(JobIndex job);
  /// Whether jobs' steps ran to their end since the last finish_ended().
  bool any_ended() const { return !ended_.empty(); }
  /// The jobs whose steps all ran finish now, in job order. Returns them
  /// (valid until the next call).
  const std::vector<JobIndex>& finish_ended();
  /// A running job fails: it stops where it is, and its GPUs are free at once.
  void fail(JobIndex job, Failure failure);
  /// A replica its deployment lets go, waiting or running: back to pending, its GPUs freed.
  void withdraw(JobIndex job);
  /// The deployment ended: its running replicas finish, the others are retired.
  void end_replicas(const ServingController& deployment);
  /// The simulation ends (--until, a stop request, a guard): the runs still
  /// going count as held so far, their busy intervals end now.
  void cut_all();
  /// After a failure: stops every activity and worker, telling nothing more
  /// (the record is dropped, and memory may be what ran out).
  void abandon();

 private:
  // A run begins on the job's allocated GPUs: its hosts, told as started
  // (with its power plan's states on them, if it has one).
  RunningJob& begin_run(JobIndex job, std::optional<JobActivityPlan> plan, bool rescaled,
                        const PlannedPipeline* power_plan = nullptr);
  // A training job, a measured run or a notebook runs its activity plan's
  // steps, on a runner actor or on timers, at what its placement costs it.
  void launch_steps(JobIndex job);
  // The start-up latency of the run of `job` beginning now (0 without a latency model).
  Time startup_latency(JobIndex job);
  // A DAG of CPU workers: its workers, in pool order, fill the nodes it
  // holds in order, each node's CPU host taking as many as the placement
  // gives it. Its last task ends it (finish_ended()); a failure of one of its
  // nodes starts it over (stop_on_cpu()).
  void launch_cpu_dag(JobIndex job, const DagWork& dag);
  // A replica holds its GPUs, busy serving, until its deployment ends or
  // lets it go; the deployment's controller models its requests.
  void launch_replica(JobIndex job, const ServingController& deployment);
  // A DAG job runs its own worker actors; its coordinator reports its end.
  // Preempted, it starts over (no checkpoints of a DAG's progress). Its GPU
  // workers stand on its GPUs, in order; its CPU workers on its nodes' CPU
  // hosts, dealt over its GPUs in turn (CPU worker i at the node of GPU i mod
  // g), so that each node holds them as it holds the job's GPUs and the cores
  // split over them.
  void launch_dag(JobIndex job, const DagWork& dag);
  // The DAG's worker actors on `workers` (one host per worker, pools in order) and its coordinator.
  void start_dag_run(JobIndex job, const DagWork& dag, const std::vector<simgrid::s4u::Host*>& workers);
  // The job finishes now: its steps all ran.
  void finish(JobIndex job);
  // Stops a preempted run; returns the GPU-seconds it threw away.
  double preempt(JobIndex job, bool crashed);
  // The job's run stops here, for good: its activities cancelled, and it is
  // no longer among the jobs whose steps all ran at this instant (a failure
  // or a preemption at that instant wins).
  void cut_run(JobIndex job);
  // Stops the job's runner (or its DAG's actors), cancels what its current
  // step still runs, and ends its busy intervals now.
  void cancel_step(JobIndex job);
  // GPU time the job's current run has held so far.
  double held_gpu_seconds(JobIndex job) const {
    const RunningJob& run = *running_[job];
    return (engine_.now - run.started) * static_cast<double>(run.hosts.size()) * engine_.in.jobs[job].gpu_share;
  }

  EngineContext& engine_;
  CpuDispatch& cpu_;
  ServingDeployments& serving_;
  std::vector<std::unique_ptr<RunningJob>> running_;
  std::vector<std::uint32_t> epoch_;
  std::vector<bool> rescaled_;       // jobs counted in RunRecord::rescaled_jobs
  std::vector<Time> first_startup_;  // RunRecord::first_startup; empty without a latency model
  std::vector<JobIndex> ended_;      // jobs whose steps all ran, not yet finished (finish_ended())
  std::vector<JobIndex> finished_;   // the last finish_ended()'s
  bool recording_ = true;            // false once the run failed (abandon())
  TimerSteps timers_;
  RunnerPool runners_;
  NodeWake wake_;  // runs on sleeping nodes wait for them
};

}  // namespace gcsim
