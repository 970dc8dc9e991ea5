// fifo_backfill_policy.hpp: FIFO with EASY backfilling (`fifo-backfill`).
//
// Source semantics: EASY backfilling as in Lifka, "The ANL/IBM SP scheduling
// system" (JSSPP 1995) and Mu'alem & Feitelson, "Utilization, predictability,
// workloads, and user runtime estimates in scheduling the IBM SP2 with
// backfilling" (IEEE TPDS 2001):
// - Waiting jobs start in submission order (ties: workload order) while the
//   placement finds GPUs for them, exactly as `fifo`.
// - The first job that cannot be placed, the head, gets a reservation: the
//   shadow time is the earliest time at which, by the running jobs' expected
//   ends, enough GPUs will be free for it; the extra GPUs are those free at the
//   shadow time beyond what the head needs.
// - Every later waiting job, in submission order, starts now if the placement
//   finds GPUs for it and either it is expected to end no later than the
//   shadow time, or it uses no more GPUs than the extra ones left (it then
//   uses them up). Otherwise it waits. Only the head holds a reservation.
//
// Estimates: a job's run-time estimate is its `runtime_estimate` when > 0,
// else its oracle duration (QueueView::oracle_duration: the uncontended run
// time, a lower bound), else unknown: such a running job is never expected to
// end, and such a waiting job backfills only on extra GPUs. A running job's
// expected end is its last start + its estimate, or now once that has passed:
// a job that outlives its estimate is expected to end any moment. When the
// expected ends never free enough GPUs for the head there is no shadow time,
// and later jobs start only on GPUs the head cannot use. Jobs are never
// killed at their estimate, so an estimate that is too short (an oracle
// duration under contention, for one) can delay the head; with exact
// estimates the head never starts later than its shadow time.
//
// Simplification: the reservation is kept in GPU counts, not in GPU sets.
// Counted are only GPUs with at least the head's memory request (a job on GPUs
// the head cannot use never delays it); nodes and racks are left to the
// placement, which places every job, the head included. With a placement that
// can use any free GPUs of the right memory (pack, spread, topology) a count
// that suffices is a placement that exists; with a stricter one the head may
// still find its GPUs scattered at the shadow time. The same holds on a
// cluster of several GPU types for a head that keeps to one type
// (may_mix_gpu_types()): the count mixes the types, so the head may find no
// single type free enough at its shadow time and wait on.
//
// Wake-ups: time alone only shortens the window before the shadow time, but
// a running job that outlives both the shadow time and its own expected end
// adds its GPUs to the extra ones (the head's shadow time moves with it). So
// when a later job that fits in the free GPUs was refused only because of the
// reservation, the policy asks to be called at the first expected end after
// the shadow time; otherwise it asks for nothing.
// Jobs asking a fraction of a GPU share GPUs (shares_gpus()): in a workload
// that has such jobs, the reservation is kept in GPU shares, by the
// placement, as policies/fifo_backfill/shared_gpu_backfill.hpp says.
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: the FIFO
// part places the jobs it starts and the head (O(g) each, as `fifo`); when a
// head is blocked, its reservation reads the running jobs' expected releases,
// kept across calls by instant from the runs that began or ended since
// (QueueView::run_log(), O(log r) each), up to the shadow time (O(k) for k
// instants up to it); when some GPU type lacks the head's memory they are read
// from every running job instead (O(r log r)), and the free GPUs the head can
// use counted (O(g)); then the backfill reads the jobs after the head until no
// GPU is free, a count (O(1)) for a job too large for the free GPUs and a
// placement (O(g)) for one that may fit: up to O(w) jobs read when a few GPUs
// stay free.
// Assumptions: no preemption, no priorities, no user limits.
//
//   FifoBackfillPolicy backfill(std::make_unique<PackPlacement>());
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "policies/fifo_backfill/shared_gpu_backfill.hpp"
#include "sim/core/policy.hpp"

namespace gcsim {

/// GPUs the head of the queue may use that a running job gives back at its
/// expected end.
struct ExpectedRelease {
  Time end;
  std::size_t gpus;
};

/// The head's reservation, in GPU counts.
struct HeadReservation {
  Time shadow_time = kNever;  // kNever: the expected releases never free enough GPUs
  std::size_t extra = 0;      // GPUs free at the shadow time beyond the head's need
};

/// The running jobs' expected releases kept across calls: per instant (a
/// run's start + estimate, kNever when unknown), the GPUs expected back then.
/// An instant already past counts as now.
using KeptReleases = std::map<Time, std::size_t>;

/// The earliest time, not before `now`, at which `free_now` plus the GPUs
/// released by then (`releases` and `kept` together) reach `need`, and how
/// many are left over at that time (every release at that time counted). A
/// release at kNever never happens. O(k log k) for the k `releases`, plus
/// the kept instants up to the answer.
HeadReservation reserve_for_head(Time now, std::size_t free_now, std::size_t need,
                                 std::vector<ExpectedRelease> releases, const KeptReleases& kept = {});

class FifoBackfillPolicy final : public SchedulingPolicy {
 public:
  explicit FifoBackfillPolicy(std::unique_ptr<PlacementPolicy> placement);
  std::string_view name() const override { return "fifo-backfill"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return true; }

  /// The run time the policy assumes for `job`: its runtime_estimate when > 0,
  /// else its oracle duration (kNever when there is none).
  static Time estimate(const QueueView& jobs, JobIndex job);

 private:
  /// Brings kept_ up to date with the runs that began or ended since.
  void update_kept_releases(const QueueView& jobs);

  std::unique_ptr<PlacementPolicy> placement_;
  std::optional<bool> workload_shares_gpus_;  // found at the first call
  SharedGpuBackfill shared_gpus_;             // the calls when it does
  // The running jobs' expected releases, and where each job's is in it.
  KeptReleases kept_;
  std::vector<Time> kept_end_;
  std::size_t runs_read_ = 0;  // entries of the run log taken in
};

}  // namespace gcsim
