// timer_steps.hpp: the steps that are kernel timers, and the jobs that run
// on timers alone, without an actor.
//
// A delay (a latency, a restore, a checkpoint's time) is exact as a timer,
// where a sleep would be rounded up to SimGrid's precision. A computation on
// GPUs a job holds whole is a timer to its slowest GPU's end: nothing else
// computes on such a GPU (a GPU is held whole by one job or shared by
// fractional ones; links carry transfers, not computations), so each GPU's
// execution would take exactly its FLOPs over its speed, and one execution
// per GPU would cost the solver a variable each. A notebook's burst is a
// timer at any share.
//
// Jobs whose steps are all timers need no actor: the scheduler keeps the end
// of each one's current step in a heap, wakes for the earliest (next_end()),
// and runs the next steps itself (end_due()), exactly as a runner does. A
// preempted job's entry stays in the heap, stale (its run is gone or its
// epoch changed), and is skipped when it comes up.
//
//   TimerSteps timers(engine, runs);
//   timers.run(job);      // from its current step
//   ... at the earliest end: timers.end_due();
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/engine/engine_context.hpp"
#include "sim/engine/running_job.hpp"

namespace gcsim {

class JobRuns;

class TimerSteps {
 public:
  /// `running` and `epoch`: per job, its run while it runs and its epoch (JobRuns's).
  TimerSteps(EngineContext& engine, JobRuns& runs, const std::vector<std::unique_ptr<RunningJob>>& running,
             const std::vector<std::uint32_t>& epoch)
      : engine_(engine), runs_(runs), running_(running), epoch_(epoch) {}

  /// Runs the job's steps from its current one: each step that ends at this
  /// instant ends now, the first that lasts longer goes in the heap. When
  /// all have run, the job's steps are done (JobRuns::steps_done()).
  void run(JobIndex job);
  /// The timer steps due by now end; their jobs go on to their next steps.
  void end_due();
  /// When the earliest live timer step ends (kNever: none runs).
  Time next_end() {
    drop_stale();
    return heap_.empty() ? kNever : heap_.top().end;
  }

  /// Starts the job's current step, a timer, and returns its end (its busy
  /// intervals told).
  Time start(RunningJob& run);
  /// The job's current timer step ends now. A computation counts an event per GPU.
  void end(RunningJob& run);
  /// The busy intervals of a computation step at `share` of each GPU,
  /// recorded before any activity starts (each start lets other actors
  /// run, and one may stop this job). The GPU gives the job nothing but its
  /// share, so they are known now.
  void record_compute_busy(RunningJob& run, const JobStep& step, double share);

 private:
  struct TimerStep {
    Time end;
    JobIndex job;
    std::uint32_t epoch;
    // The heap's top is the earliest end; the job index breaks ties, so the
    // order of one instant's ends does not depend on the heap's history.
    bool operator>(const TimerStep& other) const { return end != other.end ? end > other.end : job > other.job; }
  };
  bool stale(const TimerStep& step) const { return !running_[step.job] || epoch_[step.job] != step.epoch; }
  void drop_stale() {
    while (!heap_.empty() && stale(heap_.top())) heap_.pop();
  }

  EngineContext& engine_;
  JobRuns& runs_;
  const std::vector<std::unique_ptr<RunningJob>>& running_;
  const std::vector<std::uint32_t>& epoch_;
  std::priority_queue<TimerStep, std::vector<TimerStep>, std::greater<>> heap_;
};

}  // namespace gcsim
