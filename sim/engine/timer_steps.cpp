#include "sim/engine/timer_steps.hpp"

#include <algorithm>
#include <cassert>

#include "sim/engine/job_runs.hpp"

namespace gcsim {
namespace {

// One more GPU of a computation step computing until `end` (GPUs of one type end together).
void add_busy_end(RunningJob& run, Time end) {
  for (auto& [at, gpus] : run.busy_ends)
    if (at == end) {
      ++gpus;
      return;
    }
  run.busy_ends.emplace_back(end, 1);
}

}  // namespace

void TimerSteps::end_due() {
  while (!heap_.empty() && heap_.top().end <= engine_.now) {
    const TimerStep due = heap_.top();
    heap_.pop();
    if (stale(due)) continue;
    RunningJob& run = *runs_.run(due.job);
    end(run);
    ++run.step;
    this->run(due.job);
  }
}

void TimerSteps::run(JobIndex job) {
  RunningJob& run = *runs_.run(job);
  for (; run.step < run.plan->step_count(); ++run.step) {
    const Time end = start(run);
    if (end > engine_.now) {
      heap_.push({end, job, runs_.epoch(job)});
      return;
    }
    this->end(run);
  }
  runs_.steps_done(job);
}

Time TimerSteps::start(RunningJob& run) {
  const Time now = engine_.now;
  const JobStep step = run.plan->step(run.step);
  run.on_delay = step.kind == JobStep::Kind::kDelay;
  if (run.on_delay) return now + step.amount;
  if (step.kind == JobStep::Kind::kBusy) {
    // A notebook's burst: its GPUs (or its shares of them) busy that long.
    run.busy_ends.assign(1, {now + step.amount, run.hosts.size()});
    engine_.events.busy({now, now + step.amount, run.hosts.size(), run.gpu_share, run.job});
    return now + step.amount;
  }
  assert((step.kind == JobStep::Kind::kCompute || step.kind == JobStep::Kind::kPhase) &&
         "a timer step is a delay, a computation (a phase that exchanges nothing) or a burst");
  record_compute_busy(run, step, 1.0);
  Time end = now;
  for (const auto& [at, gpus] : run.busy_ends) end = std::max(end, at);
  return end;
}

void TimerSteps::end(RunningJob& run) {
  if (run.on_delay) {
    engine_.events.events_handled();
    return;
  }
  engine_.events.events_handled(run.hosts.size());
  run.busy_ends.clear();
}

void TimerSteps::record_compute_busy(RunningJob& run, const JobStep& step, double share) {
  const Time now = engine_.now;
  run.busy_ends.clear();
  for (std::size_t i = 0; i < run.hosts.size(); ++i)
    add_busy_end(run, now + step.amount * run.compute_scale[i] / (run.host_speeds[i] * share));
  // One interval per distinct end, not per GPU: a job preempted over and
  // over would otherwise fill memory with the intervals of its GPUs.
  for (const auto& [end, gpus] : run.busy_ends) engine_.events.busy({now, end, gpus, share, run.job});
}

}  // namespace gcsim
