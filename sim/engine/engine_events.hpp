// engine_events.hpp: what the engine announces as a run goes, and to whom.
//
// The engine tells nobody by hand what happens: it announces each event once
// through EngineEvents, which calls every subscriber in the order they
// subscribed, as SimGrid's plugins connect to its signals. The subscribers
// of a run, in order: the run recorder and the run log (record_listeners.hpp),
// --check's audit (state_audit.hpp), the livelock and thrashing guards, the
// memory watch, the serving deployments, then SimulationOptions::listeners.
// A listener overrides the events it needs, and hears those alone: an event
// costs one virtual call per subscriber that overrides it.
//
// The events of one job, in order: submitted; then for each run: started,
// busy intervals (a computation's, told when it starts) and their cuts, and
// the run's end: preempted or stopped (the job waits again, or its
// deployment took it back, or the simulation ended), or finished or failed
// (the job ended). A job that never ran may fail (a job it waited for
// failed) or be retired (its deployment ended). Around them: allocation
// changes (a plan applied), events handled (activities and timers ended),
// the steps a runner starts and sees end (their activities, for listeners
// that follow the network: contention_recorder.hpp),
// nodes down and up, the policy's plans, and the state settled after each
// stage of an instant (the arrivals, the ends, the plan, the CPU dispatch).
// The figures only the engine knows (GPU-seconds held and lost, the work a
// checkpoint kept) come in the event.
//
//   struct Ends : EngineListener {
//     void on_finished(const JobFinished& e) override { ++finished; }
//     int finished = 0;
//   } ends;
//   EngineEvents events;
//   events.subscribe(ends);
//   events.finished(JobFinished{job, now, ...});  // ends.finished == 1
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/stage_power_plan.hpp"
#include "sim/report/run_record.hpp"

