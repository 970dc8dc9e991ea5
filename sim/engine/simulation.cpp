#include "sim/engine/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <queue>
#include <variant>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/input_error.hpp"
#include "sim/core/scheduler_state.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/dag_run.hpp"
#include "sim/engine/instant_guard.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/thrashing_guard.hpp"
#include "sim/model/checkpoint_model.hpp"
#include "sim/model/dag_schedule.hpp"
#include "sim/model/duration_oracle.hpp"
#include "sim/model/placement_costs.hpp"
#include "sim/report/run_recorder.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);

struct RunningJob {
  explicit RunningJob(std::optional<JobActivityPlan> activity_plan) : plan(std::move(activity_plan)) {}
  std::optional<JobActivityPlan> plan;  // none for a DAG job, which runs its own workers
  std::unique_ptr<DagRun> dag;
  std::vector<sg4::Host*> hosts;  // ring order
  std::uint64_t step = 0;
  // The activities of the current step. Only one of them, the sentinel, is
  // waited on: a step is done when all are, so the others are merely tested
  // once the sentinel completes. The wait set then holds one activity per
  // running job, not one per GPU.
  std::vector<sg4::ActivityPtr> activities;
  std::size_t sentinel = 0;
  std::size_t slot = kNoSlot;  // index of the sentinel in the wait set
  Time started = 0;
  Time work_started = 0;  // after the restore delay, if any
  Time work_seconds = 0;  // the run's work alone on its GPUs, for checkpoint accounting
  // Busy intervals of the current computation step, for a preemption: when
  // its GPUs stop computing, and how many GPUs stop then.
  std::vector<std::pair<Time, std::size_t>> busy_ends;
  // Per host (ring order): its GPU type's FLOPs per iteration over the job's
  // flops_per_iteration (1 unless a throughput table says the model runs
  // otherwise on that type; always 1 for a measured run).
  std::vector<double> compute_scale;
};

struct Timer {
  Time at;
  std::uint64_t sequence;  // FIFO among equal times, for determinism
  JobIndex job;            // kNoJob: a wake-up the policy asked for
  std::uint32_t epoch;     // the job's epoch when set; a preemption bumps it
  bool operator>(const Timer& other) const {
    return at != other.at ? at > other.at : sequence > other.sequence;
  }
};

// Each job's whole work in GPU-seconds: its uncontended run time x GPUs x share.
std::vector<double> gpu_seconds_needed(const SimulationInput& input, const SchedulerState& state) {
  std::vector<double> need(input.jobs.size());
  for (JobIndex j = 0; j < need.size(); ++j)
    need[j] = state.oracle_duration(j) * static_cast<double>(input.jobs[j].gpus) * input.jobs[j].gpu_share;
  return need;
}

