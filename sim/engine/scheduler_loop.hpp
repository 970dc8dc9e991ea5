// scheduler_loop.hpp: the scheduler actor's loop: it wakes for arrivals,
// the policy's wake-ups, timer steps' ends and jobs' ends (a runner rings
// the doorbell), takes every change of one instant, hands them to the
// policy in one call and applies its plan as one transaction.
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
// waits again while runners woke in that step; then every end at t is in
// (settle()).
//
// The loop owns the run's parts and subscribes their listeners (engine_events.hpp):
// the recorder, the run log (SimulationOptions::keep_runs), the audit
// (SimulationOptions::check), the livelock and thrashing guards, the memory
// watch, the serving deployments, then SimulationOptions::listeners.
//
//   SchedulerLoop loop(input, platform, failure);
//   sg4::Actor::create("scheduler", host, guarded(failure, [&] { loop.run(); }));
//   engine.run();
//   RunRecord record = loop.finish_record();
#pragma once

#include <exception>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/invariant_violation.hpp"
#include "sim/engine/actor_failure.hpp"
#include "sim/engine/arrivals.hpp"
#include "sim/engine/cpu_dispatch.hpp"
#include "sim/engine/engine_context.hpp"
#include "sim/engine/instant_guard.hpp"
#include "sim/engine/job_runs.hpp"
#include "sim/engine/memory_watch.hpp"
#include "sim/engine/node_outages.hpp"
#include "sim/engine/platform_builder.hpp"
#include "sim/engine/record_listeners.hpp"
#include "sim/engine/serving_deployments.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/engine/state_audit.hpp"
#include "sim/engine/thrashing_guard.hpp"

namespace gcsim {

class SchedulerLoop {
 public:
  SchedulerLoop(const SimulationInput& input, const SimGridPlatform& platform, ActorFailure& failure);

  /// The scheduler actor's body. Throws what made the run fail (simulate()
  /// hands it to its caller).
  void run();
  /// The run's record, once the SimGrid engine has run. Call once.
  RunRecord finish_record();

 private:
  void loop();
  // An actor failed (ActorFailure::stop): the others do nothing more once
  // they wake, and the scheduler, woken if it waits, rethrows the failure
  // from its loop, cancelling every activity on its way out (abandon()).
  // Killing every actor instead would abort SimGrid (runner_pool.hpp).
  void stop_after_failure();
  void rethrow_a_failure() const {
    if (engine_.failure.first) std::rethrow_exception(engine_.failure.first);
  }
  // One stage of the instant's changes applied: --check audits the state.
  void settled(const char* after) {
    if (audit_) audited_after_ = after;
    engine_.events.settled({engine_.now, engine_.state, after});
  }
  std::string describe(const InvariantViolation& violation, const std::string& after) const;
  // Ends the timer steps due by now and takes the arrivals, wake-ups,
  // failures and deployments' actions due. True when they, or the job ends
  // reported since the last policy call, are news for the policy.
  bool take_changes();
  bool take_serving_changes();
  // Returns once every actor waits on something later than now (see the header).
  void settle();
  // Blocks until the next arrival or wake-up is due or a runner rings the
  // doorbell. Returns false when nothing can happen any more.
  bool wait_for_next();
  void submit(JobIndex job, Time submitted);
  // A job ended: the jobs that waited for it and for nothing else are
  // submitted after their delay, or at their submit time if later.
  void release_dependants(JobIndex job);
  // A running job failed, and every job waiting for it, directly or not, with it.
  void fail_running(JobIndex job, Failure failure);
  // The jobs that reported their end, in job order: each is done at this instant.
  void end_jobs();
  // The CPU jobs that fit now start (cpu_dispatch.hpp), after the policy's
  // GPU jobs of this instant.
  void dispatch_cpu_jobs();
  void call_policy();
  void ask_policy(Plan& plan);
  bool deadlocked();
  bool stopped_by_a_guard();
  // After a failure: stops every activity and worker, telling nothing more.
  void abandon();

  EngineContext engine_;
  CpuDispatch cpu_;
  ServingDeployments serving_;
  Arrivals arrivals_;
  JobRuns runs_;
  NodeOutages outages_;
  InstantGuard instant_guard_;
  ThrashingGuard thrashing_guard_;
  MemoryWatch memory_;
  std::optional<RunLogListener> run_log_;                                  // SimulationOptions::keep_runs only
  std::optional<StateAudit> audit_;                                        // SimulationOptions::check only
  std::priority_queue<Time, std::vector<Time>, std::greater<>> wake_ups_;  // the policy asked for
  const std::vector<simgrid::s4u::ActivityPtr> no_activities_;             // a wait on these is a kernel timer
  const char* audited_after_ = "";                                         // what the audit last followed
  int stop_request_ = 0;            // SimulationOptions::stop_request's value when it stopped the run
  bool ran_out_of_events_ = false;  // the loop ended with nothing more to happen
};

}  // namespace gcsim
