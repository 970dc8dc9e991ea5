#include "sim/engine/job_runs.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "sim/core/overloaded.hpp"
#include "sim/model/checkpoint_model.hpp"
#include "sim/model/dag_schedule.hpp"
#include "sim/model/input_pipeline.hpp"
#include "sim/model/placement_costs.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

// A run on GPUs names no CPU node.
const std::vector<NodeId> kNoNodes;

}  // namespace

JobRuns::JobRuns(EngineContext& engine, CpuDispatch& cpu, ServingDeployments& serving)
    : engine_(engine),
      cpu_(cpu),
      serving_(serving),
      running_(engine.in.jobs.size()),
      epoch_(engine.in.jobs.size(), 0),
      rescaled_(engine.in.jobs.size(), false),
      timers_(engine, *this, running_, epoch_),
      runners_(engine, *this, timers_),
      wake_(engine.in.layout, engine.in.jobs.size()) {
  if (wake_.any()) engine_.events.subscribe(wake_);
}

SchedulerState::Applied JobRuns::apply_plan(const Plan& plan, double* lost_gpu_seconds, bool crashed) {
  SchedulerState& state = engine_.state;
  const double allocated_before = state.allocated_gpus();
  const std::size_t queued_before = state.waiting().size();
  SchedulerState::Applied applied = state.apply(plan, engine_.now);
  engine_.events.allocation_changed(
      {engine_.now, state.allocated_gpus() - allocated_before,
       static_cast<std::int64_t>(state.waiting().size()) - static_cast<std::int64_t>(queued_before)});
  double lost = 0;
  for (JobIndex job : applied.preempted) lost += preempt(job, crashed);
  if (lost_gpu_seconds) *lost_gpu_seconds = lost;
  return applied;
}

void JobRuns::launch(JobIndex job) {
  std::visit(
      Overloaded{[&](const TrainingWork&) { launch_steps(job); }, [&](const MeasuredWork&) { launch_steps(job); },
                 [&](const NotebookWork&) { launch_steps(job); }, [&](const PhasedWork&) { launch_steps(job); },
                 [&](const DagWork& dag) { launch_dag(job, dag); },
                 [&](const ServingWork&) {
                   const ServingController* deployment = serving_.of(job);
                   assert(deployment && "a replica belongs to its deployment");
                   launch_replica(job, *deployment);
                 },
                 [](const CpuWork&) { throw std::logic_error("a CPU job holds no GPU: the CPU dispatch starts it"); }},
      engine_.in.jobs[job].work);
}

void JobRuns::launch_on_cores(JobIndex job) {
  std::visit(Overloaded{[&](const DagWork& dag) { launch_cpu_dag(job, dag); },
                        // The dispatch times its end: its cores are its whole run.
                        [](const CpuWork&) {},
                        // Its deployment ends it or lets it go: its cores are its whole run.
                        [](const ServingWork&) {},
                        [](const TrainingWork&) { throw std::logic_error("a training job runs on GPUs, not cores"); },
                        [](const MeasuredWork&) { throw std::logic_error("a measured run is on GPUs, not cores"); },
                        [](const NotebookWork&) { throw std::logic_error("a notebook holds GPUs, not cores"); },
                        [](const PhasedWork&) { throw std::logic_error("a phased job runs on GPUs, not cores"); }},
             engine_.in.jobs[job].work);
}

