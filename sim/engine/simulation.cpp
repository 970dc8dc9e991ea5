// simulation.cpp: the scheduler actor, the runner actors and how they meet.
//
// What happens at one simulated instant t, in SimGrid's terms: the clock
// stops at t, the activities ending then are marked done, and every actor
// waiting on one runs; actors then run in rounds (each simcall, even one
// answered at once, costs its actor a round) until none can, and only then
// does the clock move. A runner whose job ends at t may need several rounds
// (it waits on its step's other activities, which ended too) before it
// reports. So the scheduler, once something happened, waits on a kernel
// timer set at t (Activity::wait_any_for on no activity, timeout 0): it fires
// after the last round and the clock's zero-length step, and the scheduler
// waits again while runners woke in that step; then every end at t is in.
//
// The doorbell is a receive on a mailbox; a runner sends to it from the
// scheduler's host, so the message has no route to cross and arrives in the
// clock's zero-length step after the rounds at t. Delays and the scheduler's
// timeouts are kernel timers (exact; a sleep would be rounded up to
// SimGrid's precision). SimGrid 3.32 aborts when an actor blocked in
// Activity::wait_any_for on an activity it started is killed (the wait is
// answered twice), so a runner waiting on an activity is stopped by
// cancelling its activities, see cancel_step().
#include "sim/engine/simulation.hpp"

#include <signal.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <variant>
#include <vector>

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/input_error.hpp"
#include "sim/core/invariant_violation.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/scheduler_state.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/dag_run.hpp"
#include "sim/engine/cpu_dispatch.hpp"
#include "sim/engine/instant_guard.hpp"
#include "sim/engine/memory_watch.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/serving_controller.hpp"
#include "sim/engine/state_audit.hpp"
#include "sim/engine/thrashing_guard.hpp"
#include "sim/model/checkpoint_model.hpp"
#include "sim/model/dag_schedule.hpp"
#include "sim/model/duration_oracle.hpp"
#include "sim/model/input_pipeline.hpp"
#include "sim/model/placement_costs.hpp"
#include "sim/report/record_audit.hpp"
#include "sim/report/run_recorder.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

// Stack of a runner actor, KiB: it starts activities and waits on them,
// never runs a policy, so a small stack keeps thousands of running jobs cheap
// (SimGrid's default is 8 MiB per actor).
constexpr unsigned kRunnerStackKiB = 256;

// An actor on the scheduler's host that runs the steps of one job at a time.
// Idle, it waits for its next job, so a job's start costs no actor creation:
// there are as many runners as jobs that need one (jobs that transfer or
// share GPUs; not those on timers) ever ran at once. A runner stopped
// before it waits (cancel_step()) is killed and gets a new actor when it is
// next needed.
struct Runner {
  sg4::ActorPtr actor;
  sg4::SemaphorePtr next_job = sg4::Semaphore::create(0);
  JobIndex job = kNoJob;
  // What the runner is blocked on: a stop ends each kind of wait its own way (cancel_step()).
  enum class Wait { kNothing, kTimer, kActivity } waits_on = Wait::kNothing;
  // A receive posted on the runner's own mailbox, the one activity of its
  // timer waits: a message there ends the wait before the timer does.
  sg4::Mailbox* inbox = nullptr;
  std::vector<sg4::ActivityPtr> interruption;
  void* message = nullptr;
};

struct RunningJob {
  explicit RunningJob(std::optional<JobActivityPlan> activity_plan) : plan(std::move(activity_plan)) {}
  std::optional<JobActivityPlan> plan;  // none for a DAG job, which runs its own workers
  std::unique_ptr<DagRun> dag;
  Runner* runner = nullptr;       // running the plan's steps (none for a DAG job, a job on timers
                                  // (run_timer_steps()), nor once they all ran)
  std::vector<sg4::Host*> hosts;  // ring order
  double gpu_share = 1;           // of each GPU (JobSpec::gpu_share)
  std::uint64_t step = 0;
  // The activities of the current step; it is done when all of them are.
  std::vector<sg4::ActivityPtr> activities;
  // Per activity, the transfers it stands for (ring_step()); empty: one each.
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
  // Per host (ring order): its GPU type's FLOPs per iteration over the job's
  // flops_per_iteration (1 unless a throughput table says the model runs
  // otherwise on that type; always 1 for a measured run).
  std::vector<double> compute_scale;
  // The input pipeline's decoding on each of its nodes (none on synthetic data).
  std::vector<NodeDecoding> decoding;
  // The work of this run alone on its GPUs on synthetic data, for the speeds
  // reported at its end.
  Time synthetic_seconds = 0;

  /// Whether a computation step is a timer (start_timer_step()): on GPUs held
  /// whole, with no input pipeline decoding beside it.
  bool computes_on_timers() const { return gpu_share >= 1 && decoding.empty(); }
};

// Each job's whole work in GPU-seconds: its uncontended run time x GPUs x share.
std::vector<double> gpu_seconds_needed(const SimulationInput& input, const SchedulerState& state) {
  std::vector<double> need(input.jobs.size());
  for (JobIndex j = 0; j < need.size(); ++j)
    need[j] = state.oracle_duration(j) * static_cast<double>(input.jobs[j].gpus) * input.jobs[j].gpu_share;
  return need;
}

