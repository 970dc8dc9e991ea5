// tiresias_policy.hpp: Tiresias' discretized two-dimensional least attained
// service (`tiresias`), which needs no knowledge of job durations.
//
// Source semantics: Discretized 2D-LAS of Gu et al., "Tiresias: A GPU Cluster
// Manager for Distributed Deep Learning", NSDI 2019 (§3.2, Algorithm 1):
// - A job's attained service is GPUs x time: the GPU-seconds of its ended runs
//   (JobRuntime::attained_gpu_seconds) plus (now - start) x GPUs while it runs.
// - K queues, Q1 (highest priority) to QK, split by K-1 thresholds in
//   GPU-seconds: a job is in Qi while its service is in [T(i-1), T(i)). Every
//   job enters Q1 on submission. A running job moves down one queue the
//   moment its service reaches the upper threshold of its queue; the policy
//   asks the engine to wake it at that instant (Plan::wake_at), so the
//   demotion, and any preemption it allows, happens on time rather than at
//   the next arrival or completion.
// - Within a queue, jobs are served in order of their last arrival into it:
//   the submission for Q1, the threshold crossing after a demotion, the
//   promotion instant after a promotion (ties: workload order).
// - Each call walks the waiting jobs queue by queue in that order. A job
//   starts when the placement finds all its GPUs (gang) among those free and
//   not promised earlier in the call. Otherwise it may preempt running jobs of
//   strictly lower-priority queues: lowest-priority queue first, then the most
//   recently started (ties: later in the workload first), freed one by one
//   until the placement finds GPUs among the free and the freed ones. Only the
//   victims whose GPUs the placement then uses are preempted, recorded before
//   the allocation; if all eligible victims together would not make room,
//   nothing is preempted and the job waits. A job that cannot start does not
//   block later ones that can. Jobs of the same queue never preempt each
//   other: a running job below a threshold keeps its GPUs while jobs of its
//   own queue wait.
// - A preempted job waits again in its queue, at its place in the order, and
//   may restart in the same call if GPUs remain for it. How much of its work
//   survives is the engine's business (checkpoints); the policy only records
//   the preemption. The paper assumes jobs resume where they stopped; jobs
//   without checkpoints start over, and with a small promote_knob they can
//   keep preempting each other without any finishing: on the bundled default
//   scenario, with promote_knob=1 the last 9 of 40 jobs take turns from
//   54150 s on; ten jobs as large as the cluster take turns forever even at
//   the default knob, each due for promotion before its turn comes back. The
//   engine stops such a run as thrashing (sim/engine/thrashing_guard.hpp);
//   checkpoints let them finish: periodic ones, or one at each preemption as
//   the paper assumes (a workload's "checkpoint" field; gcsim synth's jobs
//   save at preemption; for a trace, --trace-opt checkpoint_interval or
//   checkpoint_at_preemption=true).
// - Starvation (PROMOTEKNOB): a waiting job below Q1 that has waited, since it
//   was last preempted, at least promote_knob x its executed time (the time
//   it ran, all its runs together, since it last entered Q1: on submission or
//   at its last promotion) is promoted to Q1 and counted as a new arrival
//   there. Its executed time and its service for queue purposes then count
//   from zero again (the paper resets the executed and waiting times of a
//   promoted job), so it is not demoted right away. A job below Q1 has run
//   for a while since it entered Q1 (its service crossed Q1's threshold), so
//   its promotion falls due strictly after its preemption: a run cut short
//   at the instant it started does not make a job due at once, and two jobs
//   cannot take turns promoting and preempting each other at one instant.
//   The policy asks to be woken when a waiting job becomes due.
//
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: the policy
// keeps the waiting jobs in its order across calls and moves only those that
// joined, left or fell due for promotion since the last call (O(log w) each);
// the running jobs too, in the victims' order and by the instant of their
// next threshold crossing, so only the runs that began since and those whose
// crossing fell due move (O(log r) each), and their GPUs per queue are kept
// with them (the ends are read from QueueView::run_log()). The waiting jobs
// are kept per queue and GPU count, and the walk passes over, unvisited, the
// jobs asking more GPUs than are free plus those lower queues hold; it stops
// as soon as no GPU is free and no lower queue holds any. So it visits the
// jobs it starts or tries to fit (O(log c) each, for c GPU counts in a
// queue), each for a placement (O(g)) and, if preempting, the victims it
// tries in the victims' order until the job fits (O(v g) for v of them; at
// most O(r g)).
//
// Options (`--policy-opt KEY=VALUE`):
// - `thresholds=T1,T2,...`: strictly increasing GPU-seconds > 0, giving K =
//   count + 1 queues. The paper leaves K and the thresholds to the operator
//   and finds two queues enough. Default `3600`: K = 2 split at one GPU-hour,
//   as in the two-queue example of the authors' public simulator
//   (SymbioticLab/Tiresias, simulator/README.md) and the setting the
//   Tiresias-L implementation of heyfey/celeste (Go, package algorithm)
//   attributes to the paper; that simulator's code itself ships three queues
//   split at 3250 and 7200 GPU-seconds (simulator/jobs.py).
// - `promote_knob=X`: a number >= 0; 0 turns promotion off. Default 8, the
//   value heyfey/celeste attributes to the paper; the authors' simulator runs
//   `dlas-gpu` without promotion and offers knobs of 0.5 to 1000 as variants.
// The policy reads no other key.
// Placement is delegated (default: pack).
// Assumptions: the policy is the only source of preemptions and sees every
// call; job priorities, users and queues of the workload are ignored; a
// waiting job holds no GPUs (no partial allocations).
//
//   auto tiresias = TiresiasPolicy::create({{"thresholds", "3200,25600"}}, std::make_unique<PackPlacement>());
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "policies/kit/waiting_changes.hpp"
#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