void JobRuns::launch_steps(JobIndex job) {
  const JobSpec& spec = engine_.in.jobs[job];
  const std::vector<GpuId>& gpus = engine_.state.runtime(job).gpus;
  const SimulationOptions& options = engine_.in.options;
  const ClusterLayout& layout = engine_.in.layout;
  PlacementCosts costs =
      placement_costs(spec, gpus, layout, engine_.in.locality, engine_.state.runtime(job).power_limit_watts,
                      /*cpu_hosts_send=*/!engine_.platform.cpu_hosts.empty());
  const bool rescaled = costs.rescaled && !rescaled_[job];
  if (rescaled) rescaled_[job] = true;
  // A job resuming from a checkpoint runs the rest of its work after restoring.
  const double saved = engine_.state.runtime(job).saved_fraction;
  // So does one on a sleeping node, after it wakes.
  const Time wake = wake_.any() ? wake_.wake_delay(gpus, engine_.now) : 0;
  const Time restore = (saved > 0 ? spec.checkpoint.restore_cost : 0) + wake;
  // Its start-up latency, then the wake-up and the restore: one leading delay before the work.
  const Time startup = startup_latency(job);
  JobActivityPlan plan(spec, options.fidelity, costs.measured_type_flops, costs.exchange_latency, 1 - saved,
                       startup + restore, options.job_rounds, costs.hierarchy, costs.phases);
  std::vector<NodeDecoding> decoding = node_decoding(spec, gpus, layout);
  plan.set_decode_seconds(decode_seconds_alone(decoding, layout));
  const Time work_seconds = plan.uncontended_work_seconds(costs.slowest_gpu_flops, costs.exchange_bandwidth);
  plan.add_trailing_delay(checkpoint_overhead(spec.checkpoint, work_seconds));
  const Time synthetic_seconds = plan.synthetic_work_seconds(costs.slowest_gpu_flops, costs.exchange_bandwidth);

  RunningJob& run = begin_run(job, std::move(plan), rescaled, costs.power_plan ? &*costs.power_plan : nullptr);
  run.decoding = std::move(decoding);
  run.synthetic_seconds = synthetic_seconds;
  run.compute_scale = std::move(costs.compute_scale);
  run.pushes = std::move(costs.pushes);
  run.phase_flows = std::move(costs.phase_flows);
  run.intra_node_step = std::move(costs.intra_node_step);
  run.inter_node_step = std::move(costs.inter_node_step);
  run.work_seconds = work_seconds;
  run.work_started = engine_.now + startup + restore;
  // A notebook computes nothing: its bursts are timers at any share.
  if (run.plan->without_transfers() && (run.computes_on_timers() || !run.plan->computes())) {
    timers_.run(job);
  } else {
    runners_.start(job);
  }
}

Time JobRuns::startup_latency(JobIndex job) {
  const StartupLatency& latency = engine_.in.options.startup_latency;
  if (!latency.enabled()) return 0;
  // The runs before this one each ended in a stop that counted the epoch up.
  const Time seconds = latency.draw(job, epoch_[job]);
  if (first_startup_.empty()) first_startup_.assign(engine_.in.jobs.size(), 0);
  if (epoch_[job] == 0) first_startup_[job] = seconds;
  return seconds;
}

RunningJob& JobRuns::begin_run(JobIndex job, std::optional<JobActivityPlan> plan, bool rescaled,
                               const PlannedPipeline* power_plan) {
  const std::vector<GpuId>& gpus = engine_.state.runtime(job).gpus;
  running_[job] = std::make_unique<RunningJob>(std::move(plan));
  RunningJob& run = *running_[job];
  run.hosts.reserve(gpus.size());
  run.host_speeds.reserve(gpus.size());
  for (GpuId g : gpus) {
    run.hosts.push_back(engine_.platform.gpu_hosts[g]);
    run.host_speeds.push_back(run.hosts.back()->get_speed());
  }
  run.gpu_share = engine_.in.jobs[job].gpu_share;
  run.job = job;
  run.started = engine_.now;
  engine_.events.started({job, engine_.now, gpus, kNoNodes, rescaled, serving_.is_replica(job),
                          engine_.state.runtime(job).power_limit_watts, power_plan});
  return run;
}

void JobRuns::launch_replica(JobIndex job, const ServingController& deployment) {
  RunningJob& run = begin_run(job, std::nullopt, false);
  run.work_started = engine_.now;
  const Time end = deployment.end_time();
  run.busy_ends.emplace_back(end, run.hosts.size());
  engine_.events.busy({engine_.now, end, run.hosts.size(), run.gpu_share, job});
}

void JobRuns::launch_dag(JobIndex job, const DagWork& dag) {
  RunningJob& run = begin_run(job, std::nullopt, false);
  const std::vector<GpuId>& gpus = engine_.state.runtime(job).gpus;
  run.work_seconds = dag_list_schedule_seconds(dag, slowest_gpu_flops(engine_.in.layout, gpus));
  run.work_started = engine_.now;
  std::vector<sg4::Host*> workers;
  std::size_t next_gpu = 0, next_cpu = 0;
  for (const DagPool& pool : dag.pools)
    for (std::uint32_t w = 0; w < pool.workers; ++w)
      workers.push_back(pool.cpu ? engine_.platform.cpu_hosts[engine_.in.layout.node_of(gpus[next_cpu++ % gpus.size()])]
                                 : run.hosts[next_gpu++]);
  start_dag_run(job, dag, workers);
}

