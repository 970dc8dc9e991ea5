#include "sim/engine/scheduler_loop.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include <simgrid/Exception.hpp>

#include "sim/core/input_error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/report/record_audit.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;
namespace {

// A CPU job's run holds no GPUs.
const std::vector<GpuId> kNoGpus;

// Each job's whole work in GPU-seconds: its uncontended run time x GPUs x share.
std::vector<double> gpu_seconds_needed(const SimulationInput& input, const SchedulerState& state) {
  std::vector<double> need(input.jobs.size());
  for (JobIndex j = 0; j < need.size(); ++j)
    need[j] = state.oracle_duration(j) * static_cast<double>(input.jobs[j].gpus) * input.jobs[j].gpu_share;
  return need;
}

}  // namespace

SchedulerLoop::SchedulerLoop(const SimulationInput& input, const SimGridPlatform& platform, ActorFailure& failure)
    : engine_(input, platform, failure),
      cpu_(input.jobs),
      serving_(input.jobs),
      arrivals_(input.jobs),
      runs_(engine_, cpu_, serving_),
      outages_(engine_, runs_, cpu_),
      thrashing_guard_(gpu_seconds_needed(input, engine_.state)),
      memory_(input.jobs, input.layout, input.options.gpu_memory_isolation) {
  failure.stop = [this] { stop_after_failure(); };
  // The recorder is the engine context's, subscribed first.
  if (input.options.keep_runs) engine_.events.subscribe(run_log_.emplace());
  if (input.options.check) engine_.events.subscribe(audit_.emplace(input.layout, input.jobs));
  engine_.events.subscribe(instant_guard_);
  engine_.events.subscribe(thrashing_guard_);
  engine_.events.subscribe(memory_);
  if (serving_.any()) engine_.events.subscribe(serving_);
  for (EngineListener* listener : input.options.listeners) engine_.events.subscribe(*listener);
}

void SchedulerLoop::run() {
  engine_.doorbell.open();
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
  engine_.stopped = true;
  runs_.cut_all();
  engine_.doorbell.close();
}

RunRecord SchedulerLoop::finish_record() {
  engine_.report_progress(true);
  RunRecord record = engine_.recording.recorder().finish(engine_.now, engine_.state);
  if (run_log_) run_log_->close(engine_.now, record);
  record.stop_request = stop_request_;
  record.first_startup = runs_.first_startups();
  record.serving = serving_.outcomes(engine_.now);
  if (audit_) {
    try {
      audit_->check_end(engine_.state, ran_out_of_events_ && !record.deadlock);
      audit_record(record, audit_->waiting_hold_gpu_seconds(engine_.now));
    } catch (const InvariantViolation& violation) {
      throw InvariantBroken(describe(violation, "the end of the run"));
    }
  }
  return record;
}

