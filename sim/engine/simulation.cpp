#include "sim/engine/simulation.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <queue>
#include <string>
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

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

// Stack of a runner actor, KiB: it starts activities and waits on them,
// never runs a policy, so a small stack keeps thousands of running jobs cheap
// (SimGrid's default is 8 MiB per actor).
constexpr unsigned kRunnerStackKiB = 256;

// An actor on the scheduler's host that runs the steps of one job at a time.
// Idle, it waits for its next job: there are as many runners as jobs ever ran
// at once, and a job's start costs no actor creation.
struct Runner {
  sg4::ActorPtr actor;
  sg4::SemaphorePtr next_job = sg4::Semaphore::create(0);
  JobIndex job = kNoJob;
};

struct RunningJob {
  explicit RunningJob(std::optional<JobActivityPlan> activity_plan) : plan(std::move(activity_plan)) {}
  std::optional<JobActivityPlan> plan;  // none for a DAG job, which runs its own workers
  std::unique_ptr<DagRun> dag;
  Runner* runner = nullptr;       // running the plan's steps (none for a DAG job, nor once they all ran)
  bool runner_waits_on_activity = false;  // see cancel_step()
  std::vector<sg4::Host*> hosts;  // ring order
  std::uint64_t step = 0;
  // The activities of the current step; it is done when all of them are.
  std::vector<sg4::ActivityPtr> activities;
  Time started = 0;
  Time work_started = 0;  // after the restore delay, if any
  Time work_seconds = 0;  // the run's work alone on its GPUs, for checkpoint accounting
  // Busy intervals of the current computation step, for a preemption: when
  // its GPUs stop computing, and how many share units stop then.
  Time compute_start = 0;
  std::vector<std::pair<Time, std::int64_t>> busy_ends;
  // Per host (ring order): its GPU type's FLOPs per iteration over the job's
  // flops_per_iteration (1 unless a throughput table says the model runs
  // otherwise on that type; always 1 for a measured run).
  std::vector<double> compute_scale;
};

// A change of the allocated or busy GPUs, in millionths of a GPU so that the
// shares of fractional jobs add up exactly. Busy intervals are known when a
// computation starts (a job computes at its own share of the GPU, never
// slowed by the jobs sharing it), so changes may be recorded ahead of time;
// the timeline is assembled from them at the end.
constexpr std::int64_t kShareUnits = 1000000;
static_assert(kSmallestGpuShare * kShareUnits == 1, "the smallest share is one unit");
struct TimelineChange {
  Time time;
  std::int64_t allocated;  // millionths of a GPU
  std::int64_t busy;       // millionths of a GPU
  std::int64_t queued = 0;
};