// The scheduler actor's body (run()) and the runners' (serve()); see simulation.hpp.
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
        memory_(input.jobs, input.layout, input.options.gpu_memory_isolation),
        cpu_(input.jobs),
        recorder_(input.jobs.size(), input.layout.gpu_count()) {
    if (input.options.check) audit_.emplace(input.layout, input.jobs);
    failure_.stop = [this] { stop_after_failure(); };
    if (input.options.keep_runs) recorder_.keep_runs();
    // A job that depends on others arrives when they have ended (release()).
    arrivals_.reserve(input.jobs.size());
    for (JobIndex j = 0; j < input.jobs.size(); ++j) {
      if (const auto* serving = std::get_if<ServingWork>(&input.jobs[j].work)) {
        // A deployment's later replicas join the queue only when its controller says.
        if (serving->slot > 0) continue;
        if (deployment_of_.empty()) deployment_of_.resize(input.jobs.size(), kNoDeployment);
        for (JobIndex k = j; k < j + serving->deployment->slots(); ++k)
          deployment_of_[k] = static_cast<std::uint32_t>(serving_.size());
        serving_.emplace_back(serving->deployment, j, input.jobs[j].gpus * input.jobs[j].gpu_share);
      }
      if (input.jobs[j].after().empty()) {
        arrivals_.push_back(j);
        continue;
      }
      if (dependants_.empty()) {
        dependants_.resize(input.jobs.size());
        unmet_.resize(input.jobs.size(), 0);
      }
      unmet_[j] = static_cast<std::uint32_t>(input.jobs[j].after().size());
      for (JobIndex first : input.jobs[j].after()) dependants_[first].push_back(j);
    }
    std::stable_sort(arrivals_.begin(), arrivals_.end(),
                     [&](JobIndex a, JobIndex b) { return input.jobs[a].submit < input.jobs[b].submit; });
  }

  /// Throws what made the run fail (simulate() hands it to its caller).
  void run() {
    doorbell_ = sg4::Mailbox::by_name("gcsim-scheduler");
    doorbell_wait_.push_back(doorbell_->get_async<void>(&doorbell_payload_));
    try {
      loop();
    } catch (const InvariantViolation& violation) {
      abandon();
      throw InvariantBroken(describe(violation, audited_after_));
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
        recorder_.run_cut(held_gpu_seconds(job));
        cancel_step(job);
      }
    dismiss_idle_runners();
    doorbell_wait_.front()->cancel();
  }

  RunRecord finish_record() {
    report_progress(true);
    RunRecord record = recorder_.finish(now_, state_);
    record.stop_request = stop_request_;
    for (ServingController& deployment : serving_) record.serving.push_back(deployment.outcome(now_));
    if (audit_) {
      try {
        audit_->check_end(state_, ran_out_of_events_ && !record.deadlock);
        audit_record(record, audit_->waiting_hold_gpu_seconds(now_));
      } catch (const InvariantViolation& violation) {
        throw InvariantBroken(describe(violation, "the end of the run"));
      }
    }
    return record;
  }

 private:
  // The scheduler actor: it wakes for arrivals, the policy's wake-ups and job
  // ends (a runner rings the doorbell), and hands everything that happened at
  // one instant to the policy in one call.
  void loop() {
    while (true) {
      report_progress();
      rethrow_a_failure();
      advance_clock();
      if (now_ >= in_.options.until) return;
      if (in_.options.stop_request && *in_.options.stop_request != 0) {
        stop_request_ = *in_.options.stop_request;
        return;
      }
      if (take_changes()) {
        audit("the arrivals, timers and failures");
        // Everything else happening at this instant reaches the policy in the same call.
        settle();
        rethrow_a_failure();
        take_changes();
        if (!ended_.empty()) {
          end_jobs();
          audit("the jobs' ends");
        }
        call_policy();
        audit("the policy's plan");
        if (cpu_.waiting()) {
          dispatch_cpu_jobs();
          audit("the CPU jobs' dispatch");
        }
        if (deadlocked() || stopped_by_a_guard()) return;
        continue;
      }
      if (!wait_for_next()) {  // nothing can happen any more
        ran_out_of_events_ = true;
        return;
      }
    }
  }

  void advance_clock() { now_ = std::max(now_, sg4::Engine::get_clock()); }

  // --check: the state audited from scratch (state_audit.hpp).
  void audit(const char* after) {
    if (!audit_) return;
    audited_after_ = after;
    audit_->check(state_, now_);
  }
  // A job ended (finished, failed, retired): --check counts its ends.
  void note_end(JobIndex job) {
    if (audit_) audit_->ended(job);
  }
  std::string describe(const InvariantViolation& violation, const std::string& after) const {
    std::string text = "invariant '" + violation.invariant() + "' broken after " + after +
                       " at t=" + exact_number(now_) + " s: " + violation.what();
    for (std::size_t i = 0; i < violation.jobs().size(); ++i)
      text += (i == 0 ? "; jobs: '" : ", '") + in_.jobs[violation.jobs()[i]].id + "'";
    return text;
  }

  // The progress report, about twice a second of wall time: the clock is read
  // once every 1024 turns of the loop, so a run pays almost nothing for it.
  void report_progress(bool done = false) {
    if (!in_.options.progress || (!done && (++turns_ & 1023) != 0)) return;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - began_).count();
    if (!done && wall < last_report_ + 0.5) return;
    last_report_ = wall;
    in_.options.progress(
        SimulationProgress{now_, recorder_.jobs_ended(), in_.jobs.size(), recorder_.events(), wall, done});
  }

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

  // Ends the timer steps due by now (run_timer_steps()) and takes the
  // arrivals and wake-ups due. True when they, or the job ends reported since
  // the last policy call, are news for the policy.
  bool take_changes() {
    end_timer_steps();
    bool changed = !ended_.empty();
    for (JobIndex job : cpu_.finish_due(state_, now_)) {
      note_end(job);
      recorder_.job_finished(job, now_, 0, 1.0, 0);
      recorder_.event_handled();
      release_dependants(job);
      changed = true;
    }
    while (next_arrival_ < arrivals_.size() && in_.jobs[arrivals_[next_arrival_]].submit <= now_) {
      const JobIndex job = arrivals_[next_arrival_++];
      submit(job, in_.jobs[job].submit);
      changed = true;
    }
    while (!releases_.empty() && releases_.top().first <= now_) {
      const auto [at, job] = releases_.top();
      releases_.pop();
      submit(job, at);
      changed = true;
    }
    while (!wake_ups_.empty() && wake_ups_.top() <= now_) {
      wake_ups_.pop();
      recorder_.event_handled();
      changed = true;
    }
    for (JobIndex job : memory_.out_of_memory(now_)) {
      fail_running(job, Failure::kOutOfMemory);
      changed = true;
    }
    const std::vector<NodeFailure>& failures = in_.options.node_failures;
    for (; next_failure_ < failures.size() && failures[next_failure_].at <= now_; ++next_failure_) {
      fail_node(failures[next_failure_]);
      changed = true;
    }
    while (!repairs_.empty() && repairs_.top().first <= now_) {
      state_.bring_up(repairs_.top().second);
      repairs_.pop();
      recorder_.event_handled();
      changed = true;
    }
    if (take_serving_changes()) changed = true;
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

  void submit(JobIndex job, Time submitted) {
    ServingController* deployment = deployment_of(job);
    if (runs_on_cpu(in_.jobs[job])) {
      cpu_.submit(state_, job, submitted);
      recorder_.event_handled();
    } else {
      // A replica has no work to throw away: the guard leaves it out.
      if (!deployment) thrashing_guard_.submitted(job, now_);
      state_.submit(job, submitted);
      recorder_.job_submitted(now_);
    }
    if (deployment) recorder_.first_submitted(job, submitted);
    if (deployment && !deployment->started())
      for (JobIndex replica : deployment->start(now_)) submit(replica, now_);
  }

  // The deployment a replica job belongs to; null for any other job.
  ServingController* deployment_of(JobIndex job) {
    if (deployment_of_.empty() || deployment_of_[job] == kNoDeployment) return nullptr;
    return &serving_[deployment_of_[job]];
  }

  // What the deployments have to do by now: replicas to submit and to take
  // back, and their ends. True when anything changed for the policy.
  bool take_serving_changes() {
    bool changed = false;
    for (ServingController& deployment : serving_) {
      if (deployment.next_event() > now_) continue;
      const ServingController::Actions actions = deployment.advance(now_);
      for (JobIndex job : actions.withdraw) withdraw(job);
      for (JobIndex job : actions.submit) submit(job, now_);
      if (actions.ended) end_deployment(deployment);
      recorder_.event_handled();
      changed = changed || !actions.withdraw.empty() || !actions.submit.empty() || actions.ended;
    }
    return changed;
  }

  // A replica the deployment lets go: back to pending, its GPUs freed.
  void withdraw(JobIndex job) {
    recorder_.run_stopped(job, now_, RunEnd::kWithdrawn);
    if (runs_on_cpu(in_.jobs[job])) return cpu_.withdraw(state_, job, now_);
    const double allocated_before = state_.allocated_gpus();
    const std::size_t queued_before = state_.waiting().size();
    const bool running = state_.runtime(job).state == JobState::kRunning;
    if (running) recorder_.run_cut(held_gpu_seconds(job));
    state_.withdraw(job, now_);
    if (running) cut_run(job);
    recorder_.allocation_changed(
        now_, state_.allocated_gpus() - allocated_before,
        static_cast<std::int64_t>(state_.waiting().size()) - static_cast<std::int64_t>(queued_before));
  }

  // The deployment's time is up: its running replicas finish, the others
  // are retired, and the jobs that waited for it are released.
  void end_deployment(const ServingController& deployment) {
    const JobIndex first = deployment.first_job();
    for (JobIndex job = first; job < first + deployment.job_count(); ++job) {
      switch (state_.runtime(job).state) {
        case JobState::kRunning:
          note_end(job);
          if (runs_on_cpu(in_.jobs[job])) {
            recorder_.job_finished(job, now_, 0, 1.0, 0);
            cpu_.finish(state_, job, now_);
            break;
          }
          recorder_.job_finished(job, now_, running_[job]->hosts.size(), in_.jobs[job].gpu_share,
                                 held_gpu_seconds(job));
          state_.finish(job, now_);
          cut_run(job);
          break;
        case JobState::kWaiting:
          withdraw(job);
          note_end(job);
          state_.retire(job, now_);
          break;
        case JobState::kPending:
          note_end(job);
          state_.retire(job, now_);
          break;
        default:
          break;
      }
    }
    release_dependants(first);
  }

  // The CPU jobs that fit now start (cpu_dispatch.hpp), after the policy's
  // GPU jobs of this instant.
  void dispatch_cpu_jobs() {
    if (!cpu_.waiting()) return;
    for (JobIndex job : cpu_.dispatch(state_, now_)) {
      std::vector<NodeId> nodes;
      for (const CpuShare& share : state_.cpu_job_placement(job)) nodes.push_back(share.node);
      recorder_.cpu_job_started(job, now_, nodes);
      if (ServingController* deployment = deployment_of(job)) deployment->replica_running(job, now_);
      if (const auto* dag = std::get_if<DagWork>(&in_.jobs[job].work)) launch_cpu_dag(job, *dag);
    }
  }

  // A node fails: the jobs holding any of its GPUs let go of all theirs, the
  // running ones stopped as if preempted (back to their last periodic
  // checkpoint: a crash leaves no time for a save at preemption) and
  // waiting again, as one plan the engine applies; its CPU jobs start over
  // later; then its GPUs are down until the repair ends. The policy sees it
  // all in its next call.
  void fail_node(const NodeFailure& failure) {
    Plan plan;
    std::vector<JobIndex> holders;
    for (GpuId g : in_.layout.node(failure.node).gpus)
      for (JobIndex job : state_.holders(g))
        if (std::find(holders.begin(), holders.end(), job) == holders.end()) holders.push_back(job);
    std::sort(holders.begin(), holders.end());
    for (JobIndex job : holders) {
      if (state_.runtime(job).state == JobState::kRunning) {
        plan.preempt(job);
      } else {
        plan.release(job);
      }
    }
    double lost = 0;
    const SchedulerState::Applied applied = apply_plan(plan, &lost, /*crashed=*/true);
    const std::vector<JobIndex> cpu_jobs_stopped = cpu_.stop_on_node(state_, failure.node);
    for (JobIndex job : cpu_jobs_stopped) {
      recorder_.run_stopped(job, now_, RunEnd::kPreempted);
      if (ServingController* deployment = deployment_of(job)) deployment->replica_stopped(job, now_);
      if (running_[job]) {  // a DAG of CPU workers: its actors stop, it starts over
        ++epoch_[job];
        cut_run(job);
      }
    }
    recorder_.node_failed_at(now_, failure.node);
    recorder_.node_failed(applied.preempted.size() + cpu_jobs_stopped.size(), lost);
    recorder_.event_handled();
    state_.take_down(failure.node);
    repairs_.push({failure.at + failure.duration, failure.node});
  }

  // A running job fails: it stops where it is, and its GPUs are free at
  // once; the jobs waiting for it fail too (fail_dependants()).
  void fail_running(JobIndex job, Failure failure) {
    RunningJob& run = *running_[job];
    const double held = held_gpu_seconds(job);
    ++epoch_[job];
    if (ServingController* deployment = deployment_of(job)) {
      deployment->replica_failed(job, now_);
    } else {
      thrashing_guard_.finished(job, state_.runtime(job).saved_fraction, now_);
    }
    note_end(job);
    recorder_.job_failed(job, now_, run.hosts.size(), in_.jobs[job].gpu_share, held, failure);
    state_.fail(job, now_);
    cut_run(job);
    fail_dependants(job);
  }

  // Every job waiting, directly or not, for a job that failed fails with it.
  void fail_dependants(JobIndex failed) {
    if (dependants_.empty()) return;
    std::vector<JobIndex> to_visit{failed};
    while (!to_visit.empty()) {
      const JobIndex job = to_visit.back();
      to_visit.pop_back();
      for (JobIndex next : dependants_[job]) {
        if (state_.runtime(next).state != JobState::kPending) continue;
        note_end(next);
        state_.fail_pending(next);
        recorder_.dependency_failed(next, job);
        to_visit.push_back(next);
      }
    }
  }

  // A job ended: the jobs that waited for it and for nothing else are
  // submitted after their delay, or at their submit time if later.
  void release_dependants(JobIndex job) {
    if (dependants_.empty()) return;
    for (JobIndex next : dependants_[job]) {
      if (--unmet_[next] > 0) continue;
      const Time at = std::max(in_.jobs[next].submit, now_ + in_.jobs[next].after_delay());
      if (at <= now_) {
        submit(next, at);
      } else {
        releases_.push({at, next});
      }
    }
  }

  // Blocks until the next arrival or wake-up is due or a runner rings the
  // doorbell. Returns false when nothing can happen any more.
  bool wait_for_next() {
    Time next = in_.options.until;
    if (next_arrival_ < arrivals_.size()) next = std::min(next, in_.jobs[arrivals_[next_arrival_]].submit);
    if (!wake_ups_.empty()) next = std::min(next, wake_ups_.top());
    if (!releases_.empty()) next = std::min(next, releases_.top().first);
    next = std::min(next, memory_.next_change());
    for (const ServingController& deployment : serving_) next = std::min(next, deployment.next_event());
    // Failures and repairs matter only while some job is yet to end.
    const bool jobs_left = !state_.running().empty() || !state_.waiting().empty() || next_arrival_ < arrivals_.size() ||
                           !releases_.empty() || cpu_.waiting() || cpu_.running() > 0;
    if (jobs_left && next_failure_ < in_.options.node_failures.size())
      next = std::min(next, in_.options.node_failures[next_failure_].at);
    if (jobs_left && !repairs_.empty()) next = std::min(next, repairs_.top().first);
    drop_stale_timer_steps();
    if (!timer_steps_.empty()) next = std::min(next, timer_steps_.top().end);
    next = std::min(next, cpu_.next_end());
    // A DAG of CPU workers running has no end known in advance: its last task rings.
    if (next == kNever && state_.running().empty() && cpu_.running() == 0) return false;
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
    assert(sg4::this_actor::get_host() == platform_.control_host() && "the doorbell rings from the scheduler's host");
    doorbell_->put_init(this, 0)->detach();
  }

  // The jobs that reported their end, in job order: each is done at this instant.
  void end_jobs() {
    std::sort(ended_.begin(), ended_.end());
    for (JobIndex job : ended_) {
      if (runs_on_cpu(in_.jobs[job])) {  // a DAG of CPU workers
        note_end(job);
        cpu_.finish(state_, job, now_);
        recorder_.job_finished(job, now_, 0, 1.0, 0);
        running_[job].reset();
        continue;
      }
      const double held = held_gpu_seconds(job);
      report_speeds(job);
      thrashing_guard_.finished(job, state_.runtime(job).saved_fraction, now_);
      note_end(job);
      state_.finish(job, now_);
      recorder_.job_finished(job, now_, running_[job]->hosts.size(), in_.jobs[job].gpu_share, held);
      memory_.ended(job);
      running_[job].reset();
    }
    for (JobIndex job : ended_) release_dependants(job);
    ended_.clear();
  }

  // A training job's iterations per second over its last run, alone on
  // synthetic data and as it went (its work's time: restore and checkpoints
  // left out).
  void report_speeds(JobIndex job) {
    const RunningJob& run = *running_[job];
    if (!std::holds_alternative<TrainingWork>(in_.jobs[job].work) || run.plan->iterations() == 0) return;
    const auto iterations = static_cast<double>(run.plan->iterations());
    const Time worked = now_ - run.work_started - run.plan->trailing_delay();
    recorder_.job_speeds(job, run.synthetic_seconds > 0 ? iterations / run.synthetic_seconds : 0,
                         worked > 0 ? iterations / worked : 0);
  }

  // Jobs whose steps are all timers (computations on GPUs they hold whole,
  // delays) need no actor: the scheduler keeps the end of each one's current
  // step in a heap, wakes for the earliest, and runs the next steps itself,
  // exactly as a runner does (timer_step()). A preempted job's
  // entry stays in the heap, stale (its run is gone or its epoch changed).
  struct TimerStep {
    Time end;
    JobIndex job;
    std::uint32_t epoch;
    // The heap's top is the earliest end; the job index breaks ties, so the
    // order of one instant's ends does not depend on the heap's history.
    bool operator>(const TimerStep& other) const { return end != other.end ? end > other.end : job > other.job; }
  };

  bool stale(const TimerStep& step) const { return !running_[step.job] || epoch_[step.job] != step.epoch; }

  void drop_stale_timer_steps() {
    while (!timer_steps_.empty() && stale(timer_steps_.top())) timer_steps_.pop();
  }

  // The timer steps due by now end; their jobs go on to their next steps.
  void end_timer_steps() {
    while (!timer_steps_.empty() && timer_steps_.top().end <= now_) {
      const TimerStep due = timer_steps_.top();
      timer_steps_.pop();
      if (stale(due)) continue;
      RunningJob& run = *running_[due.job];
      end_timer_step(run);
      ++run.step;
      run_timer_steps(due.job);
    }
  }

  // Runs the job's steps from its current one: each step that ends at this
  // instant ends now, the first that lasts longer goes in the heap. When all
  // have run, the job reports its end.
  void run_timer_steps(JobIndex job) {
    RunningJob& run = *running_[job];
    for (; run.step < run.plan->step_count(); ++run.step) {
      const Time end = start_timer_step(run);
      if (end > now_) {
        timer_steps_.push({end, job, epoch_[job]});
        return;
      }
      end_timer_step(run);
    }
    report_end(job);
  }

  // Starts a timer step, the job's current step, and returns its end. A
  // delay (a latency, a restore, a checkpoint's time) is exact, where a sleep
  // would be rounded up to SimGrid's precision. A computation is on GPUs the
  // job holds whole: nothing else computes on them (a GPU is held whole by
  // one job or shared by fractional ones; links carry transfers, not
  // computations), so each GPU's execution would take exactly its FLOPs over
  // its speed, and the step is a timer to the slowest GPU's end where one
  // execution per GPU would cost the solver a variable each.
  Time start_timer_step(RunningJob& run) {
    const JobStep step = run.plan->step(run.step);
    if (step.kind == JobStep::Kind::kDelay) return now_ + step.amount;
    if (step.kind == JobStep::Kind::kBusy) {
      // A notebook's burst: its GPUs (or its shares of them) busy that long.
      run.busy_ends.assign(1, {now_ + step.amount, run.hosts.size()});
      recorder_.busy(now_, now_ + step.amount, run.hosts.size(), run.gpu_share);
      return now_ + step.amount;
    }
    assert(step.kind == JobStep::Kind::kCompute && "a timer step is a delay, a computation or a burst");
    record_compute_busy(run, step, 1.0);
    Time end = now_;
    for (const auto& [at, gpus] : run.busy_ends) end = std::max(end, at);
    return end;
  }

  // The job's current timer step ends now. A computation counts an event
  // per GPU.
  void end_timer_step(RunningJob& run) {
    if (run.plan->step(run.step).kind == JobStep::Kind::kDelay) {
      recorder_.event_handled();
      return;
    }
    recorder_.event_handled(run.hosts.size());
    run.busy_ends.clear();
  }

  // Gives the job to an idle runner, or to a new one.
  void start_runner(JobIndex job) {
    Runner* runner = nullptr;
    if (idle_runners_.empty()) {
      if (killed_runners_.empty()) {
        runner = runners_.emplace_back(std::make_unique<Runner>()).get();
        runner->inbox = sg4::Mailbox::by_name("runner-" + std::to_string(runners_.size()));
      } else {  // a killed runner's place, with a new actor
        runner = killed_runners_.back();
        killed_runners_.pop_back();
      }
      // On the scheduler's host, from which the doorbell rings (report_end()).
      runner->actor = sg4::Actor::init("runner-" + std::to_string(++runners_started_), platform_.control_host());
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
      if (stopped_) break;
      run_job(runner);
      if (stopped_) break;
      idle_runners_.push_back(&runner);
    }
    if (!runner.interruption.empty()) runner.interruption.front()->cancel();
  }

  // Idle runners wait for a job that will not come: they end.
  void dismiss_idle_runners() {
    for (Runner* runner : idle_runners_) runner->next_job->release();
    idle_runners_.clear();
  }

  // The steps of the job's plan, one after the other; a step's activities
  // are the runner's only waits. Returns when the job's steps all ran or it
  // was stopped.
  void run_job(Runner& runner) {
    const JobIndex job = runner.job;
    RunningJob& run = *running_[job];
    for (; run.step < run.plan->step_count(); ++run.step)
      if (!run_step(runner, job)) return;
    run.runner = nullptr;
    report_end(job);
  }

  // Runs the job's current step to its end. False when the run stopped
  // meanwhile: the job may then be gone, and nothing of it is touched.
  bool run_step(Runner& runner, JobIndex job) {
    RunningJob& run = *running_[job];
    const JobStep step = run.plan->step(run.step);
    if (step.kind == JobStep::Kind::kDelay) return timer_step(runner, run);
    if (stopped_) return false;  // a runner created just before the run stopped
    if (step.kind == JobStep::Kind::kCompute && run.computes_on_timers()) return timer_step(runner, run);
    start_step(job, step);
    for (std::size_t k = 0; k < run.activities.size(); ++k) {
      const sg4::ActivityPtr& activity = run.activities[k];
      // One activity at a time, not wait_any over the job's: O(1) per wait,
      // and unlike Activity::wait(), no timeout action on the host's CPU.
      // The job stopped (cancel_step()) cancels the activity: an Exec
      // answers the wait with a CancelException, a Comm with a
      // NetworkFailureException.
      bool canceled = false;
      runner.waits_on = Runner::Wait::kActivity;
      try {
        sg4::Activity::wait_any_for({activity}, -1);
      } catch (const simgrid::CancelException&) {
        canceled = true;
      } catch (const simgrid::NetworkFailureException&) {
        canceled = true;
      }
      runner.waits_on = Runner::Wait::kNothing;
      if (canceled || !resumed()) return false;
      recorder_.event_handled(run.activity_transfers.empty() ? 1 : run.activity_transfers[k]);
    }
    run.activities.clear();
    run.activity_transfers.clear();
    // SimGrid's clock may reach a computation's end a rounding error before
    // the end told to the recorder: its GPUs are idle from now, so that the
    // next step's busy interval does not overlap this one's.
    for (const auto& [end, gpus] : run.busy_ends) recorder_.busy_cut(end, now_, gpus, in_.jobs[job].gpu_share);
    run.busy_ends.clear();
    return true;
  }

  // A timer step (start_timer_step()) on a runner: it waits for the end.
  bool timer_step(Runner& runner, RunningJob& run) {
    const Time end = start_timer_step(run);
    if (end > now_ && !wait_on_timer(runner, end)) return false;
    now_ = std::max(now_, end);
    end_timer_step(run);
    return true;
  }

  // The busy intervals of a computation step, recorded before any activity
  // starts (each start lets other actors run, and one may stop this job).
  // The GPU gives the job nothing but its share, so they are known now.
  void record_compute_busy(RunningJob& run, const JobStep& step, double share) {
    run.busy_ends.clear();
    for (std::size_t i = 0; i < run.hosts.size(); ++i)
      add_busy_end(run, now_ + step.amount * run.compute_scale[i] / (run.hosts[i]->get_speed() * share));
    // One interval per distinct end, not per GPU: a job preempted over and
    // over would otherwise fill memory with the intervals of its GPUs.
    for (const auto& [end, gpus] : run.busy_ends) recorder_.busy(now_, end, gpus, share);
  }

  // A runner waits on a kernel timer until `end`, or until interrupted
  // (cancel_step()). False when its job or the run stopped meanwhile.
  bool wait_on_timer(Runner& runner, Time end) {
    if (runner.interruption.empty()) runner.interruption.push_back(runner.inbox->get_async<void>(&runner.message));
    runner.waits_on = Runner::Wait::kTimer;
    const ssize_t index =
        sg4::Activity::wait_any_for(runner.interruption, std::max(0.0, end - sg4::Engine::get_clock()));
    runner.waits_on = Runner::Wait::kNothing;
    if (index >= 0) {  // interrupted; the receive is spent
      runner.interruption.clear();
      return false;
    }
    return resumed();
  }

  // A runner is back from a wait. False when the run has stopped since.
  bool resumed() {
    if (stopped_) return false;
    ++wakes_;
    advance_clock();
    // While the scheduler sleeps through a long job, its runner keeps the
    // progress line going, and a stop request wakes the scheduler now, not
    // at its next wake-up: it stops at the top of its loop.
    report_progress();
    if (in_.options.stop_request && *in_.options.stop_request != 0) ring();
    return true;
  }

  // Starts the activities of a computation or ring step.
  void start_step(JobIndex job, const JobStep& step) {
    RunningJob& run = *running_[job];
    const std::size_t n = run.hosts.size();
    const double share = in_.jobs[job].gpu_share;
    run.busy_ends.clear();
    switch (step.kind) {
      case JobStep::Kind::kCompute:
        record_compute_busy(run, step, share);
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
        // Meanwhile each node's pipeline decodes the step's input on the
        // node's cores, shared with the other pipelines there by GPUs and
        // held to the cores the job asked for there, if it asked.
        for (const NodeDecoding& node : run.decoding) {
          sg4::ExecPtr exec = sg4::Exec::init();
          exec->set_flops_amount(step.iterations * node.core_seconds_per_iteration)
              ->set_host(platform_.cpu_hosts[node.node]);
          if (node.cores_asked > 0) exec->set_bound(node.cores_asked);
          exec->set_priority(node.gpus);
          run.activities.push_back(exec);
          exec->start();
        }
        break;
      case JobStep::Kind::kRingStep:
        ring_step(job, run, step.amount);
        break;
      case JobStep::Kind::kPush:
      case JobStep::Kind::kPull:
        // Every worker and every server not on its host, all at once.
        for (const Transfer& t : run.pushes) {
          if (step.kind == JobStep::Kind::kPush) {
            send(run, run.hosts[t.from], run.hosts[t.to], step.amount);
          } else {
            send(run, run.hosts[t.to], run.hosts[t.from], step.amount);
          }
        }
        break;
      case JobStep::Kind::kIntraNode:
      case JobStep::Kind::kInterNode:
        for (const Transfer& t : step.kind == JobStep::Kind::kIntraNode ? run.intra_node_step : run.inter_node_step)
          send(run, run.hosts[t.from], run.hosts[t.to], step.amount);
        break;
      case JobStep::Kind::kDelay:
      case JobStep::Kind::kBusy:
        assert(false && "a delay or a notebook's burst is a timer: it starts no activity");
        break;
    }
  }

  // A ring step: each GPU sends `bytes` to the next. A hop inside a node
  // crosses the sender's port up and the receiver's port down, and in a ring
  // each GPU sends once and receives once: held whole by this job, those
  // ports carry no other flow (without cross-traffic, which sends
  // acknowledgements back over the previous hop's ports). So the hops inside
  // nodes whose ports have the same bandwidth and latency all take the same
  // time, whatever else the network carries, and one transfer stands for
  // them: the solver then has one variable where it had one per hop. Hops
  // between nodes share NICs and uplinks with other jobs: each stays a
  // transfer of its own.
  void ring_step(JobIndex job, RunningJob& run, double bytes) {
    const std::size_t n = run.hosts.size();
    if (run.gpu_share < 1 || in_.layout.spec().network.crosstraffic) {
      for (std::size_t i = 0; i < n; ++i) send(run, run.hosts[i], run.hosts[(i + 1) % n], bytes);
      return;
    }
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;  // ring order, as run.hosts
    assert(gpus.size() == n && "a running job holds the GPUs its run began on");
    // The intra-node hops sent so far: their ports' bandwidth and latency, their activity.
    // Local: each send() lets other runners run, and they may be in a ring step too.
    std::vector<std::tuple<double, double, std::size_t>> inside;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t next = (i + 1) % n;
      const NodeId node = in_.layout.node_of(gpus[i]);
      if (node == in_.layout.node_of(gpus[next])) {
        const LinkSpec& ports = in_.layout.group_of_node(node).intra;
        const auto same = std::find_if(inside.begin(), inside.end(), [&](const auto& hop) {
          return std::get<0>(hop) == ports.bandwidth && std::get<1>(hop) == ports.latency;
        });
        if (same != inside.end()) {
          ++run.activity_transfers[std::get<2>(*same)];
          continue;
        }
        inside.emplace_back(ports.bandwidth, ports.latency, run.activities.size());
      }
      send(run, run.hosts[i], run.hosts[next], bytes);
      run.activity_transfers.push_back(1);
    }
  }

  // A transfer of the current step. At least one byte: SimGrid 3.32 never
  // completes a zero-byte host-to-host transfer.
  static void send(RunningJob& run, sg4::Host* from, sg4::Host* to, double bytes) {
    const auto whole = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(bytes)));
    run.activities.push_back(sg4::Comm::sendto_async(from, to, whole));
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

  // Stops the job's runner (or its DAG's actors), cancels what its current
  // step still runs, and ends its busy intervals now. The runner returns to
  // the idle ones without touching the job again:
  // - waiting on one of the step's activities, it is not killed (SimGrid 3.32
  //   answers that wait once for the kill and once for the activity it
  //   cancels, and aborts): the canceled activity ends its wait with an
  //   exception;
  // - waiting on a timer (a delay, a computation alone on its GPUs), a
  //   message to its mailbox ends the wait at this instant: no actor is
  //   killed and made again, which preemption-heavy runs would pay each time;
  // - between waits (still starting its step) it is killed, which is safe.
  void cancel_step(JobIndex job) {
    RunningJob& run = *running_[job];
    if (run.runner && run.runner->waits_on == Runner::Wait::kTimer) {
      run.runner->inbox->put_init(run.runner, 0)->detach();  // a payload marks the sender
    } else if (run.runner && run.runner->waits_on == Runner::Wait::kNothing) {
      // Its receive, if one is posted, goes with it: the next actor posts its
      // own. The actor is not reused, and no ActorPtr is kept to it: SimGrid
      // frees an actor's stack only once none refers to it, and keeping one
      // per kill would keep a stack and its guard mappings each time.
      if (!run.runner->interruption.empty()) run.runner->interruption.front()->cancel();
      run.runner->interruption.clear();
      run.runner->actor->kill();
      run.runner->actor = nullptr;
      killed_runners_.push_back(run.runner);
    }
    if (run.dag) run.dag->cancel();
    for (const auto& activity : run.activities) activity->cancel();
    for (const auto& [end, gpus] : run.busy_ends) recorder_.busy_cut(end, now_, gpus, in_.jobs[job].gpu_share);
    run.activities.clear();
    run.activity_transfers.clear();
    run.busy_ends.clear();
  }

  // Jobs hold GPUs while waiting for more, no job runs and no timer is set:
  // no GPU will ever be freed (later submissions only take GPUs), so they wait
  // on each other forever. A policy that resolves such waits does it with a
  // wake-up (a timeout), which keeps this from firing.
  bool deadlocked() {
    if (!state_.running().empty() || !wake_ups_.empty() || cpu_.running() > 0) return false;
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
      if (audit_) in_.policy.check_invariants(context);
    } catch (const InvariantViolation&) {
      audited_after_ = "the policy's call";
      throw;
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
    const SchedulerState::Applied applied = apply_plan(plan);
    instant_guard_.record(plan);
    for (JobIndex job : applied.started) launch(job);
    if (plan.wake_time() > now_ && plan.wake_time() != kNever) wake_ups_.push(plan.wake_time());
  }

  // Applies a plan (the policy's, or a node failure's: `crashed`) to the
  // state, records its starts, partial holds, releases and preemptions all at
  // once, and stops the preempted runs; what they threw away is in
  // `lost_gpu_seconds`.
  SchedulerState::Applied apply_plan(const Plan& plan, double* lost_gpu_seconds = nullptr, bool crashed = false) {
    const double allocated_before = state_.allocated_gpus();
    const std::size_t queued_before = state_.waiting().size();
    SchedulerState::Applied applied = state_.apply(plan, now_);
    recorder_.allocation_changed(
        now_, state_.allocated_gpus() - allocated_before,
        static_cast<std::int64_t>(state_.waiting().size()) - static_cast<std::int64_t>(queued_before));
    double lost = 0;
    for (JobIndex job : applied.preempted) lost += stop(job, crashed);
    if (lost_gpu_seconds) *lost_gpu_seconds = lost;
    return applied;
  }

  void launch(JobIndex job) {
    const JobSpec& spec = in_.jobs[job];
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    if (const auto* dag = std::get_if<DagWork>(&spec.work)) return launch_dag(job, *dag);
    if (ServingController* deployment = deployment_of(job)) return launch_replica(job, *deployment);
    PlacementCosts costs = placement_costs(spec, gpus, in_.layout, in_.locality);
    if (costs.rescaled && !rescaled_[job]) {
      rescaled_[job] = true;
      recorder_.job_rescaled();
    }
    // A job resuming from a checkpoint runs the rest of its work after restoring.
    const double saved = state_.runtime(job).saved_fraction;
    const Time restore = saved > 0 ? spec.checkpoint.restore_cost : 0;
    JobActivityPlan plan(spec, in_.options.fidelity, costs.measured_type_flops, costs.exchange_latency, 1 - saved,
                         restore, in_.options.job_rounds, costs.hierarchy);
    std::vector<NodeDecoding> decoding = node_decoding(spec, gpus, in_.layout);
    plan.set_decode_seconds(decode_seconds_alone(decoding, in_.layout));
    const Time work_seconds = plan.uncontended_work_seconds(costs.slowest_gpu_flops, costs.exchange_bandwidth);
    plan.add_trailing_delay(checkpoint_overhead(spec.checkpoint, work_seconds));
    const Time synthetic_seconds = plan.synthetic_work_seconds(costs.slowest_gpu_flops, costs.exchange_bandwidth);

    RunningJob& run = begin_run(job, std::move(plan));
    run.decoding = std::move(decoding);
    run.synthetic_seconds = synthetic_seconds;
    run.compute_scale = std::move(costs.compute_scale);
    run.pushes = std::move(costs.pushes);
    run.intra_node_step = std::move(costs.intra_node_step);
    run.inter_node_step = std::move(costs.inter_node_step);
    run.work_seconds = work_seconds;
    run.work_started = now_ + restore;
    // A notebook computes nothing: its bursts are timers at any share.
    if (run.plan->without_transfers() &&
        (run.computes_on_timers() || std::holds_alternative<NotebookWork>(spec.work))) {
      run_timer_steps(job);
    } else {
      start_runner(job);
    }
  }

  // A job starts running on its allocated GPUs: its hosts and its outcome's start and placement.
  RunningJob& begin_run(JobIndex job, std::optional<JobActivityPlan> plan) {
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    running_[job] = std::make_unique<RunningJob>(std::move(plan));
    RunningJob& run = *running_[job];
    for (GpuId g : gpus) run.hosts.push_back(platform_.gpu_hosts[g]);
    run.gpu_share = in_.jobs[job].gpu_share;
    run.started = now_;
    memory_.started(job, gpus, now_);
    recorder_.job_started(job, now_, gpus);
    return run;
  }

  // A replica holds its GPUs, busy serving, until its deployment ends or lets
  // it go; the deployment's controller models its requests.
  void launch_replica(JobIndex job, ServingController& deployment) {
    RunningJob& run = begin_run(job, std::nullopt);
    run.work_started = now_;
    const Time end = deployment.end_time();
    run.busy_ends.emplace_back(end, run.hosts.size());
    recorder_.busy(now_, end, run.hosts.size(), run.gpu_share);
    deployment.replica_running(job, now_);
  }

  // A DAG job runs its own worker actors; its coordinator reports its end.
  // Preempted, it starts over (no checkpoints of a DAG's progress). Its GPU
  // workers stand on its GPUs, in order; its CPU workers on its nodes' CPU
  // hosts, dealt over its GPUs in turn (CPU worker i at the node of GPU i mod
  // g), so that each node holds them as it holds the job's GPUs and the cores
  // split over them.
  void launch_dag(JobIndex job, const DagWork& dag) {
    RunningJob& run = begin_run(job, std::nullopt);
    run.work_seconds = dag_list_schedule_seconds(dag, slowest_gpu_flops(in_.layout, state_.runtime(job).gpus));
    run.work_started = now_;
    const std::vector<GpuId>& gpus = state_.runtime(job).gpus;
    std::vector<sg4::Host*> workers;
    std::size_t next_gpu = 0, next_cpu = 0;
    for (const DagPool& pool : dag.pools)
      for (std::uint32_t w = 0; w < pool.workers; ++w)
        workers.push_back(pool.cpu ? platform_.cpu_hosts[in_.layout.node_of(gpus[next_cpu++ % gpus.size()])]
                                   : run.hosts[next_gpu++]);
    start_dag_run(job, dag, workers);
  }

  // A DAG of CPU workers, started by the CPU dispatch on the nodes it holds:
  // its workers, in pool order, fill those nodes in order, each node's CPU
  // host taking as many as the placement gives it. Its last task ends it
  // (end_jobs()); a failure of one of its nodes starts it over.
  void launch_cpu_dag(JobIndex job, const DagWork& dag) {
    running_[job] = std::make_unique<RunningJob>(std::nullopt);
    RunningJob& run = *running_[job];
    run.started = now_;
    run.work_started = now_;
    run.work_seconds = dag_list_schedule_seconds(dag, 1.0);  // CPU tasks have no FLOPs
    std::vector<sg4::Host*> workers;
    for (const CpuShare& share : state_.cpu_job_placement(job))
      workers.insert(workers.end(), share.workers, platform_.cpu_hosts[share.node]);
    start_dag_run(job, dag, workers);
  }

  void start_dag_run(JobIndex job, const DagWork& dag, const std::vector<sg4::Host*>& workers) {
    RunningJob& run = *running_[job];
    const std::string name = "dag-" + std::to_string(job) + "-" + std::to_string(epoch_[job]);
    run.dag = std::make_unique<DagRun>(
        dag, workers, platform_.control_host(), name,
        [this](double start, double end) {
          ++wakes_;  // a worker back from its execution (see settle())
          if (recording_) recorder_.busy(start, end, 1, 1.0);
        },
        [this, job] {
          if (stopped_) return;
          recorder_.event_handled();
          report_end(job);
        },
        failure_);
  }

  // Returns the GPU-seconds its run threw away (since its last checkpoint).
  // `crashed`: its node failed, and it had no time to save its work (only its
  // periodic checkpoints count).
  double stop(JobIndex job, bool crashed) {
    ++epoch_[job];  // its next run's DAG actors get other names
    recorder_.run_stopped(job, now_, RunEnd::kPreempted);
    if (ServingController* deployment = deployment_of(job)) {
      // A replica loses no work, only the time it will take to start again.
      deployment->replica_stopped(job, now_);
      recorder_.job_preempted(held_gpu_seconds(job), 0, false);
      cut_run(job);
      return 0;
    }
    RunningJob& run = *running_[job];
    // It keeps the work up to its last checkpoint (none: it starts over).
    const JobSpec& spec = in_.jobs[job];
    CheckpointSpec checkpoint = spec.checkpoint;
    if (crashed) checkpoint.at_preemption = false;
    const RunProgress progress = progress_at_preemption(checkpoint, run.work_seconds, now_ - run.work_started);
    const double saved_before = state_.runtime(job).saved_fraction;
    const double kept_of_run = run.work_seconds > 0 ? progress.kept_work_seconds / run.work_seconds : 0;
    // No periodic checkpoint is taken at the very end of the work. A save at
    // preemption may count it all done (slowed by contention, the run had not
    // ended); the run still has something left, its last iteration.
    const double saved_after = std::min(saved_before + (1 - saved_before) * kept_of_run, std::nextafter(1.0, 0.0));
    state_.set_saved_fraction(job, saved_after);
    const double lost = progress.lost_seconds * static_cast<double>(run.hosts.size()) * spec.gpu_share;
    recorder_.job_preempted(held_gpu_seconds(job), lost, saved_after == 0);
    thrashing_guard_.preempted(job, saved_before, saved_after, lost);
    cut_run(job);
    return lost;
  }

  // The job's run stops here, for good: its activities cancelled, its
  // memory freed, and it is no longer among the jobs whose steps all ran at
  // this instant (a failure or a preemption at that instant wins).
  void cut_run(JobIndex job) {
    cancel_step(job);
    memory_.ended(job);
    ended_.erase(std::remove(ended_.begin(), ended_.end(), job), ended_.end());
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

  const SimulationInput& in_;
  const SimGridPlatform& platform_;
  ActorFailure& failure_;
  SchedulerState state_;
  // One pointer per job, the run itself only while it runs: a run holds its
  // plan, hosts and activities, far more than a waiting job should cost.
  std::vector<std::unique_ptr<RunningJob>> running_;
  std::vector<std::uint32_t> epoch_;
  std::vector<bool> rescaled_;      // jobs counted in RunRecord::rescaled_jobs
  std::vector<JobIndex> arrivals_;  // the jobs that depend on none, by submit time
  std::size_t next_arrival_ = 0;
  // Jobs that depend on others: per job, those waiting for it, and how many
  // of its own it still waits for (both empty when no job depends on any);
  // those released, by when they join the queue (then workload order).
  std::vector<std::vector<JobIndex>> dependants_;
  std::vector<std::uint32_t> unmet_;
  std::priority_queue<std::pair<Time, JobIndex>, std::vector<std::pair<Time, JobIndex>>, std::greater<>> releases_;
  // Node failures: the next to replay, and the nodes down, by when their repair ends.
  std::size_t next_failure_ = 0;
  std::priority_queue<std::pair<Time, NodeId>, std::vector<std::pair<Time, NodeId>>, std::greater<>> repairs_;
  std::priority_queue<Time, std::vector<Time>, std::greater<>> wake_ups_;               // the policy asked for
  std::priority_queue<TimerStep, std::vector<TimerStep>, std::greater<>> timer_steps_;  // run_timer_steps()
  std::vector<JobIndex> ended_;  // jobs whose steps all ran, not yet ended (end_jobs())
  // The doorbell: a receive on a mailbox, the one activity the scheduler
  // waits on; a runner ends the wait by sending to it (report_end()).
  sg4::Mailbox* doorbell_ = nullptr;
  std::vector<sg4::ActivityPtr> doorbell_wait_;
  void* doorbell_payload_ = nullptr;
  bool listening_ = false;  // the scheduler waits on the doorbell
  bool rung_ = false;       // a message to the doorbell is on its way
  std::vector<std::unique_ptr<Runner>> runners_;
  std::vector<Runner*> idle_runners_;
  std::vector<Runner*> killed_runners_;  // their actors killed (cancel_step()); reused with a new actor
  std::size_t runners_started_ = 0;
  std::uint64_t wakes_ = 0;                            // runners and DAG workers back from a wait (settle())
  const std::vector<sg4::ActivityPtr> no_activities_;  // a wait on these is a kernel timer
  int stop_request_ = 0;   // SimulationOptions::stop_request's value when it stopped the run
  bool stopped_ = false;   // the run is over (or failed): runners do nothing more
  bool recording_ = true;  // false once the run failed
  InstantGuard instant_guard_;
  ThrashingGuard thrashing_guard_;
  MemoryWatch memory_;
  CpuDispatch cpu_;
  // Serving deployments, in workload order, and per job the one it is a
  // replica of (empty when the workload has none).
  static constexpr std::uint32_t kNoDeployment = static_cast<std::uint32_t>(-1);
  std::vector<ServingController> serving_;
  std::vector<std::uint32_t> deployment_of_;
  RunRecorder recorder_;
  std::optional<StateAudit> audit_;  // --check only
  const char* audited_after_ = "";   // what the audit last followed
  bool ran_out_of_events_ = false;   // the loop ended with nothing more to happen
  Time now_ = 0;
  // The progress report's (report_progress()).
  const std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
  std::uint64_t turns_ = 0;
  double last_report_ = 0;
};

}  // namespace

