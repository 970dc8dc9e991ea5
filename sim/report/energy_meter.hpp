// energy_meter.hpp: the energy a run's GPUs and nodes drew, from the runs
// and busy intervals the engine records (`gcsim run --energy`).
//
// The rule (docs/simulation-model.md, "Energy"): every node draws its
// base_watts and every GPU its idle_watts from time 0 to the run's end; a
// GPU held by a job draws communicating_watts while the job is not
// computing and busy_watts while it computes, a job holding a share of a
// GPU (JobSpec::gpu_share) being charged that share of the GPU's draw. A
// job's energy is its GPUs' draw while it held them (idle part included);
// the idle GPUs' energy is the idle draw of what no job held. The IT
// energy is the jobs', the idle GPUs' and the nodes' base energy; the
// facility's is that times the cluster's PUE. A node of a group with
// sleep_after sleeps once no run has held it that long (node_sleep_clock.hpp),
// drawing its sleep_watts instead of its base and its GPUs' idle draw.
//
// A busy interval says how many of the job's GPUs compute, not which: each
// is charged the mean busy-over-communicating draw of the job's GPUs, exact
// unless a job spans GPU types of different power. A job under a stage
// power plan draws, on each GPU (rank), its mean over the pipeline's time
// of its computations' states' watts and of its busy watts in the bubble
// (stage_power_plan.hpp); all its GPUs compute for the pipeline's time, so
// the mean is exact.
//
//   EnergyMeter meter(jobs, power);
//   meter.run_started(0, 0, {0, 1});
//   meter.busy(0, 0, 10, 2, 1.0);
//   meter.run_ended(0, 10, 0.0);
//   EnergyReport report = meter.finish(10);
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/cluster_spec.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/stage_power_plan.hpp"
#include "sim/report/node_sleep_clock.hpp"
#include "sim/report/power_model.hpp"

namespace gcsim {

/// What a run drew, joules (the outputs write kWh).
struct EnergyReport {
  std::vector<double> job_joules;         // per job, over all its runs
  std::vector<double> job_gpu_seconds;    // per job, GPU time held (shares counted)
  double jobs_joules = 0;                 // the jobs' sum
  double idle_gpu_joules = 0;             // GPUs (and shares of GPUs) held by nobody, at idle draw
  double base_joules = 0;                 // the nodes' base_watts, while awake
  double sleep_joules = 0;                // sleeping nodes' sleep_watts
  bool nodes_sleep = false;               // some node group has sleep_after
  double it_joules = 0;                   // jobs + idle GPUs + base + sleep
  double facility_joules = 0;             // it_joules x PUE
  double lost_joules = 0;                 // of runs whose work was thrown away (preemptions, node failures, failures)
  double mean_watts = 0, peak_watts = 0;  // of the IT power over [0, end]
  double pue = 1.0;
  Time duration = 0;
  std::map<std::string, double> user_joules, queue_joules;
  /// The IT power, watts, from each time until the next: one step per instant at which it changed.
  std::vector<std::pair<Time, double>> power;
  /// Per job under a stage power plan (sim/core/stage_power_plan.hpp), its
  /// last run's: each stage as its first rank runs it and the pipeline's stretch.
  struct StagePowerStates {
    std::string job_id;
    std::vector<PlannedStage> stages;
    double stretch = 1;
  };
  std::map<JobIndex, StagePowerStates> stage_power_states;
};

class EnergyMeter {
 public:
  EnergyMeter(const std::vector<JobSpec>& jobs, PowerModel power);

  /// A run of `job` began on `gpus` (none: a job on CPUs, not accounted),
  /// under `run_limit_watts` per GPU where its policy gave one (0: none;
  /// the job's own power_limit_watts holds where lower). A job with a power
  /// plan comes with `power_plan`, the plan on these GPUs
  /// (placement_costs.hpp's planned_pipeline_on()): its ranks draw its watts.
  void run_started(JobIndex job, Time now, const std::vector<GpuId>& gpus, double run_limit_watts = 0,
                   const PlannedPipeline* power_plan = nullptr);
  /// `gpus` of the job's GPUs compute at `gpu_share` from `start` until `end`.
  void busy(JobIndex job, Time start, Time end, std::size_t gpus, double gpu_share);
  /// Those told to compute until `planned_end` stop at `now` (nothing when
  /// not after `now`); also right after the run's end, which the engine tells first.
  void busy_cut(JobIndex job, Time planned_end, Time now, std::size_t gpus, double gpu_share);
  /// The job's run ended; `lost_share` of what it drew was thrown away
  /// (a preempted run's lost over held GPU time, 1 for a failed run). Nothing without a run going.
  void run_ended(JobIndex job, Time now, double lost_share);
  /// The report of a run that ended at `end` (runs still going end there). Call once.
  EnergyReport finish(Time end);

 private:
  // A job's run going, or its last one (a cut may follow its end).
  struct OpenRun {
    bool open = false;
    bool ran = false;
    Time since = 0;
    double held_watts = 0;      // the job's shares of its GPUs' communicating draw
    double idle_watts = 0;      // the same shares' idle draw
    double busy_extra = 0;      // per computing GPU at share 1: mean busy - communicating draw
    double busy_joules = 0;     // busy intervals' extra, told so far
    double held_gpus = 0;       // GPUs held, shares counted
    double lost_share = 0;      // once ended: the share of it thrown away
    std::vector<NodeId> nodes;  // its nodes, when nodes sleep
  };
  // What each of `gpus` (the job's ranks) draws computing for `job` under `limit` (0: none), or
  // under its power plan; notes the plan's states.
  std::vector<double> busy_watts_of(JobIndex job, const std::vector<GpuId>& gpus, double limit,
                                    const PlannedPipeline* power_plan);
  // `node` slept from `from` to `to`: its sleep draw instead of its awake one.
  void slept(NodeId node, Time from, Time to);
  void change(Time at, double watts) { changes_.emplace_back(at, watts); }

  const std::vector<JobSpec>& jobs_;
  PowerModel power_;
  std::vector<OpenRun> open_;
  EnergyReport report_;
  double held_idle_joules_ = 0;                           // idle draw of what jobs held
  std::optional<NodeSleepClock> sleep_;                   // when nodes sleep
  double slept_base_joules_ = 0, slept_idle_joules_ = 0;  // the awake draw sleeping nodes did not draw
  std::vector<std::pair<Time, double>> changes_;          // power changes, watts, in any order
};

}  // namespace gcsim