struct TiresiasSettings {
  /// Upper service limits of Q1 .. Q(K-1), GPU-seconds, strictly increasing.
  std::vector<double> thresholds{3600};
  /// Waiting time, in units of the time the job ran since it last entered
  /// Q1, after which it is promoted to Q1; 0: never.
  double promote_knob = 8;
};

class TiresiasPolicy final : public SchedulingPolicy {
 public:
  /// Requires settings as create() validates them.
  TiresiasPolicy(std::unique_ptr<PlacementPolicy> placement, TiresiasSettings settings);
  /// Reads `thresholds` and `promote_knob` (see the file comment); throws
  /// std::invalid_argument naming the option and the value otherwise.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);
  /// The settings `options` give, or std::invalid_argument.
  static TiresiasSettings parse_settings(const PolicyOptions& options);

  std::string_view name() const override { return "tiresias"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

  const TiresiasSettings& settings() const { return settings_; }
  /// The queue of `job` as of the last call, 0 = Q1 (the highest priority).
  std::size_t queue_of(JobIndex job) const { return job < track_.size() ? track_[job].queue : 0; }

 private:
  // What the policy remembers about a job between calls.
  struct JobTrack {
    std::size_t queue = 0;
    Time arrival = kNever;       // last arrival into `queue`; kNever: not seen yet
    double service_base = 0;     // attained GPU-seconds at the last promotion
    Time preempted_at = kNever;  // the last preemption, while no promotion followed
    Time executed = 0;           // seconds run since the job last entered Q1 (runs ended by preemptions)
    // The run in victims_ and demotions_ (its start, and the preemptions
    // before it; run_start kNever: none), and its next crossing there.
    Time run_start = kNever;
    std::uint32_t run_preemptions = 0;
    std::size_t run_gpus = 0;  // counted in gpus_in_queue_ for `queue`
    Time demote_at = kNever;
  };

  // A job's place: queue, then a time, then workload order. For a waiting
  // job in the order the time is its last arrival into the queue; for a
  // running one among the victims (taken from the end), its start.
  struct QueueKey {
    std::size_t queue;
    Time time;
    JobIndex job;
    bool operator<(const QueueKey& other) const {
      return std::tie(queue, time, job) < std::tie(other.queue, other.time, other.job);
    }
  };

  /// Brings the queue of `job` up to date at `now` (demotions, promotions).
  void refresh(const QueueView& jobs, JobIndex job, Time now);
  /// Service counted for queue purposes, GPU-seconds, at `now`.
  double queue_service(const QueueView& jobs, JobIndex job, Time now) const;
  /// When a job running since `start` with `service_at_start` reaches `threshold`.
  static Time crossing_time(Time start, double service_at_start, double threshold, std::size_t gpus);
  /// The instant a waiting job becomes due for promotion, or kNever.
  Time promotion_time(JobIndex job) const;
  /// Puts a waiting job in the order and the promotions at its track's place,
  /// or takes it out (before its track changes).
  void index(const QueueView& jobs, JobIndex job);
  void unindex(const QueueView& jobs, JobIndex job);
  /// The waiting jobs that joined, left or fell due for promotion since the
  /// last call, refreshed and moved to their place.
  void update_waiting(const QueueView& jobs, Time now);
  /// Whether `job` is running the run indexed in victims_ and demotions_.
  bool in_indexed_run(const QueueView& jobs, JobIndex job) const;
  /// Whether a victims_ entry is that of the job's indexed run, as it stands.
  bool current(const QueueView& jobs, const QueueKey& key) const;
  /// Refreshes a running job and indexes its run; takes it out.
  void index_run(const QueueView& jobs, JobIndex job, Time now);
  void unindex_run(JobIndex job);
  /// Refreshes the running jobs whose threshold crossing fell due since the
  /// last call, indexes the runs that began since and drops those that ended.
  void update_running(const QueueView& jobs, Time now);

  std::unique_ptr<PlacementPolicy> placement_;
  TiresiasSettings settings_;
  std::vector<JobTrack> track_;
  // Every waiting job, in the order, in one set per queue and GPU count (a
  // call passes over the jobs too large to start without visiting them);
  // those due for promotion, by the instant.
  WaitingChanges changes_;
  std::map<std::pair<std::size_t, std::uint32_t>, std::set<QueueKey>> waiting_order_;
  std::set<std::pair<Time, JobIndex>> promotions_;
  // The running jobs (and runs that ended since, until met): in the victims'
  // order, and those below the last queue by their next threshold crossing.
  std::set<QueueKey> victims_;
  std::set<std::pair<Time, JobIndex>> demotions_;
  std::vector<std::size_t> gpus_in_queue_;  // per queue: the GPUs of the runs indexed
  std::size_t runs_read_ = 0;               // entries of the run log taken in
};

}  // namespace gcsim
