// running_job.hpp: what the engine keeps of a job while it runs: its plan of
// steps, its hosts, the activities of its current step and the figures its
// end and its preemption need.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/ids.hpp"
#include "sim/engine/dag_run.hpp"
#include "sim/model/input_pipeline.hpp"
#include "sim/model/job_activity_plan.hpp"
#include "sim/model/job_links.hpp"
#include "sim/model/placement_costs.hpp"

namespace gcsim {

struct Runner;

struct RunningJob {
  explicit RunningJob(std::optional<JobActivityPlan> activity_plan) : plan(std::move(activity_plan)) {}
  std::optional<JobActivityPlan> plan;  // none for a DAG job, which runs its own workers
  std::unique_ptr<DagRun> dag;
  Runner* runner = nullptr;                // running the plan's steps (none for a DAG job, a job on timers
                                           // (timer_steps.hpp), nor once they all ran)
  std::vector<simgrid::s4u::Host*> hosts;  // ring order
  // Per host, its speed (FLOP/s), read once at the start: every computation
  // step reads it per GPU, and reading it from SimGrid touches two objects
  // per host.
  std::vector<double> host_speeds;
  double gpu_share = 1;   // of each GPU (JobSpec::gpu_share)
  JobIndex job = kNoJob;  // whose run this is
  std::uint64_t step = 0;
  bool on_delay = false;  // the current timer step is a delay (TimerSteps: its end needs not the plan again)
  // The activities of the current step; it is done when all of them are.
  std::vector<simgrid::s4u::ActivityPtr> activities;
  // Per activity, the transfers it stands for (RunnerPool::ring_step()); empty: one each.
  std::vector<std::uint32_t> activity_transfers;
  Time started = 0;
  Time work_started = 0;  // after the restore delay, if any
  Time work_seconds = 0;  // the run's work alone on its GPUs, for checkpoint accounting
  // Busy intervals of the current computation step, for a preemption: when
  // its GPUs stop computing, and how many GPUs stop then.
  std::vector<std::pair<Time, std::size_t>> busy_ends;
  // The transfers of the exchange's steps (host indices; PlacementCosts says
  // which): parameter servers' pushes, a hierarchical allreduce's steps.
  std::vector<Transfer> pushes, intra_node_step, inter_node_step;
  // A PhasedWork's flows: per phase, per exchange (PlacementCosts::phase_flows).
  std::vector<std::vector<ExchangeFlows>> phase_flows;
  // Per host (ring order): its GPU type's FLOPs per iteration over the job's
  // flops_per_iteration (1 unless a throughput table says the model runs
  // otherwise on that type; always 1 for a measured run).
  std::vector<double> compute_scale;
  // The input pipeline's decoding on each of its nodes (none on synthetic data).
  std::vector<NodeDecoding> decoding;
  // The work of this run alone on its GPUs on synthetic data, for the speeds
  // reported at its end.
  Time synthetic_seconds = 0;

  /// Whether a computation step is a timer (TimerSteps::start()): on GPUs held
  /// whole, with no input pipeline decoding beside it.
  bool computes_on_timers() const { return gpu_share >= 1 && decoding.empty(); }
};

}  // namespace gcsim