RunRecord simulate(const SimulationInput& input) {
  // SimGrid reads its own options from argv; keep its console quiet but for warnings.
  std::vector<std::string> options{"gcsim", "--log=root.thres:warning"};
#ifdef GCSIM_SANITIZED
  // AddressSanitizer does not follow SimGrid's own switches between actors'
  // stacks: an exception unwinding in an actor is misreported. It follows
  // threads (docs/robustness.md).
  options.push_back("--cfg=contexts/factory:thread");
#endif
  std::vector<char*> argv;
  for (std::string& option : options) argv.push_back(option.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(options.size());
  // SimGrid's engine takes SIGINT for itself (it prints its actors and
  // exits); a caller that reads a stop request keeps its own handler.
  struct sigaction caller_sigint {};
  ::sigaction(SIGINT, nullptr, &caller_sigint);
  sg4::Engine engine(&argc, argv.data());
  if (input.options.stop_request) ::sigaction(SIGINT, &caller_sigint, nullptr);
  configure_network_model(input.layout.spec().network);
  // CPU hosts only where a job decodes its input on them, or a DAG's CPU workers stand on them.
  const bool cpu_hosts = std::any_of(input.jobs.begin(), input.jobs.end(), [](const JobSpec& job) {
    const auto* training = std::get_if<TrainingWork>(&job.work);
    const auto* dag = std::get_if<DagWork>(&job.work);
    return (training && training->input_pipeline.enabled()) || (dag && dag_cpu_workers(*dag) > 0);
  });
  const SimGridPlatform platform = build_platform(input.layout, cpu_hosts);

  ActorFailure failure;
  Scheduler scheduler(input, platform, failure);
  sg4::Actor::create("scheduler", platform.control_host(), guarded(failure, [&scheduler] { scheduler.run(); }));
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
