// runner_pool.hpp: the runner actors that run jobs' steps, one job at a
// time each, pooled on the scheduler's host.
//
// A runner starts a step's activities (a computation: one SimGrid Exec per
// GPU, bound to the job's share, or one per set of GPUs held whole that end
// together in a phase, and the input pipeline's decoding on its
// nodes' cores; a ring step: a host-to-host Comm per ring edge, or one for
// the edges inside a node, see ring_step(); parameter servers' pushes and
// pulls; a hierarchical allreduce's steps) and waits on them one after the
// other, each wait registered on that one activity; a timer step
// (timer_steps.hpp) is a kernel timer. When the job's steps all ran it says
// so (JobRuns::steps_done()). Idle, a runner waits on its semaphore for its
// next job, so a job's start costs no actor creation: there are as many
// runners as jobs that need one ever ran at once, each with a small stack.
//
// SimGrid 3.32 aborts when an actor blocked in Activity::wait_any_for on an
// activity it started is killed (the wait is answered twice), so a runner is
// stopped its own way for each wait (interrupt()).
//
//   RunnerPool runners(engine, runs, timers);
//   runners.start(job);       // its steps, from its current one
//   runners.interrupt(*run.runner);  // it was preempted
#pragma once

#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/ids.hpp"
#include "sim/engine/engine_context.hpp"
#include "sim/engine/running_job.hpp"
#include "sim/engine/timer_steps.hpp"

namespace gcsim {

class JobRuns;

// An actor on the scheduler's host that runs the steps of one job at a time.
// A runner stopped before it waits (RunnerPool::interrupt()) is killed and
// gets a new actor when it is next needed.
struct Runner {
  simgrid::s4u::ActorPtr actor;
  simgrid::s4u::SemaphorePtr next_job = simgrid::s4u::Semaphore::create(0);
  JobIndex job = kNoJob;
  // What the runner is blocked on: a stop ends each kind of wait its own way (RunnerPool::interrupt()).
  enum class Wait { kNothing, kTimer, kActivity } waits_on = Wait::kNothing;
  // A receive posted on the runner's own mailbox, the one activity of its
  // timer waits: a message there ends the wait before the timer does.
  simgrid::s4u::Mailbox* inbox = nullptr;
  std::vector<simgrid::s4u::ActivityPtr> interruption;
  void* message = nullptr;
};

class RunnerPool {
 public:
  RunnerPool(EngineContext& engine, JobRuns& runs, TimerSteps& timers)
      : engine_(engine), runs_(runs), timers_(timers) {}

  /// Gives the job to an idle runner, or to a new one.
  void start(JobIndex job);
  /// Stops the runner of a job whose run stops. It returns to the idle ones
  /// without touching the job again:
  /// - waiting on one of the step's activities, it is not killed (SimGrid
  ///   3.32 answers that wait once for the kill and once for the activity
  ///   the caller cancels, and aborts): the canceled activity ends its wait
  ///   with an exception;
  /// - waiting on a timer, a message to its mailbox ends the wait at this
  ///   instant: no actor is killed and made again, which preemption-heavy
  ///   runs would pay each time;
  /// - between waits (still starting its step) it is killed, which is safe.
  void interrupt(Runner& runner);
  /// Idle runners wait for a job that will not come: they end.
  void dismiss_idle();

 private:
  // The body of a runner actor: one job after the other, until the run stops.
  void serve(Runner& runner);
  // The steps of the job's plan, one after the other. Returns when the job's
  // steps all ran or it was stopped.
  void run_job(Runner& runner);
  // Starts a PhasedWork phase's computation and transfers.
  void phase_step(JobIndex job, RunningJob& run, const JobStep& step);
  // Starts a phase's computation on GPUs held whole: one Exec for each set of
  // GPUs that end together.
  static void phase_computation(RunningJob& run, const JobStep& step);
  // Runs the job's current step to its end. False when the run stopped
  // meanwhile: the job may then be gone, and nothing of it is touched.
  bool run_step(Runner& runner, JobIndex job);
  // A timer step on a runner: it waits for the end.
  bool timer_step(Runner& runner, RunningJob& run);
  // Waits on a kernel timer until `end`, or until interrupted. False when
  // its job or the run stopped meanwhile.
  bool wait_on_timer(Runner& runner, Time end);
  // A runner is back from a wait. False when the run has stopped since.
  bool resumed();
  // Starts the activities of a computation or transfer step.
  void start_step(JobIndex job, const JobStep& step);
  void ring_step(JobIndex job, RunningJob& run, double bytes);
  static void send(RunningJob& run, simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes);

  EngineContext& engine_;
  JobRuns& runs_;
  TimerSteps& timers_;
  std::vector<std::unique_ptr<Runner>> runners_;
  std::vector<Runner*> idle_;
  std::vector<Runner*> killed_;  // their actors killed (interrupt()); reused with a new actor
  std::size_t started_ = 0;
};

}  // namespace gcsim