// The body of the single scheduler actor; see simulation.hpp.
class Scheduler {
 public:
  Scheduler(const SimulationInput& input, const SimGridPlatform& platform, ActorFailure& failure)
      : in_(input),
        platform_(platform),
        failure_(failure),
        state_(input.layout, input.locality, input.jobs, uncontended_durations(input.jobs, input.layout)),
        running_(input.jobs.size()),
        epoch_(input.jobs.size(), 0),
        rescaled_(input.jobs.size(), false),
        thrashing_guard_(gpu_seconds_needed(input, state_)),
        recorder_(input.jobs.size(), input.layout.gpu_count()) {
    arrivals_.resize(input.jobs.size());
    for (JobIndex j = 0; j < arrivals_.size(); ++j) arrivals_[j] = j;
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [&](JobIndex a, JobIndex b) { return input.jobs[a].submit < input.jobs[b].submit; });
  }

  /// Throws what made the run fail (simulate() hands it to its caller).
  void run() {
    try {
      loop();
    } catch (const simgrid::ForcefulKillException&) {
      throw;
    } catch (...) {
      abandon();
      throw;
    }
    // Jobs still running when the run ends (--until, or a run stopped by a
    // guard): their runs so far count as held, their busy intervals end now.
    for (JobIndex job = 0; job < running_.size(); ++job)
      if (running_[job]) {
        recorder_.run_cut(held_gpu_seconds(job));
        cancel_step(job);
      }
    wait_set_.clear();
    slot_job_.clear();
  }

  RunRecord finish_record() { return recorder_.finish(now_, state_); }

 private:
  void loop() {
    bool changed = false;
    while (true) {
      now_ = std::max(now_, sg4::Engine::get_clock());
      if (now_ >= in_.options.until) return;
      while (next_arrival_ < arrivals_.size() && in_.jobs[arrivals_[next_arrival_]].submit <= now_) {
        thrashing_guard_.submitted(arrivals_[next_arrival_], now_);
        state_.submit(arrivals_[next_arrival_++]);
        recorder_.job_submitted(now_);
        changed = true;
      }
      while (!timers_.empty() && timers_.top().at <= now_) {
        const Timer timer = timers_.top();
        timers_.pop();
        recorder_.event_handled();
        if (timer.job == kNoJob) {
          changed = true;
        } else if (timer.epoch == epoch_[timer.job]) {
          changed |= step_completed(timer.job);
        }
      }
      if (changed) {
        // Everything else completing at this instant reaches the policy in the same call.
        while (!wait_set_.empty()) {
          const ssize_t index = sg4::Activity::wait_any_for(wait_set_, 0);
          if (index < 0) break;
          changed |= sentinel_completed(static_cast<std::size_t>(index));
        }
        call_policy();
        changed = false;
        if (deadlocked() || stopped_by_a_guard()) return;
      }

      Time next = in_.options.until;
      if (next_arrival_ < arrivals_.size()) next = std::min(next, in_.jobs[arrivals_[next_arrival_]].submit);
      if (!timers_.empty()) next = std::min(next, timers_.top().at);
      if (wait_set_.empty()) {
        if (next == kNever) return;  // nothing can happen any more
        sg4::this_actor::sleep_until(next);
        now_ = std::max(sg4::Engine::get_clock(), next);
        continue;
      }
      const double timeout = next == kNever ? -1.0 : std::max(0.0, next - now_);
      const ssize_t index = sg4::Activity::wait_any_for(wait_set_, timeout);
      if (index >= 0) {
        changed = sentinel_completed(static_cast<std::size_t>(index));
      } else {
        // Timed out: `next` is due, whatever rounding the clock went through.
        now_ = std::max(sg4::Engine::get_clock(), next);
      }
    }
  }

  // The waited-on activity of a job's step completed. Returns true when that
  // ended the job (the policy must run).
  bool sentinel_completed(std::size_t slot) {
    const JobIndex job = slot_job_[slot];
    RunningJob& run = *running_[job];
    now_ = std::max(now_, sg4::Engine::get_clock());
    recorder_.event_handled();
    // The rest of the step's activities that are already done need no wait.
    while (++run.sentinel < run.activities.size() && run.activities[run.sentinel]->test())
      recorder_.event_handled();
    if (run.sentinel < run.activities.size()) {
      wait_set_[slot] = run.activities[run.sentinel];
      return false;
    }
    return step_completed(job);
  }

  bool step_completed(JobIndex job) {
    RunningJob& run = *running_[job];
    run.activities.clear();
    if (run.plan && ++run.step < run.plan->step_count()) {
      start_step(job);
      return false;
    }
    leave_wait_set(run);
    const double held = held_gpu_seconds(job);
    thrashing_guard_.finished(job, state_.runtime(job).saved_fraction, now_);
    state_.finish(job, now_);
    recorder_.job_finished(job, now_, run.hosts.size(), in_.jobs[job].gpu_share, held);
    running_[job].reset();
    return true;
  }

  void start_step(JobIndex job) {
    RunningJob& run = *running_[job];
    const JobStep step = run.plan->step(run.step);
    const std::size_t n = run.hosts.size();
    const double share = in_.jobs[job].gpu_share;
    run.sentinel = 0;
    run.busy_ends.clear();
    switch (step.kind) {
      case JobStep::Kind::kCompute:
        for (std::size_t i = 0; i < n; ++i) {
          sg4::Host* host = run.hosts[i];
          const double amount = step.amount * run.compute_scale[i];
          sg4::ExecPtr exec = sg4::Exec::init();
          exec->set_flops_amount(amount)->set_host(host);
          // A fractional job is held to its share of the GPU; the shares on a
          // GPU add up to at most 1, so each gets its bound.
          if (share < 1) exec->set_bound(share * host->get_speed());
          exec->start();
          run.activities.push_back(exec);
          // The GPU gives this job nothing but its share, so its busy interval is known now.
          add_busy_end(run, now_ + amount / (host->get_speed() * share));
        }
        // One interval per distinct end, not per GPU: a job preempted over and
        // over would otherwise fill memory with the intervals of its GPUs.
        for (const auto& [end, gpus] : run.busy_ends) recorder_.busy(now_, end, gpus, share);
        break;
      case JobStep::Kind::kRingStep: {
        // At least one byte: SimGrid 3.32 never completes a zero-byte host-to-host transfer.
        const auto bytes = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(step.amount)));
        for (std::size_t i = 0; i < n; ++i)
          run.activities.push_back(sg4::Comm::sendto_async(run.hosts[i], run.hosts[(i + 1) % n], bytes));
        break;
      }
      case JobStep::Kind::kDelay:
        leave_wait_set(run);
        timers_.push({now_ + step.amount, timer_sequence_++, job, epoch_[job]});
        return;
    }
    enter_wait_set(job);
  }

  // The job's first activity becomes its sentinel in the wait set.
  void enter_wait_set(JobIndex job) {
    RunningJob& run = *running_[job];
    if (run.slot == kNoSlot) {
      run.slot = wait_set_.size();
      wait_set_.push_back(run.activities.front());
      slot_job_.push_back(job);
    } else {
      wait_set_[run.slot] = run.activities.front();
    }
  }

  void leave_wait_set(RunningJob& run) {
    if (run.slot == kNoSlot) return;
    const std::size_t last = wait_set_.size() - 1;
    if (run.slot != last) {
      wait_set_[run.slot] = std::move(wait_set_[last]);
      slot_job_[run.slot] = slot_job_[last];
      running_[slot_job_[run.slot]]->slot = run.slot;
    }
    wait_set_.pop_back();
    slot_job_.pop_back();
    run.slot = kNoSlot;
  }

  // One more GPU of a computation step computing until `end` (GPUs of one type end together).
  static void add_busy_end(RunningJob& run, Time end) {
    for (auto& [at, gpus] : run.busy_ends)
      if (at == end) {
        ++gpus;
        return;
      }
    run.busy_ends.emplace_back(end, 1);
  }

  // Cancels what the job's current step still runs, and ends its busy intervals now.
  void cancel_step(JobIndex job) {
    RunningJob& run = *running_[job];
    if (run.dag) run.dag->cancel();
    for (const auto& activity : run.activities) activity->cancel();
    for (const auto& [end, gpus] : run.busy_ends) recorder_.busy_cut(end, now_, gpus, in_.jobs[job].gpu_share);
    run.activities.clear();
    run.busy_ends.clear();
  }

  // Jobs hold GPUs while waiting for more, no job runs and no timer is set:
  // no GPU will ever be freed (later submissions only take GPUs), so they wait
  // on each other forever. A policy that resolves such waits does it with a
  // wake-up (a timeout), which keeps this from firing.
  bool deadlocked() {
    if (!state_.running().empty() || !timers_.empty()) return false;
    std::vector<JobIndex> holders = state_.holding();
    if (holders.empty()) return false;
    recorder_.deadlocked(DeadlockReport{now_, std::move(holders)});
    return true;
  }

  // The guards' verdicts (instant_guard.hpp, thrashing_guard.hpp): the run
  // stops here, its record saying why.
  bool stopped_by_a_guard() {
    if (std::optional<LivelockReport> livelock = instant_guard_.livelock()) {
      recorder_.livelocked(std::move(*livelock));
      return true;
    }
    if (std::optional<ThrashingReport> thrashing = thrashing_guard_.thrashing(now_)) {
      recorder_.thrashed(std::move(*thrashing));
      return true;
    }
    return false;
  }

  // What the policy throws is its failure (PolicyFailed), except running out
  // of memory, which is the machine's, and an error in the user's input that
  // the policy found (a job naming a queue it does not have).
  void ask_policy(Plan& plan) {
    SchedulingContext context{now_, state_, state_};
    try {
      in_.policy.schedule(context, plan);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const InputError&) {
      throw;
    } catch (const simgrid::ForcefulKillException&) {
      throw;
    } catch (const std::exception& e) {
      throw PolicyFailed("policy '" + std::string(in_.policy.name()) + "' failed at t=" + std::to_string(now_) +
                         " s: " + e.what());
    } catch (...) {
      throw PolicyFailed("policy '" + std::string(in_.policy.name()) + "' failed at t=" + std::to_string(now_) +
                         " s: it threw something other than a std::exception");
    }
  }

  void call_policy() {
    instant_guard_.begin_call(now_);
    Plan plan;
    ask_policy(plan);
    const double allocated_before = state_.allocated_gpus();
    const std::size_t queued_before = state_.waiting().size();
    const SchedulerState::Applied applied = state_.apply(plan, now_);
    instant_guard_.record(plan);
    // Starts, partial holds, releases and preemptions, all at once.
    recorder_.allocation_changed(
        now_, state_.allocated_gpus() - allocated_before,
        static_cast<std::int64_t>(state_.waiting().size()) - static_cast<std::int64_t>(queued_before));
    for (JobIndex job : applied.preempted) stop(job);
    for (JobIndex job : applied.started) launch(job);
    if (plan.wake_time() > now_ && plan.wake_time() != kNever)
      timers_.push({plan.wake_time(), timer_sequence_++, kNoJob, 0});
  }

  void launch(JobIndex job) {
    const JobSpec& spec = in_.jobs[job];
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    if (const auto* dag = std::get_if<DagWork>(&spec.work)) return launch_dag(job, *dag);
    PlacementCosts costs = placement_costs(spec, gpus, in_.layout, in_.locality);
    if (costs.rescaled && !rescaled_[job]) {
      rescaled_[job] = true;
      recorder_.job_rescaled();
    }
    // A job resuming from a checkpoint runs the rest of its work after restoring.
    const double saved = state_.runtime(job).saved_fraction;
    const Time restore = saved > 0 ? spec.checkpoint.restore_cost : 0;
    JobActivityPlan plan(spec, in_.options.fidelity, costs.measured_type_flops, costs.ring_latency, 1 - saved,
                         restore, in_.options.job_rounds);
    const Time work_seconds = plan.uncontended_work_seconds(costs.slowest_gpu_flops, costs.ring_bandwidth);
    plan.add_trailing_delay(checkpoint_overhead(spec.checkpoint, work_seconds));

    RunningJob& run = begin_run(job, std::move(plan));
    run.compute_scale = std::move(costs.compute_scale);
    run.work_seconds = work_seconds;
    run.work_started = now_ + restore;
    start_step(job);
  }

  // A job starts running on its allocated GPUs: its hosts and its outcome's start and placement.
  RunningJob& begin_run(JobIndex job, std::optional<JobActivityPlan> plan) {
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    RunningJob& run = running_[job].emplace(std::move(plan));
    for (GpuId g : gpus) run.hosts.push_back(platform_.gpu_hosts[g]);
    run.started = now_;
    recorder_.job_started(job, now_, gpus);
    return run;
  }

  // A DAG job runs its own worker actors; the scheduler waits on its done() activity.
  // Preempted, it starts over (no checkpoints of a DAG's progress).
  void launch_dag(JobIndex job, const DagWork& dag) {
    RunningJob& run = begin_run(job, std::nullopt);
    run.work_seconds = dag_list_schedule_seconds(dag, slowest_gpu_flops(in_.layout, state_.runtime(job).gpus));
    run.work_started = now_;
    const std::string name = "dag-" + std::to_string(job) + "-" + std::to_string(epoch_[job]);
    run.dag = std::make_unique<DagRun>(
        dag, run.hosts, platform_.gpu_hosts.front(), name,
        [this](double start, double end) {
          if (recording_) recorder_.busy(start, end, 1, 1.0);
        },
        failure_);
    run.activities.push_back(run.dag->done());
    enter_wait_set(job);
  }

  void stop(JobIndex job) {
    ++epoch_[job];  // its pending timer, if any, is now stale
    RunningJob& run = *running_[job];
    // It keeps the work up to its last checkpoint (none: it starts over).
    const JobSpec& spec = in_.jobs[job];
    const RunProgress progress = progress_at_preemption(spec.checkpoint, run.work_seconds, now_ - run.work_started);
    const double saved_before = state_.runtime(job).saved_fraction;
    // No checkpoint is taken at the very end of the work, so some work always remains.
    const double kept_of_run = run.work_seconds > 0 ? progress.kept_work_seconds / run.work_seconds : 0;
    const double saved_after = saved_before + (1 - saved_before) * kept_of_run;
    state_.set_saved_fraction(job, saved_after);
    const double lost = progress.lost_seconds * static_cast<double>(run.hosts.size()) * spec.gpu_share;
    recorder_.job_preempted(held_gpu_seconds(job), lost, saved_after == 0);
    thrashing_guard_.preempted(job, saved_before, saved_after, lost);
    cancel_step(job);
    leave_wait_set(run);
    running_[job].reset();
  }

  // GPU time the job's current run has held so far.
  double held_gpu_seconds(JobIndex job) const {
    const RunningJob& run = *running_[job];
    return (now_ - run.started) * static_cast<double>(run.hosts.size()) * in_.jobs[job].gpu_share;
  }

  // After a failure: stops every activity and worker, recording nothing (the
  // record is dropped, and memory may be what ran out).
  void abandon() {
    recording_ = false;
    try {
      for (auto& run : running_) {
        if (!run) continue;
        if (run->dag) run->dag->cancel();
        for (const auto& activity : run->activities) activity->cancel();
      }
    } catch (const simgrid::ForcefulKillException&) {
      throw;
    } catch (...) {
      // The failure being reported is the first one.
    }
  }

  const SimulationInput& in_;
  const SimGridPlatform& platform_;
  ActorFailure& failure_;
  SchedulerState state_;
  std::vector<std::optional<RunningJob>> running_;
  std::vector<std::uint32_t> epoch_;
  std::vector<bool> rescaled_;  // jobs counted in RunRecord::rescaled_jobs
  std::vector<JobIndex> arrivals_;
  std::size_t next_arrival_ = 0;
  std::vector<sg4::ActivityPtr> wait_set_;  // one sentinel per running job in a step with activities
  std::vector<JobIndex> slot_job_;          // the job of each wait-set entry
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::uint64_t timer_sequence_ = 0;
  bool recording_ = true;  // false once the run failed
  InstantGuard instant_guard_;
  ThrashingGuard thrashing_guard_;
  RunRecorder recorder_;
  Time now_ = 0;
};

}  // namespace

RunRecord simulate(const SimulationInput& input) {
  // SimGrid reads its own options from argv; keep its console quiet but for warnings.
  std::string program = "gcsim", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv);
  configure_network_model(input.layout.spec().network);
  const SimGridPlatform platform = build_platform(input.layout);

  ActorFailure failure;
  Scheduler scheduler(input, platform, failure);
  sg4::Actor::create("scheduler", platform.gpu_hosts.front(), guarded(failure, [&scheduler] { scheduler.run(); }));
  const auto started = std::chrono::steady_clock::now();
  engine.run();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
  if (failure.first) std::rethrow_exception(failure.first);

  RunRecord record = scheduler.finish_record();
  record.policy = std::string(input.policy.name());
  record.fidelity = std::string(to_string(input.options.fidelity));
  record.seed = input.options.seed;
  record.cluster_name = input.layout.spec().name;
  record.wall_seconds = wall.count();
  return record;
}

}  // namespace gcsim