// A job's GPUs in timeline units: each counts its share.
std::int64_t share_units(std::size_t gpus, double share) {
  return static_cast<std::int64_t>(gpus) * std::llround(share * kShareUnits);
}

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
        thrashing_guard_(gpu_seconds_needed(input, state_)) {
    failure_.stop = [this] { stop_after_failure(); };
    record_.total_gpus = input.layout.gpu_count();
    record_.outcomes.resize(input.jobs.size());
    arrivals_.resize(input.jobs.size());
    for (JobIndex j = 0; j < arrivals_.size(); ++j) arrivals_[j] = j;
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [&](JobIndex a, JobIndex b) { return input.jobs[a].submit < input.jobs[b].submit; });
  }

  /// Throws what made the run fail (simulate() hands it to its caller).
  void run() {
    doorbell_ = sg4::Mailbox::by_name("gcsim-scheduler");
    doorbell_wait_.push_back(doorbell_->get_async<void>(&doorbell_payload_));
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
    // Their runners, woken at this instant after this actor, do nothing more.
    stopped_ = true;
    for (JobIndex job = 0; job < running_.size(); ++job)
      if (running_[job]) {
        record_.run_gpu_seconds += held_gpu_seconds(job);
        cancel_step(job);
      }
    dismiss_idle_runners();
    doorbell_wait_.front()->cancel();
  }

  RunRecord finish_record() {
    for (JobIndex j = 0; j < in_.jobs.size(); ++j) {
      JobOutcome& o = record_.outcomes[j];
      o.state = state_.runtime(j).state;
      o.preemptions = state_.runtime(j).preemptions;
      o.uncontended = state_.oracle_duration(j);
      if (!state_.runtime(j).gpus.empty()) o.gpus = state_.runtime(j).gpus;
    }
    record_.simulated_time = now_;
    record_.timeline = assemble_timeline();
    return std::move(record_);
  }

 private:
  // The scheduler actor: it wakes for arrivals, the policy's wake-ups and job
  // ends (a runner rings the doorbell), and hands everything that happened at
  // one instant to the policy in one call.
  void loop() {
    while (true) {
      rethrow_a_failure();
      advance_clock();
      if (now_ >= in_.options.until) return;
      if (take_changes()) {
        // Everything else happening at this instant reaches the policy in the same call.
        settle();
        rethrow_a_failure();
        take_changes();
        end_jobs();
        call_policy();
        if (deadlocked() || stopped_by_a_guard()) return;
        continue;
      }
      if (!wait_for_next()) return;  // nothing can happen any more
    }
  }

  void advance_clock() { now_ = std::max(now_, sg4::Engine::get_clock()); }

  // An actor failed (ActorFailure::stop): the others do nothing more once
  // they wake, and the scheduler, woken if it waits, rethrows the failure
  // from its loop, cancelling every activity on its way out (abandon()).
  // Killing every actor instead would abort SimGrid (cancel_step()).
  void stop_after_failure() {
    stopped_ = true;
    ring();
  }

  void rethrow_a_failure() const {
    if (failure_.first) std::rethrow_exception(failure_.first);
  }

  // Takes the arrivals and wake-ups due by now. True when they, or the job
  // ends reported since the last policy call, are news for the policy.
  bool take_changes() {
    bool changed = !ended_.empty();
    while (next_arrival_ < arrivals_.size() && in_.jobs[arrivals_[next_arrival_]].submit <= now_) {
      thrashing_guard_.submitted(arrivals_[next_arrival_], now_);
      state_.submit(arrivals_[next_arrival_++]);
      changes_.push_back({now_, 0, 0, 1});
      ++record_.events;
      changed = true;
    }
    while (!wake_ups_.empty() && wake_ups_.top() <= now_) {
      wake_ups_.pop();
      ++record_.events;
      changed = true;
    }
    return changed;
  }

  // Returns once every actor waits on something later than now: every job
  // ending at this instant has reported. A kernel timer at now fires only
  // when no actor can run any more and the clock has taken its (zero) step;
  // runners that this step woke (activities lasting no time) run right after
  // this actor, so after one more round the wake count tells whether to wait
  // again.
  void settle() {
    std::uint64_t seen = 0;
    do {
      seen = wakes_;
      sg4::Activity::wait_any_for(no_activities_, 0);
      sg4::this_actor::yield();
    } while (wakes_ != seen);
  }

  // Blocks until the next arrival or wake-up is due or a runner rings the
  // doorbell. Returns false when nothing can happen any more.
  bool wait_for_next() {
    Time next = in_.options.until;
    if (next_arrival_ < arrivals_.size()) next = std::min(next, in_.jobs[arrivals_[next_arrival_]].submit);
    if (!wake_ups_.empty()) next = std::min(next, wake_ups_.top());
    if (next == kNever && state_.running().empty()) return false;
    const double timeout = next == kNever ? -1.0 : std::max(0.0, next - now_);
    listening_ = true;
    const ssize_t index = sg4::Activity::wait_any_for(doorbell_wait_, timeout);
    listening_ = false;
    if (index >= 0) {
      rung_ = false;
      doorbell_wait_.front() = doorbell_->get_async<void>(&doorbell_payload_);
    } else {
      // Timed out: `next` is due, whatever rounding the clock went through.
      now_ = std::max(sg4::Engine::get_clock(), next);
    }
    return true;
  }

  // A job's steps ran to their end (on its runner, or its DAG's coordinator).
  // The scheduler ends it with the other changes of this instant.
  void report_end(JobIndex job) {
    ended_.push_back(job);
    ring();
  }

  // Wakes the scheduler if it waits on the doorbell.
  void ring() {
    if (!listening_ || rung_) return;
    rung_ = true;
    // From the scheduler's host to itself: no route, so the message arrives
    // at this instant, once every actor waits. Runners and DAG coordinators
    // stand on that host for this reason.
    assert(sg4::this_actor::get_host() == platform_.gpu_hosts.front() && "the doorbell rings from the scheduler's host");
    doorbell_->put_init(this, 0)->detach();
  }

  // The jobs that reported their end, in job order: each is done at this instant.
  void end_jobs() {
    std::sort(ended_.begin(), ended_.end());
    for (JobIndex job : ended_) {
      RunningJob& run = *running_[job];
      record_.run_gpu_seconds += held_gpu_seconds(job);
      thrashing_guard_.finished(job, state_.runtime(job).saved_fraction, now_);
      state_.finish(job, now_);
      record_.outcomes[job].end = now_;
      changes_.push_back({now_, -share_units(run.hosts.size(), in_.jobs[job].gpu_share), 0});
      running_[job].reset();
    }
    ended_.clear();
  }

  // Gives the job to an idle runner, or to a new one.
  void start_runner(JobIndex job) {
    Runner* runner = nullptr;
    if (idle_runners_.empty()) {
      runner = runners_.emplace_back(std::make_unique<Runner>()).get();
      // On the scheduler's host, from which the doorbell rings (report_end()).
      runner->actor = sg4::Actor::init("runner-" + std::to_string(runners_.size()), platform_.gpu_hosts.front());
      runner->actor->set_stacksize(kRunnerStackKiB);
      runner->actor->start(guarded(failure_, [this, runner] { serve(*runner); }));
    } else {
      runner = idle_runners_.back();
      idle_runners_.pop_back();
    }
    runner->job = job;
    running_[job]->runner = runner;
    runner->next_job->release();
  }

  // The body of a runner actor: one job after the other, until the run stops.
  void serve(Runner& runner) {
    while (true) {
      runner.next_job->acquire();
      if (stopped_) return;
      run_job(runner.job);
      if (stopped_) return;
      idle_runners_.push_back(&runner);
    }
  }

  // Idle runners wait for a job that will not come: they end.
  void dismiss_idle_runners() {
    for (Runner* runner : idle_runners_) runner->next_job->release();
    idle_runners_.clear();
  }

  // The steps of the job's plan, one after the other; a step's activities
  // are the runner's only waits. Returns when the job's steps all ran or it
  // was stopped.
  void run_job(JobIndex job) {
    RunningJob& run = *running_[job];
    for (; run.step < run.plan->step_count(); ++run.step)
      if (!run_step(job)) return;
    run.runner = nullptr;
    report_end(job);
  }

  // Runs the job's current step to its end. False when the run stopped meanwhile.
  bool run_step(JobIndex job) {
    RunningJob& run = *running_[job];
    const JobStep step = run.plan->step(run.step);
    if (step.kind == JobStep::Kind::kDelay) return delay(step.amount);
    if (stopped_) return false;  // a runner created just before the run stopped
    start_step(job, step);
    for (const sg4::ActivityPtr& activity : run.activities) {
      // One activity at a time, not wait_any over the job's: O(1) per wait,
      // and unlike Activity::wait(), no timeout action on the host's CPU.
      run.runner_waits_on_activity = true;
      try {
        sg4::Activity::wait_any_for({activity}, -1);
      } catch (const simgrid::CancelException&) {
        return false;  // the job was stopped (an Exec canceled) and may be gone: touch nothing
      } catch (const simgrid::NetworkFailureException&) {
        return false;  // the same for a Comm
      }
      run.runner_waits_on_activity = false;
      if (!resumed()) return false;
      ++record_.events;
    }
    run.activities.clear();
    return true;
  }

  // A delay step, on a kernel timer: exact, where a sleep would be rounded up
  // to SimGrid's precision.
  bool delay(Time seconds) {
    const Time end = now_ + seconds;
    if (seconds > 0) {
      sg4::Activity::wait_any_for(no_activities_, std::max(0.0, end - sg4::Engine::get_clock()));
      if (!resumed()) return false;
    }
    now_ = std::max(now_, end);
    ++record_.events;
    return true;
  }

  // A runner is back from a wait. False when the run has stopped since.
  bool resumed() {
    if (stopped_) return false;
    ++wakes_;
    advance_clock();
    return true;
  }

  // Starts the activities of a computation or ring step.
  void start_step(JobIndex job, const JobStep& step) {
    RunningJob& run = *running_[job];
    const std::size_t n = run.hosts.size();
    const double share = in_.jobs[job].gpu_share;
    const std::int64_t busy_units = share_units(1, share);
    run.busy_ends.clear();
    switch (step.kind) {
      case JobStep::Kind::kCompute:
        run.compute_start = now_;
        // The GPU gives this job nothing but its share, so its busy intervals
        // are known now; they are recorded before any activity starts (each
        // start lets other actors run, and one may stop this job).
        for (std::size_t i = 0; i < n; ++i)
          add_busy_end(run, now_ + step.amount * run.compute_scale[i] / (run.hosts[i]->get_speed() * share),
                       busy_units);
        // One change per distinct end, not per GPU: a job preempted over and
        // over would otherwise fill memory with the changes of its GPUs.
        changes_.push_back({now_, 0, busy_units * static_cast<std::int64_t>(n)});
        for (const auto& [end, units] : run.busy_ends) changes_.push_back({end, 0, -units});
        for (std::size_t i = 0; i < n; ++i) {
          sg4::Host* host = run.hosts[i];
          sg4::ExecPtr exec = sg4::Exec::init();
          exec->set_flops_amount(step.amount * run.compute_scale[i])->set_host(host);
          // A fractional job is held to its share of the GPU; the shares on a
          // GPU add up to at most 1, so each gets its bound.
          if (share < 1) exec->set_bound(share * host->get_speed());
          run.activities.push_back(exec);
          exec->start();
        }
        break;
      case JobStep::Kind::kRingStep: {
        // At least one byte: SimGrid 3.32 never completes a zero-byte host-to-host transfer.
        const auto bytes = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(step.amount)));
        for (std::size_t i = 0; i < n; ++i)
          run.activities.push_back(sg4::Comm::sendto_async(run.hosts[i], run.hosts[(i + 1) % n], bytes));
        break;
      }
      case JobStep::Kind::kDelay:
        assert(false && "a delay step starts no activity");
        break;
    }
  }

  // The GPUs of a computation step computing until `end` (GPUs of one type end together).
  static void add_busy_end(RunningJob& run, Time end, std::int64_t units) {
    for (auto& [at, sum] : run.busy_ends)
      if (at == end) {
        sum += units;
        return;
      }
    run.busy_ends.emplace_back(end, units);
  }

  // Stops the job's runner (or its DAG's actors), cancels what its current
  // step still runs, and ends its busy intervals now. A runner waiting on one
  // of the step's activities is not killed: SimGrid 3.32 answers that wait
  // once for the kill and once for the activity it cancels, and aborts. The
  // canceled activity ends the wait with an exception instead, on which the
  // runner returns. Killing one that waits on a timer (a delay), is still
  // starting its step or has ended is safe.
  void cancel_step(JobIndex job) {
    RunningJob& run = *running_[job];
    if (run.runner && !run.runner_waits_on_activity) run.runner->actor->kill();  // it is not reused
    if (run.dag) run.dag->cancel();
    for (const auto& activity : run.activities) activity->cancel();
    for (const auto& [end, units] : run.busy_ends) {
      if (end <= now_) continue;
      changes_.push_back({end, 0, units});  // undo the recorded end
      changes_.push_back({now_, 0, -units});
    }
    run.activities.clear();
    run.busy_ends.clear();
  }

  // Jobs hold GPUs while waiting for more, no job runs and no timer is set:
  // no GPU will ever be freed (later submissions only take GPUs), so they wait
  // on each other forever. A policy that resolves such waits does it with a
  // wake-up (a timeout), which keeps this from firing.
  bool deadlocked() {
    if (!state_.running().empty() || !wake_ups_.empty()) return false;
    std::vector<JobIndex> holders = state_.holding();
    if (holders.empty()) return false;
    record_.deadlock = DeadlockReport{now_, std::move(holders)};
    return true;
  }

  // The guards' verdicts (instant_guard.hpp, thrashing_guard.hpp): the run
  // stops here, its record saying why.
  bool stopped_by_a_guard() {
    if ((record_.livelock = instant_guard_.livelock())) return true;
    if ((record_.thrashing = thrashing_guard_.thrashing(now_))) return true;
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
    changes_.push_back({now_, std::llround((state_.allocated_gpus() - allocated_before) * kShareUnits), 0,
                        static_cast<std::int64_t>(state_.waiting().size()) - static_cast<std::int64_t>(queued_before)});
    for (JobIndex job : applied.preempted) stop(job);
    for (JobIndex job : applied.started) launch(job);
    if (plan.wake_time() > now_ && plan.wake_time() != kNever) wake_ups_.push(plan.wake_time());
  }

  void launch(JobIndex job) {
    const JobSpec& spec = in_.jobs[job];
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    if (const auto* dag = std::get_if<DagWork>(&spec.work)) return launch_dag(job, *dag);
    double measured_flops = 0;
    if (const auto* measured = std::get_if<MeasuredWork>(&spec.work)) {
      const int type = in_.layout.find_gpu_type(measured->gpu_type);
      // Measured at the job's share of a GPU of that type.
      measured_flops =
          type >= 0 ? in_.layout.spec().gpu_types[static_cast<std::size_t>(type)].flops * spec.gpu_share : 0;
      double slowest = kNever;  // the run lasts as long as its slowest GPU's part
      bool other_type = false;
      for (GpuId g : gpus) {
        slowest = std::min(slowest, in_.layout.gpu_type_of(g).flops);
        other_type |= in_.layout.gpu_type_of(g).name != measured->gpu_type;
      }
      if (!measured->rescale) {
        measured_flops = slowest * spec.gpu_share;  // the recorded seconds on the GPUs it got
      } else if (other_type && !rescaled_[job]) {
        rescaled_[job] = true;
        ++record_.rescaled_jobs;
      }
    }
    // A ring step lasts as long as its slowest edge; the latency part of that is the largest path latency.
    double ring_latency = 0;
    for (std::size_t i = 0; gpus.size() > 1 && i < gpus.size(); ++i)
      ring_latency = std::max(ring_latency, in_.locality.path_latency(gpus[i], gpus[(i + 1) % gpus.size()]));
    ring_latency *= in_.layout.spec().network.latency_factor;

    // A job resuming from a checkpoint runs the rest of its work after restoring.
    const double saved = state_.runtime(job).saved_fraction;
    const Time restore = saved > 0 ? spec.checkpoint.restore_cost : 0;
    JobActivityPlan plan(spec, in_.options.fidelity, measured_flops, ring_latency, 1 - saved, restore,
                         in_.options.job_rounds);
    // Per-type FLOPs of a throughput table: each GPU's share of the iteration scaled to its type.
    std::vector<double> compute_scale(gpus.size(), 1.0);
    if (const auto* training = std::get_if<TrainingWork>(&spec.work); training && training->flops_per_iteration > 0)
      for (std::size_t i = 0; i < gpus.size(); ++i)
        compute_scale[i] = training->flops_on(in_.layout.gpu_type_of(gpus[i]).name) / training->flops_per_iteration;
    double slowest_gpu = kNever, bottleneck = kNever;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      // The slowest GPU in effect: its FLOP/s (the job's share of them) over its scale.
      slowest_gpu =
          std::min(slowest_gpu, in_.layout.gpu_type_of(gpus[i]).flops * spec.gpu_share / compute_scale[i]);
      if (gpus.size() > 1)
        bottleneck = std::min(bottleneck, in_.locality.bottleneck_bandwidth(gpus[i], gpus[(i + 1) % gpus.size()]));
    }
    const Time work_seconds =
        plan.uncontended_work_seconds(slowest_gpu, bottleneck * in_.layout.spec().network.bandwidth_factor);
    plan.add_trailing_delay(checkpoint_overhead(spec.checkpoint, work_seconds));

    RunningJob& run = begin_run(job, std::move(plan));
    run.compute_scale = std::move(compute_scale);
    run.work_seconds = work_seconds;
    run.work_started = now_ + restore;
    start_runner(job);
  }

  // A job starts running on its allocated GPUs: its hosts and its outcome's start and placement.
  RunningJob& begin_run(JobIndex job, std::optional<JobActivityPlan> plan) {
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    RunningJob& run = running_[job].emplace(std::move(plan));
    for (GpuId g : gpus) run.hosts.push_back(platform_.gpu_hosts[g]);
    run.started = now_;
    JobOutcome& outcome = record_.outcomes[job];
    if (outcome.start == kNever) outcome.start = now_;
    outcome.gpus = gpus;
    return run;
  }

  // A DAG job runs its own worker actors; its coordinator reports its end.
  // Preempted, it starts over (no checkpoints of a DAG's progress).
  void launch_dag(JobIndex job, const DagWork& dag) {
    RunningJob& run = begin_run(job, std::nullopt);
    double slowest_gpu = kNever;
    for (GpuId g : state_.runtime(job).gpus) slowest_gpu = std::min(slowest_gpu, in_.layout.gpu_type_of(g).flops);
    run.work_seconds = dag_list_schedule_seconds(dag, slowest_gpu);
    run.work_started = now_;
    const std::string name = "dag-" + std::to_string(job) + "-" + std::to_string(epoch_[job]);
    run.dag = std::make_unique<DagRun>(
        dag, run.hosts, platform_.gpu_hosts.front(), name,
        [this](double start, double end) {
          if (!recording_) return;
          ++wakes_;  // a worker back from its execution (see settle())
          changes_.push_back({start, 0, kShareUnits});
          changes_.push_back({end, 0, -kShareUnits});
        },
        [this, job] {
          if (stopped_) return;
          ++record_.events;
          report_end(job);
        },
        failure_);
  }

  void stop(JobIndex job) {
    ++epoch_[job];  // its next run's DAG actors get other names
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
    record_.lost_gpu_seconds += lost;
    record_.run_gpu_seconds += held_gpu_seconds(job);
    if (saved_after == 0) ++record_.restarts_from_zero;
    thrashing_guard_.preempted(job, saved_before, saved_after, lost);
    cancel_step(job);
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
    stopped_ = true;
    try {
      dismiss_idle_runners();
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

  std::vector<TimelinePoint> assemble_timeline() {
    std::stable_sort(changes_.begin(), changes_.end(),
                     [](const TimelineChange& a, const TimelineChange& b) { return a.time < b.time; });
    std::vector<TimelinePoint> timeline;
    std::int64_t allocated = 0, busy = 0, queued = 0;
    for (std::size_t i = 0; i < changes_.size(); ++i) {
      allocated += changes_[i].allocated;
      busy += changes_[i].busy;
      queued += changes_[i].queued;
      if (i + 1 < changes_.size() && changes_[i + 1].time == changes_[i].time) continue;
      assert(allocated >= 0 && busy >= 0 && busy <= allocated && queued >= 0 && "counts stay consistent");
      const TimelinePoint point{changes_[i].time, static_cast<double>(allocated) / kShareUnits,
                                static_cast<double>(busy) / kShareUnits, static_cast<std::uint32_t>(queued)};
      if (!timeline.empty() && timeline.back().allocated == point.allocated && timeline.back().busy == point.busy &&
          timeline.back().queued == point.queued)
        continue;
      timeline.push_back(point);
    }
    return timeline;
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
  std::priority_queue<Time, std::vector<Time>, std::greater<>> wake_ups_;  // the policy asked for
  std::vector<JobIndex> ended_;  // jobs whose steps all ran, not yet ended (end_jobs())
  // The doorbell: a receive on a mailbox, the one activity the scheduler
  // waits on; a runner ends the wait by sending to it (report_end()).
  sg4::Mailbox* doorbell_ = nullptr;
  std::vector<sg4::ActivityPtr> doorbell_wait_;
  void* doorbell_payload_ = nullptr;
  bool listening_ = false;     // the scheduler waits on the doorbell
  bool rung_ = false;          // a message to the doorbell is on its way
  std::vector<std::unique_ptr<Runner>> runners_;
  std::vector<Runner*> idle_runners_;
  std::uint64_t wakes_ = 0;    // runners and DAG workers back from a wait (settle())
  const std::vector<sg4::ActivityPtr> no_activities_;  // a wait on these is a kernel timer
  bool stopped_ = false;       // the run is over (or failed): runners do nothing more
  std::vector<TimelineChange> changes_;
  bool recording_ = true;  // false once the run failed
  InstantGuard instant_guard_;
  ThrashingGuard thrashing_guard_;
  Time now_ = 0;
  RunRecord record_;
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