void JobRuns::launch_cpu_dag(JobIndex job, const DagWork& dag) {
  running_[job] = std::make_unique<RunningJob>(std::nullopt);
  RunningJob& run = *running_[job];
  run.started = engine_.now;
  run.work_started = engine_.now;
  run.work_seconds = dag_list_schedule_seconds(dag, 1.0);  // CPU tasks have no FLOPs
  std::vector<sg4::Host*> workers;
  for (const CpuShare& share : engine_.state.cpu_job_placement(job))
    workers.insert(workers.end(), share.workers, engine_.platform.cpu_hosts[share.node]);
  start_dag_run(job, dag, workers);
}

void JobRuns::start_dag_run(JobIndex job, const DagWork& dag, const std::vector<sg4::Host*>& workers) {
  RunningJob& run = *running_[job];
  const std::string name = "dag-" + std::to_string(job) + "-" + std::to_string(epoch_[job]);
  run.dag = std::make_unique<DagRun>(
      dag, workers, engine_.platform.control_host(), name,
      [this, job](double start, double end) {
        ++engine_.wakes;  // a worker back from its execution (see SchedulerLoop::settle())
        if (recording_) engine_.events.busy({start, end, 1, 1.0, job});
      },
      [this, job] {
        if (engine_.stopped) return;
        engine_.events.events_handled();
        steps_done(job);
      },
      engine_.failure);
}

void JobRuns::steps_done(JobIndex job) {
  ended_.push_back(job);
  engine_.doorbell.ring();
}

const std::vector<JobIndex>& JobRuns::finish_ended() {
  finished_.swap(ended_);
  ended_.clear();
  std::sort(finished_.begin(), finished_.end());
  for (JobIndex job : finished_) finish(job);
  return finished_;
}

void JobRuns::finish(JobIndex job) {
  const RunningJob& run = *running_[job];
  const JobSpec& spec = engine_.in.jobs[job];
  const Time now = engine_.now;
  if (runs_on_cpu(spec)) {  // a DAG of CPU workers: its cores, not GPUs
    engine_.events.finished({job, now, 0, 1.0, 0, 0, /*on_cpu=*/true});
    cpu_.finish(engine_.state, job, now);
    running_[job].reset();
    return;
  }
  JobFinished finished{
      job, now, run.hosts.size(), spec.gpu_share, held_gpu_seconds(job), engine_.state.runtime(job).saved_fraction};
  // A training job's iterations per second over its last run, alone on
  // synthetic data and as it went (its work's time: restore and checkpoints
  // left out).
  if (run.plan && run.plan->trains() && run.plan->iterations() > 0) {  // a DAG has no plan
    const auto iterations = static_cast<double>(run.plan->iterations());
    const Time worked = now - run.work_started - run.plan->trailing_delay();
    finished.speeds = true;
    finished.synthetic_iterations_per_s = run.synthetic_seconds > 0 ? iterations / run.synthetic_seconds : 0;
    finished.real_iterations_per_s = worked > 0 ? iterations / worked : 0;
  }
  engine_.events.finished(finished);
  engine_.state.finish(job, now);
  running_[job].reset();
}

void JobRuns::fail(JobIndex job, Failure failure) {
  const RunningJob& run = *running_[job];
  const double held = held_gpu_seconds(job);
  ++epoch_[job];
  engine_.events.failed({job, engine_.now, failure, kNoJob, run.hosts.size(), engine_.in.jobs[job].gpu_share, held,
                         engine_.state.runtime(job).saved_fraction, serving_.is_replica(job)});
  engine_.state.fail(job, engine_.now);
  cut_run(job);
}

// `crashed`: its node failed, and it had no time to save its work (only its
// periodic checkpoints count).
double JobRuns::preempt(JobIndex job, bool crashed) {
  const Time now = engine_.now;
  ++epoch_[job];  // its next run's DAG actors get other names
  if (serving_.is_replica(job)) {
    // A replica loses no work, only the time it will take to start again.
    RunPreempted preempted{job, now, false, true, held_gpu_seconds(job)};
    engine_.events.preempted(preempted);
    cut_run(job);
    return 0;
  }
  RunningJob& run = *running_[job];
  // It keeps the work up to its last checkpoint (none: it starts over).
  const JobSpec& spec = engine_.in.jobs[job];
  CheckpointSpec checkpoint = spec.checkpoint;
  if (crashed) checkpoint.at_preemption = false;
  const RunProgress progress = progress_at_preemption(checkpoint, run.work_seconds, now - run.work_started);
  const double saved_before = engine_.state.runtime(job).saved_fraction;
  const double kept_of_run = run.work_seconds > 0 ? progress.kept_work_seconds / run.work_seconds : 0;
  // No periodic checkpoint is taken at the very end of the work. A save at
  // preemption may count it all done (slowed by contention, the run had not
  // ended); the run still has something left, its last iteration.
  const double saved_after = std::min(saved_before + (1 - saved_before) * kept_of_run, std::nextafter(1.0, 0.0));
  engine_.state.set_saved_fraction(job, saved_after);
  const double lost = progress.lost_seconds * static_cast<double>(run.hosts.size()) * spec.gpu_share;
  engine_.events.preempted(
      {job, now, false, false, held_gpu_seconds(job), lost, saved_before, saved_after, saved_after == 0});
  cut_run(job);
  return lost;
}

