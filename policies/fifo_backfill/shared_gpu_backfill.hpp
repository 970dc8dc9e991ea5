// shared_gpu_backfill.hpp: EASY backfilling when jobs share GPUs.
//
// Counting GPUs, as fifo-backfill's reservation does, fails once jobs hold
// shares of GPUs: a job ending frees its share, and a GPU only when its last
// holder leaves. So in a workload where jobs ask a fraction of a GPU
// (JobSpec::gpu_share < 1), fifo-backfill keeps its reservation as what the
// placement would do:
// - Waiting jobs start in submission order while the placement finds GPUs
//   for them (their shares, on what earlier ones left), exactly as fifo.
// - The head's shadow time is the first expected end (running jobs and those
//   just started, ends at the same instant together) after which the
//   placement finds GPUs for the head on the cluster with those jobs' shares
//   given back.
// - A later job starts now if the placement finds GPUs for it and either it
//   is expected to end no later than the shadow time, or the placement still
//   finds GPUs for the head at the shadow time with the later job still
//   holding its shares (it then keeps them in the reservation's view).
// - With no shadow time (expected ends never make room for the head), the
//   view is the cluster once every job with an expected end has ended: a
//   later job starts only if the head still fits there beside it.
// A later job on GPUs other than those the placement chose for the head at
// the shadow time leaves that choice standing (a placement that found GPUs
// finds them again with more of the others taken); only one that touches
// them has the placement asked again for the head. The placement is taken
// to answer alike for jobs alike in GPU count, share and memory, as the
// built-in ones do.
// Estimates and wake-ups are fifo-backfill's (fifo_backfill_policy.hpp).
//
// Cost of one call, in running jobs r and jobs started in the call s: the
// runs that began or ended since the previous call, O(log r) each (the
// running jobs' expected ends are kept across calls, expected_ends.hpp); the
// FIFO part as fifo; then, only when a head is blocked, the call's starts
// sorted (O(s log s)), the releases up to the shadow time given back with a
// try of the head at each instant, and the later jobs as above (room counts,
// placements). No call reads every running job: a burst of arrivals, a call
// each, does not cost O(r) per call.
//
//   SharedGpuBackfill shared;  // a member of the policy
//   if (workload_shares_gpus(ctx.jobs)) return shared.schedule(ctx, placement, estimate, plan);
#pragma once

#include "policies/fifo_backfill/expected_ends.hpp"
#include "sim/core/policy.hpp"

namespace gcsim {

/// Whether a job of the workload asks a fraction of a GPU (all jobs, whatever their state).
bool workload_shares_gpus(const QueueView& jobs);

/// fifo-backfill on a workload that shares GPUs; one object per run, called at every scheduling call.
class SharedGpuBackfill {
 public:
  /// One call by the rules above; `estimate` gives a job's expected run time
  /// (kNever: unknown) and must answer alike for a job at every call.
  void schedule(const SchedulingContext& ctx, const PlacementPolicy& placement, const ExpectedEnds::Estimate& estimate,
                Plan& plan);

 private:
  ExpectedEnds ends_;  // the running jobs', kept across calls
};

}  // namespace gcsim
