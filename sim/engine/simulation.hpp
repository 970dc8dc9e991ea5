// simulation.hpp: run a workload on a cluster under a policy, on SimGrid.
//
// One scheduler actor calls the policy and applies its Plans, each as one
// transaction. Each running job's JobActivityPlan runs on a runner actor of
// its own (pooled, on the scheduler's host): a computation step starts one
// SimGrid Exec per GPU host, a ring step one host-to-host Comm per ring edge
// (GPU i to GPU i+1 over the routes of the platform, so jobs crossing the
// same link share its bandwidth), a delay step a kernel timer; the runner
// waits on its own activities, one at a time. The scheduler waits on one
// activity, a doorbell that a runner rings when its job's steps all ran,
// with a timeout to the next arrival or policy wake-up. So an event costs
// O(log n) in running and waiting jobs, not a wait registered on every
// running job, plus one virtual call per listener that takes that kind of
// event (below): the run recorder alone takes the frequent ones (busy
// intervals, activities ended, allocations), the guards and the memory
// watch a job's submission, start and end too. Arrivals, job ends
// and wake-ups at the same instant reach the policy in one call (the
// scheduler lets every actor run at that instant first; the ends are taken
// in job order). The engine keeps no metrics: it announces each event once
// to its listeners (engine_events.hpp): the run recorder
// (sim/report/run_recorder.hpp), the run log, --check's audit, the livelock
// and thrashing guards, the memory watch, the serving deployments, then
// SimulationOptions::listeners; and it asks sim/model/placement_costs.hpp
// what a job's GPUs cost it. Its parts: scheduler_loop.hpp (the loop, the
// policy call), job_runs.hpp (starting and stopping runs, checkpoints),
// runner_pool.hpp and timer_steps.hpp (running steps), arrivals.hpp
// (arrivals and dependencies), node_outages.hpp, serving_deployments.hpp.
// The event model and its cost: docs/simulation-model.md, The engine.
//
// SimGrid allows one engine per process: call simulate() once per process.
//
//   RunRecord record = simulate({layout, locality, jobs, policy, options});
#pragma once

#include <csignal>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

#include "sim/core/node_failure.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/policy.hpp"
#include "sim/model/job_activity_plan.hpp"
#include "sim/model/startup_latency.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class EngineListener;

/// How far a run has come.
struct SimulationProgress {
  Time simulated = 0;
  std::size_t jobs_ended = 0;  // finished or failed
  std::size_t jobs = 0;
  std::uint64_t events = 0;
  double wall_seconds = 0;  // since the simulation began
  bool done = false;        // the last report, at the run's end
};

struct SimulationOptions {
  Fidelity fidelity = Fidelity::kJob;
  /// Job fidelity: rounds each job's iterations are merged into (see job_activity_plan.hpp).
  std::uint32_t job_rounds = 4;
  std::uint64_t seed = 0;
  /// Stop at this simulated time; jobs not done by then are reported unfinished.
  Time until = kNever;
  /// GPU memory isolation (YARN's with GPU isolation on): a job using more
  /// device memory than it asked for fails itself. Off, a job fails when its
  /// use does not fit beside its neighbours' on a GPU (sim/engine/memory_watch.hpp).
  bool gpu_memory_isolation = true;
  /// Node failures to replay, in order of time (workloads/node_failures.hpp):
  /// the jobs on a failed node stop as if preempted and wait again; its GPUs
  /// are down until the repair ends.
  std::vector<NodeFailure> node_failures;
  /// Told how far the run has come about twice a second of wall time, and
  /// once at its end (a progress line); none: never.
  std::function<void(const SimulationProgress&)> progress;
  /// Keep every run of every job and the node failures (RunRecord::runs), for a timeline of the schedule.
  bool keep_runs = false;
  /// Read between events (a signal handler may set it, to the signal's
  /// number): once it is non-zero the run stops at the current instant as at
  /// `until`, its record keeping the value (RunRecord::stop_request). None: never.
  const volatile std::sig_atomic_t* stop_request = nullptr;
  /// Audit the state from scratch after every instant's events and every
  /// plan, and the record at the end (state_audit.hpp, record_audit.hpp):
  /// a broken invariant stops the run with InvariantBroken.
  bool check = false;
  /// Every run of a training job, a measured run, a notebook or a phased job
  /// waits this long on its GPUs before its work starts (startup_latency.hpp):
  /// the GPUs are held, allocated but not busy, and a run preempted or
  /// failed during it has done no work. Off by default.
  StartupLatency startup_latency;
  /// Told every event of the run (engine_events.hpp), after the engine's own
  /// listeners, in this order; each outlives simulate().
  std::vector<EngineListener*> listeners;
};

struct SimulationInput {
  const ClusterLayout& layout;
  const Locality& locality;
  const std::vector<JobSpec>& jobs;
  SchedulingPolicy& policy;
  SimulationOptions options;
};

/// An exception escaped the policy's schedule(): a bug in the policy (or its plugin).
class PolicyFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Under SimulationOptions::check, an invariant of every possible schedule
/// was found broken: its name, what it followed (an instant's events, a
/// plan), the time and the jobs involved. A bug in gcsim or in the policy.
class InvariantBroken : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Throws PlanRejected when the policy's plan breaks an invariant,
/// PolicyFailed when the policy throws (InputError when what it throws is
/// one: an input only the policy checks), InvariantBroken (under --check),
/// and std::bad_alloc when memory
/// runs out, wherever it does (nothing escapes to SimGrid's handler). These end
/// the run early with their report in the record: a deadlock (jobs holding
/// GPUs and waiting on each other, RunRecord::deadlock), a livelock (the
/// policy keeps taking GPUs away and giving them back without simulated time
/// advancing, RunRecord::livelock, instant_guard.hpp) and thrashing
/// (preemptions threw away more GPU time than the unfinished jobs need, and
/// none finished, RunRecord::thrashing, thrashing_guard.hpp).
RunRecord simulate(const SimulationInput& input);

}  // namespace gcsim