void JobRuns::stop_on_cpu(JobIndex job) {
  if (!running_[job]) return;
  ++epoch_[job];  // its next run's DAG actors get other names
  cut_run(job);
}

void JobRuns::withdraw(JobIndex job) {
  SchedulerState& state = engine_.state;
  if (runs_on_cpu(engine_.in.jobs[job])) {
    engine_.events.stopped({job, engine_.now, RunStopped::Why::kWithdrawn, false, 0});
    return cpu_.withdraw(state, job, engine_.now);
  }
  const double allocated_before = state.allocated_gpus();
  const std::size_t queued_before = state.waiting().size();
  const bool running = state.runtime(job).state == JobState::kRunning;
  engine_.events.stopped({job, engine_.now, RunStopped::Why::kWithdrawn, running, running ? held_gpu_seconds(job) : 0});
  state.withdraw(job, engine_.now);
  if (running) cut_run(job);
  engine_.events.allocation_changed(
      {engine_.now, state.allocated_gpus() - allocated_before,
       static_cast<std::int64_t>(state.waiting().size()) - static_cast<std::int64_t>(queued_before)});
}

void JobRuns::end_replicas(const ServingController& deployment) {
  SchedulerState& state = engine_.state;
  const JobIndex first = deployment.first_job();
  for (JobIndex job = first; job < first + deployment.job_count(); ++job) {
    const Time now = engine_.now;  // a cut run lets other actors run, which may advance it
    switch (state.runtime(job).state) {
      case JobState::kRunning:
        if (runs_on_cpu(engine_.in.jobs[job])) {
          engine_.events.finished({job, now, 0, 1.0, 0, 0, true, true});
          cpu_.finish(state, job, now);
          break;
        }
        engine_.events.finished({job, now, running_[job]->hosts.size(), engine_.in.jobs[job].gpu_share,
                                 held_gpu_seconds(job), state.runtime(job).saved_fraction, false, true});
        state.finish(job, now);
        cut_run(job);
        break;
      case JobState::kWaiting:
        withdraw(job);
        engine_.events.retired({job, now});
        state.retire(job, now);
        break;
      case JobState::kPending:
        engine_.events.retired({job, now});
        state.retire(job, now);
        break;
      default:
        break;
    }
  }
}

void JobRuns::cut_all() {
  for (JobIndex job = 0; job < running_.size(); ++job)
    if (running_[job]) {
      // A DAG of CPU workers holds no GPU.
      const bool on_gpus = !runs_on_cpu(engine_.in.jobs[job]);
      engine_.events.stopped(
          {job, engine_.now, RunStopped::Why::kSimulationEnd, on_gpus, on_gpus ? held_gpu_seconds(job) : 0});
      cancel_step(job);
    }
  runners_.dismiss_idle();
}

void JobRuns::abandon() {
  recording_ = false;
  runners_.dismiss_idle();
  for (auto& run : running_) {
    if (!run) continue;
    if (run->dag) run->dag->cancel();
    for (const auto& activity : run->activities) activity->cancel();
  }
}

void JobRuns::cut_run(JobIndex job) {
  cancel_step(job);
  ended_.erase(std::remove(ended_.begin(), ended_.end(), job), ended_.end());
  running_[job].reset();
}

void JobRuns::cancel_step(JobIndex job) {
  RunningJob& run = *running_[job];
  if (run.runner) runners_.interrupt(*run.runner);
  if (run.dag) run.dag->cancel();
  for (const auto& activity : run.activities) activity->cancel();
  for (const auto& [end, gpus] : run.busy_ends)
    engine_.events.busy_cut({end, engine_.now, gpus, engine_.in.jobs[job].gpu_share, job});
  run.activities.clear();
  run.activity_transfers.clear();
  run.busy_ends.clear();
}

}  // namespace gcsim