namespace gcsim {

class SchedulerState;
struct RunningJob;

/// A job joined the GPU queue, or the line of CPU jobs (`on_cpu`), at `now`.
struct JobSubmitted {
  JobIndex job = 0;
  Time now = 0;
  Time submitted = 0;    // its submission time (a released dependant's may be before now)
  bool on_cpu = false;   // it runs on CPUs (runs_on_cpu()), outside the GPU queue
  bool replica = false;  // a serving deployment's replica, which may be submitted again
};

/// A run of a job began on `gpus` (ring order), or, for a job that holds no
/// GPU (runs_on_cpu()), on `nodes` (a CPU job's one, a DAG of CPU workers'
/// several, in cluster order).
struct RunStarted {
  JobIndex job = 0;
  Time now = 0;
  const std::vector<GpuId>& gpus;    // empty for a job on CPUs
  const std::vector<NodeId>& nodes;  // empty for a GPU job
  bool rescaled = false;             // a measured job's first run on a GPU type other than the one it was measured on
  bool replica = false;
  double power_limit_watts = 0;  // the limit per GPU the policy started the run under (Plan::allocate; 0: none)
  const PlannedPipeline* power_plan = nullptr;  // a power plan's states on these GPUs (PlacementCosts::power_plan)
};

/// A running job was preempted: by the policy's plan or because its node
/// failed. It waits again, its work kept up to its last checkpoint.
struct RunPreempted {
  JobIndex job = 0;
  Time now = 0;
  bool on_cpu = false;  // a CPU job on a failed node: no GPU-seconds
  bool replica = false;
  double held_gpu_seconds = 0;  // the run held
  double lost_gpu_seconds = 0;  // thrown away since its last checkpoint
  double saved_before = 0;      // fraction of its work kept before this run
  double saved_after = 0;       // and now
  bool kept_nothing = false;    // it starts over
};

/// A run stopped without the job ending or being preempted.
struct RunStopped {
  enum class Why : std::uint8_t {
    kWithdrawn,      // its deployment took the replica back (waiting ones too, which have no run)
    kSimulationEnd,  // the run ended (--until, a stop request, a guard): it counts as held so far
  };
  JobIndex job = 0;
  Time now = 0;
  Why why = Why::kWithdrawn;
  bool on_gpus = false;  // it had a run on GPUs, which held `held_gpu_seconds`
  double held_gpu_seconds = 0;
};

/// A job ended: its steps all ran, or (a replica) its deployment ended.
struct JobFinished {
  JobIndex job = 0;
  Time now = 0;
  std::size_t gpus = 0;  // of its last run (0 for a CPU job)
  double gpu_share = 1;
  double held_gpu_seconds = 0;  // its last run held
  double saved = 0;             // fraction of its work kept before its last run
  bool on_cpu = false;
  bool replica = false;
  /// A training job's iterations a second over its last run, alone on
  /// synthetic data and as it went (JobOutcome); `speeds` false for others.
  bool speeds = false;
  double synthetic_iterations_per_s = 0;
  double real_iterations_per_s = 0;
};

/// A job failed: a running one (its memory ran out), or one never submitted
/// because `cause`, which it waited for, failed (Failure::kDependency).
struct JobFailed {
  JobIndex job = 0;
  Time now = 0;
  Failure failure = Failure::kNone;
  JobIndex cause = kNoJob;  // kNoJob unless kDependency
  std::size_t gpus = 0;     // of the failed run
  double gpu_share = 1;
  double held_gpu_seconds = 0;
  double saved = 0;  // fraction of its work kept before the failed run
  bool replica = false;
  /// Whether it failed running (else it never ran since its dependency failed).
  bool ran() const { return failure != Failure::kDependency; }
};

/// A job that was not running left the schedule for good: its deployment ended.
struct JobRetired {
  JobIndex job = 0;
  Time now = 0;
};

/// `gpus` GPUs of `job` compute at `gpu_share` of each from `start` until `end`.
struct BusyInterval {
  Time start = 0, end = 0;
  std::size_t gpus = 0;
  double gpu_share = 1;
  JobIndex job = kNoJob;
};

/// GPUs told to compute until `planned_end` stopped at `now` (nothing when
/// `planned_end` is not after `now`).
struct BusyCut {
  Time planned_end = 0, now = 0;
  std::size_t gpus = 0;
  double gpu_share = 1;
  JobIndex job = kNoJob;
};

/// A plan was applied: the GPUs allocated changed by `allocated_delta`
/// (shares counted) and the queue by `queued_delta` jobs.
struct AllocationChange {
  Time now = 0;
  double allocated_delta = 0;
  std::int64_t queued_delta = 0;
};

/// A node failed, stopping `runs_stopped` runs that lost `lost_gpu_seconds`; its GPUs are down.
struct NodeDown {
  Time now = 0;
  NodeId node = 0;
  std::size_t runs_stopped = 0;
  double lost_gpu_seconds = 0;
};

/// A node's repair ended: its GPUs are up.
struct NodeUp {
  Time now = 0;
  NodeId node = 0;
};

/// The policy's plan was applied (a node failure's plan is not the policy's).
struct PlanApplied {
  Time now = 0;  // when the policy was called
  const Plan& plan;
};

/// One stage of an instant's changes is applied to the state (`after` names
/// it: the arrivals, timers and failures; the jobs' ends; the policy's plan;
/// the CPU jobs' dispatch).
struct StateSettled {
  Time now = 0;
  const SchedulerState& state;
  const char* after = "";
};

/// A runner started the activities of the job's current step (its
/// computations and its flows: `run.activities`), at `now`; or they all
/// ended. A step the run's stop cuts has a start and no end: the job's
/// preemption, failure or stop says so. Timer steps are not announced.
struct StepStarted {
  JobIndex job = 0;
  Time now = 0;
  const RunningJob& run;
};
struct StepEnded {
  JobIndex job = 0;
  Time now = 0;
  const RunningJob& run;
};

/// Why the run stops here, before its end (the record says so).
using EarlyStop = std::variant<DeadlockReport, LivelockReport, ThrashingReport>;

/// Told every event of a run; each does nothing unless overridden. Called
/// from the engine's actors, at the simulated time the event carries: a
/// listener must not block, nor throw, but for InvariantViolation (--check's
/// audit), which ends the run.
class EngineListener {
 public:
  virtual ~EngineListener() = default;
  virtual void on_submitted(const JobSubmitted&) {}
  virtual void on_started(const RunStarted&) {}
  virtual void on_preempted(const RunPreempted&) {}
  virtual void on_stopped(const RunStopped&) {}
  virtual void on_finished(const JobFinished&) {}
  virtual void on_failed(const JobFailed&) {}
  virtual void on_retired(const JobRetired&) {}
  virtual void on_busy(const BusyInterval&) {}
  virtual void on_busy_cut(const BusyCut&) {}
  /// `count` activities or timers ended (RunRecord::events).
  virtual void on_events_handled(std::uint64_t /*count*/) {}
  virtual void on_allocation_changed(const AllocationChange&) {}
  virtual void on_node_down(const NodeDown&) {}
  virtual void on_node_up(const NodeUp&) {}
  virtual void on_plan_applied(const PlanApplied&) {}
  virtual void on_settled(const StateSettled&) {}
  virtual void on_step_started(const StepStarted&) {}
  virtual void on_step_ended(const StepEnded&) {}
  virtual void on_stopped_early(const EarlyStop&) {}
};

/// The subscribers of one run, and the one place each event is announced.
class EngineEvents {
 public:
  /// Subscribers are told in the order they subscribed; `listener` outlives
  /// the run. It hears the events its class overrides (so an event no
  /// subscriber overrides costs nothing); one given by its base class,
  /// EngineListener&, hears them all.
  template <class Listener>
  void subscribe(Listener& listener) {
    static_assert(std::is_base_of_v<EngineListener, Listener>, "a subscriber is an EngineListener");
    constexpr bool all = std::is_same_v<Listener, EngineListener>;
    using L = Listener;
    using E = EngineListener;
    EngineListener* l = &listener;
    if (all || kOverrides<decltype(&L::on_submitted), decltype(&E::on_submitted)>) submitted_.push_back(l);
    if (all || kOverrides<decltype(&L::on_started), decltype(&E::on_started)>) started_.push_back(l);
    if (all || kOverrides<decltype(&L::on_preempted), decltype(&E::on_preempted)>) preempted_.push_back(l);
    if (all || kOverrides<decltype(&L::on_stopped), decltype(&E::on_stopped)>) stopped_.push_back(l);
    if (all || kOverrides<decltype(&L::on_finished), decltype(&E::on_finished)>) finished_.push_back(l);
    if (all || kOverrides<decltype(&L::on_failed), decltype(&E::on_failed)>) failed_.push_back(l);
    if (all || kOverrides<decltype(&L::on_retired), decltype(&E::on_retired)>) retired_.push_back(l);
    if (all || kOverrides<decltype(&L::on_busy), decltype(&E::on_busy)>) busy_.push_back(l);
    if (all || kOverrides<decltype(&L::on_busy_cut), decltype(&E::on_busy_cut)>) busy_cut_.push_back(l);
    if (all || kOverrides<decltype(&L::on_events_handled), decltype(&E::on_events_handled)>) handled_.push_back(l);
    if (all || kOverrides<decltype(&L::on_allocation_changed), decltype(&E::on_allocation_changed)>)
      allocation_.push_back(l);
    if (all || kOverrides<decltype(&L::on_node_down), decltype(&E::on_node_down)>) node_down_.push_back(l);
    if (all || kOverrides<decltype(&L::on_node_up), decltype(&E::on_node_up)>) node_up_.push_back(l);
    if (all || kOverrides<decltype(&L::on_plan_applied), decltype(&E::on_plan_applied)>) plan_.push_back(l);
    if (all || kOverrides<decltype(&L::on_settled), decltype(&E::on_settled)>) settled_.push_back(l);
    if (all || kOverrides<decltype(&L::on_stopped_early), decltype(&E::on_stopped_early)>) early_.push_back(l);
    if (all || kOverrides<decltype(&L::on_step_started), decltype(&E::on_step_started)>) step_started_.push_back(l);
    if (all || kOverrides<decltype(&L::on_step_ended), decltype(&E::on_step_ended)>) step_ended_.push_back(l);
  }

