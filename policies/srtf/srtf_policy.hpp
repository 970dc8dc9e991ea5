// srtf_policy.hpp: shortest remaining time first with oracle
// durations (`srtf`), a clairvoyant baseline for job completion times.
//
// Source semantics: SRTF / SRPT (Schrage 1968), the preemptive discipline that
// minimises mean completion time on one machine, here with exact knowledge of
// run times: the clairvoyant baseline that GPU-cluster studies measure
// duration-agnostic policies against (Tiresias, NSDI 2019, discusses SRTF and
// SRSF in this role). Not a deployable policy: no real scheduler knows the
// durations.
//
// Remaining time: a job's next (or current) run takes its oracle duration
// (QueueView::oracle_duration, the uncontended run time) times the share of
// its work not kept by a checkpoint (1 - JobRuntime::saved_fraction), plus its
// checkpoint's restore cost when it resumes from one; checkpoint save costs
// are not counted. A preempted job without checkpoints starts over, so its
// remaining time is its whole oracle duration again. A waiting job's remaining
// time is that run time; a running job's is that run time minus the time since
// its last start, never below 0. Without an oracle (kNever) a job's remaining
// time is infinite and the order falls back to submission order.
//
// Each call takes every waiting and every running job in order of remaining
// time (ties: submit time, then workload order) and, in that order:
// - keeps a running job where it runs;
// - starts a waiting job on GPUs the placement finds among those free and not
//   promised earlier in the call;
// - when it finds none (preemptive mode), preempts running jobs not yet kept
//   whose remaining time is strictly longer than the waiting job's, longest
//   remaining first (ties: latest in the order first), until the placement
//   finds GPUs among those free and those the victims hold. Victims whose GPUs
//   the placement did not use are left running. The preemptions are recorded
//   before the allocation. A preempted job rejoins the order as a waiting job
//   and may start again in the same call if GPUs remain for it; until the
//   engine has applied the preemption the checkpoints of the run it loses are
//   unknown, so it rejoins with the run time it had when that run began (its
//   whole oracle duration without checkpoints). If even every eligible victim
//   would not make room, nothing is preempted and the job waits.
// The strict inequality keeps equal jobs from preempting each other, and
// since a preempted job resumes with a remaining time no shorter than when it
// was preempted (the work since its last checkpoint is lost), while its
// preemptor's only shrinks, a pair never swaps back.
// Between two events only the running jobs' remaining times change, and they
// shrink, so a later call could neither start nor preempt more: the policy
// never asks to be woken.
//
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: the waiting
// jobs are kept in the order across calls, in one set per GPU count (a job's
// key is fixed while it waits), and only those that joined or left since the
// last call move (O(log w) each). The running jobs are kept in the order too,
// by when each run would end alone (its start plus its run time): their
// remaining times all shrink by the same time between calls, so that order
// holds, and only the runs that began or ended since the last call
// (QueueView::run_log()) move, O(log r) each. A run past its planned end
// (remaining time 0) sorts by that end instead of by submission among the
// others at 0, which changes no decision: such a job is never a victim. A
// running job the walk passes is kept where it runs and changes nothing, so
// the walk does not visit them: the GPUs a waiting job may preempt, those of
// the running jobs longer than it, come from a tree of the running jobs that
// sums GPUs by subtree (O(log r), policies/kit/gpu_summed_set.hpp). A job
// asking more GPUs than are free plus those cannot start, and that bound
// never grows along the walk (a start takes from the free GPUs, a preemption
// moves GPUs from the second term to the first, and a later job is longer,
// so it may preempt fewer), so a GPU count over the bound is dropped for
// good and its jobs are not visited. The walk thus visits the jobs it starts
// or tries to fit (O(c + log r) each, for c GPU counts), each for a
// placement (O(g)) and, if preempting, the victims it tries, longest first
// until the job fits (O(v g) for v of them; at most O(r g)).
// Without preemption (preemptive=false) the running jobs are not read at
// all.

// The order is blind to GPU counts: a one-GPU job may preempt a large job,
// which then waits for its whole set to be free again while shorter jobs keep
// taking GPUs. On a loaded cluster the non-preemptive variant can therefore
// end with the lower mean completion time.
//
// Options: `--policy-opt preemptive=false` keeps the same order but never
// preempts: shortest job first among the waiting jobs, any job that fits
// starts (no head-of-line blocking). `preemptive=true` is the default; any
// other value is rejected.
// Placement is delegated (default: pack).
// Assumptions: no priorities, no user limits; durations are known exactly
// (the oracle is a lower bound: contention makes runs longer).
//
//   SrtfPolicy srtf(std::make_unique<PackPlacement>(), /*preemptive=*/true);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <map>
#include <set>
#include <vector>

#include "policies/kit/gpu_summed_set.hpp"
#include "policies/kit/waiting_changes.hpp"
#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

class SrtfPolicy final : public SchedulingPolicy {
 public:
  SrtfPolicy(std::unique_ptr<PlacementPolicy> placement, bool preemptive);
  /// Reads `preemptive` (true/false, default true); throws std::invalid_argument otherwise.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "srtf"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

  bool preemptive() const { return preemptive_; }
  /// How long the job's next run (or its current one) takes, from its saved
  /// fraction, as defined in the file comment.
  static Time run_time(const QueueView& jobs, JobIndex job);
  /// The remaining time of `job` at `now` as defined in the file comment.
  static Time remaining_time(const QueueView& jobs, JobIndex job, Time now);

 private:
  // A job in the order: shortest remaining time first, then earliest
  // submission, then workload order; on equal keys the running entry first.
  struct Entry {
    Time remaining;
    Time submit;
    JobIndex job;
    bool running;
    bool operator<(const Entry& other) const;
  };
  /// Brings waiting_order_ up to date with the jobs that joined or left the queue.
  void update_waiting_order(const QueueView& jobs);
  /// A running job in the running order: its planned end (start plus run
  /// time; kNever without an oracle), then submission, then workload order;
  /// and its GPUs.
  struct Run {
    Time end;
    Time submit;
    JobIndex job;
    std::size_t gpus;
    bool operator<(const Run& other) const;
  };
  /// Brings running_ up to date with the runs that began or ended since the last call.
  void update_running(const QueueView& jobs);

  std::unique_ptr<PlacementPolicy> placement_;
  bool preemptive_;
  WaitingChanges changes_;
  // Every waiting job, in the order, in one set per GPU count.
  std::map<std::size_t, std::set<Entry>> waiting_order_;
  std::vector<Time> waiting_key_;  // per job: its remaining time in waiting_order_
  // The running jobs in the order (update_running()) and each job's entry in it.
  GpuSummedSet<Run> running_;
  std::vector<Run> running_entry_;
  std::vector<Time> running_run_;  // the run time it began with
  std::size_t runs_read_ = 0;      // entries of QueueView::run_log() already applied
};

}  // namespace gcsim