void SchedulerLoop::loop() {
  while (true) {
    engine_.report_progress();
    rethrow_a_failure();
    engine_.advance_clock();
    if (engine_.now >= engine_.in.options.until) return;
    if (engine_.stop_requested()) {
      stop_request_ = *engine_.in.options.stop_request;
      return;
    }
    if (take_changes()) {
      settled("the arrivals, timers and failures");
      // Everything else happening at this instant reaches the policy in the same call.
      settle();
      rethrow_a_failure();
      take_changes();
      if (runs_.any_ended()) {
        end_jobs();
        settled("the jobs' ends");
      }
      call_policy();
      settled("the policy's plan");
      if (cpu_.waiting()) {
        dispatch_cpu_jobs();
        settled("the CPU jobs' dispatch");
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

void SchedulerLoop::stop_after_failure() {
  engine_.stopped = true;
  engine_.doorbell.ring();
}

std::string SchedulerLoop::describe(const InvariantViolation& violation, const std::string& after) const {
  std::string text = "invariant '" + violation.invariant() + "' broken after " + after +
                     " at t=" + exact_number(engine_.now) + " s: " + violation.what();
  for (std::size_t i = 0; i < violation.jobs().size(); ++i)
    text += (i == 0 ? "; jobs: '" : ", '") + engine_.in.jobs[violation.jobs()[i]].id + "'";
  return text;
}

// The clock is read afresh at each use: a stop cancels activities, and the
// actors that run meanwhile may advance it (RunnerPool::timer_step()).
bool SchedulerLoop::take_changes() {
  runs_.timers().end_due();
  bool changed = runs_.any_ended();
  for (JobIndex job : cpu_.finish_due(engine_.state, engine_.now)) {
    engine_.events.finished({job, engine_.now, 0, 1.0, 0, 0, /*on_cpu=*/true});
    engine_.events.events_handled();
    release_dependants(job);
    changed = true;
  }
  while (const std::optional<Submission> due = arrivals_.next_due(engine_.now)) {
    submit(due->job, due->at);
    changed = true;
  }
  while (!wake_ups_.empty() && wake_ups_.top() <= engine_.now) {
    wake_ups_.pop();
    engine_.events.events_handled();
    changed = true;
  }
  for (JobIndex job : memory_.out_of_memory(engine_.now)) {
    fail_running(job, Failure::kOutOfMemory);
    changed = true;
  }
  if (outages_.take_due()) changed = true;
  if (serving_.any() && take_serving_changes()) changed = true;
  return changed;
}

// What the deployments have to do by now: replicas to submit and to take
// back, and their ends. True when anything changed for the policy.
bool SchedulerLoop::take_serving_changes() {
  bool changed = false;
  for (ServingController& deployment : serving_.all()) {
    if (deployment.next_event() > engine_.now) continue;
    const ServingController::Actions actions = deployment.advance(engine_.now);
    for (JobIndex job : actions.withdraw) runs_.withdraw(job);
    for (JobIndex job : actions.submit) submit(job, engine_.now);
    if (actions.ended) {
      // Its running replicas finish, the others are retired, and the jobs that waited for it are released.
      runs_.end_replicas(deployment);
      release_dependants(deployment.first_job());
    }
    engine_.events.events_handled();
    changed = changed || !actions.withdraw.empty() || !actions.submit.empty() || actions.ended;
  }
  return changed;
}

// A kernel timer at now fires only when no actor can run any more and the
// clock has taken its (zero) step; runners that this step woke (activities
// lasting no time) run right after this actor, so after one more round the
// wake count tells whether to wait again.
void SchedulerLoop::settle() {
  std::uint64_t seen = 0;
  do {
    seen = engine_.wakes;
    sg4::Activity::wait_any_for(no_activities_, 0);
    sg4::this_actor::yield();
  } while (engine_.wakes != seen);
}

bool SchedulerLoop::wait_for_next() {
  const SchedulerState& state = engine_.state;
  Time next = engine_.in.options.until;
  next = std::min(next, arrivals_.next_time());
  if (!wake_ups_.empty()) next = std::min(next, wake_ups_.top());
  next = std::min(next, memory_.next_change());
  if (serving_.any()) next = std::min(next, serving_.next_event());
  // Failures and repairs matter only while some job is yet to end.
  const bool jobs_left = !state.running().empty() || !state.waiting().empty() || arrivals_.pending() ||
                         cpu_.waiting() || cpu_.running() > 0;
  if (jobs_left) next = std::min(next, outages_.next_time());
  next = std::min(next, runs_.timers().next_end());
  next = std::min(next, cpu_.next_end());
  // A DAG of CPU workers running has no end known in advance: its last task rings.
  if (next == kNever && state.running().empty() && cpu_.running() == 0) return false;
  const double timeout = next == kNever ? -1.0 : std::max(0.0, next - engine_.now);
  // Timed out: `next` is due, whatever rounding the clock went through.
  if (!engine_.doorbell.wait(timeout)) engine_.now = std::max(sg4::Engine::get_clock(), next);
  return true;
}

void SchedulerLoop::submit(JobIndex job, Time submitted) {
  const bool on_cpu = runs_on_cpu(engine_.in.jobs[job]);
  if (on_cpu) {
    cpu_.submit(engine_.state, job, submitted);
  } else {
    engine_.state.submit(job, submitted);
  }
  ServingController* deployment = serving_.of(job);
  engine_.events.submitted({job, engine_.now, submitted, on_cpu, deployment != nullptr});
  if (deployment && !deployment->started())
    for (JobIndex replica : deployment->start(engine_.now)) submit(replica, engine_.now);
}

void SchedulerLoop::release_dependants(JobIndex job) {
  for (const Submission& due : arrivals_.release(job, engine_.now)) submit(due.job, due.at);
}

void SchedulerLoop::fail_running(JobIndex job, Failure failure) {
  runs_.fail(job, failure);
  arrivals_.fail_dependants(
      job, [this](JobIndex next) { return engine_.state.runtime(next).state == JobState::kPending; },
      [this](JobIndex next, JobIndex cause) {
        JobFailed failed{next, engine_.now, Failure::kDependency, cause};
        engine_.events.failed(failed);
        engine_.state.fail_pending(next);
      });
}

void SchedulerLoop::end_jobs() {
  for (JobIndex job : runs_.finish_ended()) release_dependants(job);
}

void SchedulerLoop::dispatch_cpu_jobs() {
  for (JobIndex job : cpu_.dispatch(engine_.state, engine_.now)) {
    std::vector<NodeId> nodes;
    for (const CpuShare& share : engine_.state.cpu_job_placement(job)) nodes.push_back(share.node);
    engine_.events.started({job, engine_.now, kNoGpus, nodes, false, serving_.is_replica(job)});
    runs_.launch_on_cores(job);
  }
}

void SchedulerLoop::call_policy() {
  const Time called = engine_.now;
  Plan plan;
  ask_policy(plan);
  const SchedulerState::Applied applied = runs_.apply_plan(plan);
  engine_.events.plan_applied({called, plan});
  for (JobIndex job : applied.started) runs_.launch(job);
  if (plan.wake_time() > engine_.now && plan.wake_time() != kNever) wake_ups_.push(plan.wake_time());
}

// What the policy throws is its failure (PolicyFailed), except running out
// of memory, which is the machine's, and an error in the user's input that
// the policy found (a job naming a queue it does not have).
void SchedulerLoop::ask_policy(Plan& plan) {
  SchedulingPolicy& policy = engine_.in.policy;
  SchedulingContext context{engine_.now, engine_.state, engine_.state};
  try {
    policy.schedule(context, plan);
    if (audit_) policy.check_invariants(context);
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
    throw PolicyFailed("policy '" + std::string(policy.name()) + "' failed at t=" + std::to_string(engine_.now) +
                       " s: " + e.what());
  } catch (...) {
    throw PolicyFailed("policy '" + std::string(policy.name()) + "' failed at t=" + std::to_string(engine_.now) +
                       " s: it threw something other than a std::exception");
  }
}

// Jobs hold GPUs while waiting for more, no job runs and no timer is set:
// no GPU will ever be freed (later submissions only take GPUs), so they wait
// on each other forever. A policy that resolves such waits does it with a
// wake-up (a timeout), which keeps this from firing.
bool SchedulerLoop::deadlocked() {
  if (!engine_.state.running().empty() || !wake_ups_.empty() || cpu_.running() > 0) return false;
  std::vector<JobIndex> holders = engine_.state.holding();
  if (holders.empty()) return false;
  engine_.events.stopped_early(DeadlockReport{engine_.now, std::move(holders)});
  return true;
}

// The guards' verdicts (instant_guard.hpp, thrashing_guard.hpp): the run
// stops here, its record saying why.
bool SchedulerLoop::stopped_by_a_guard() {
  if (std::optional<LivelockReport> livelock = instant_guard_.livelock()) {
    engine_.events.stopped_early(std::move(*livelock));
    return true;
  }
  if (std::optional<ThrashingReport> thrashing = thrashing_guard_.thrashing(engine_.now)) {
    engine_.events.stopped_early(std::move(*thrashing));
    return true;
  }
  return false;
}

void SchedulerLoop::abandon() {
  engine_.stopped = true;
  try {
    runs_.abandon();
  } catch (const simgrid::ForcefulKillException&) {
    throw;
  } catch (...) {
    // The failure being reported is the first one.
  }
}

}  // namespace gcsim