  void submitted(const JobSubmitted& e) {
    for (EngineListener* l : submitted_) l->on_submitted(e);
  }
  void started(const RunStarted& e) {
    for (EngineListener* l : started_) l->on_started(e);
  }
  void preempted(const RunPreempted& e) {
    for (EngineListener* l : preempted_) l->on_preempted(e);
  }
  void stopped(const RunStopped& e) {
    for (EngineListener* l : stopped_) l->on_stopped(e);
  }
  void finished(const JobFinished& e) {
    for (EngineListener* l : finished_) l->on_finished(e);
  }
  void failed(const JobFailed& e) {
    for (EngineListener* l : failed_) l->on_failed(e);
  }
  void retired(const JobRetired& e) {
    for (EngineListener* l : retired_) l->on_retired(e);
  }
  void busy(const BusyInterval& e) {
    for (EngineListener* l : busy_) l->on_busy(e);
  }
  void busy_cut(const BusyCut& e) {
    for (EngineListener* l : busy_cut_) l->on_busy_cut(e);
  }
  void events_handled(std::uint64_t count = 1) {
    for (EngineListener* l : handled_) l->on_events_handled(count);
  }
  void allocation_changed(const AllocationChange& e) {
    for (EngineListener* l : allocation_) l->on_allocation_changed(e);
  }
  void node_down(const NodeDown& e) {
    for (EngineListener* l : node_down_) l->on_node_down(e);
  }
  void node_up(const NodeUp& e) {
    for (EngineListener* l : node_up_) l->on_node_up(e);
  }
  void plan_applied(const PlanApplied& e) {
    for (EngineListener* l : plan_) l->on_plan_applied(e);
  }
  void settled(const StateSettled& e) {
    for (EngineListener* l : settled_) l->on_settled(e);
  }
  void stopped_early(const EarlyStop& e) {
    for (EngineListener* l : early_) l->on_stopped_early(e);
  }
  void step_started(const StepStarted& e) {
    for (EngineListener* l : step_started_) l->on_step_started(e);
  }
  /// Whether a listener follows each step's activities (the contention
  /// recorder): it then sees every transfer as a flow of its own.
  bool steps_followed() const { return !step_started_.empty(); }
  void step_ended(const StepEnded& e) {
    for (EngineListener* l : step_ended_) l->on_step_ended(e);
  }

 private:
  // Whether a listener's member (its type names the class that declares it) is its own, not EngineListener's.
  template <class Member, class Base>
  static constexpr bool kOverrides = !std::is_same_v<Member, Base>;

  // Per event, the subscribers that hear it, in the order they subscribed.
  std::vector<EngineListener*> submitted_, started_, preempted_, stopped_, finished_, failed_, retired_, busy_,
      busy_cut_, handled_, allocation_, node_down_, node_up_, plan_, settled_, early_, step_started_, step_ended_;
};

}  // namespace gcsim
