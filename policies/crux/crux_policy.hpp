// crux_policy.hpp: jobs started and placed by their GPU intensity, away
// from the links other jobs load (`crux`).
//
// Source: Crux (Cao et al., "Crux: GPU-Efficient Communication Scheduling
// for Deep Learning Training", SIGCOMM 2024). Crux defines a job's GPU
// intensity I = W / t, W the computation of an iteration (all its GPUs), t
// the time its iteration's traffic takes on its busiest link (max over links
// of bytes / bandwidth), proves that a cluster's GPU utilization follows the
// intensity its links carry, and so (its section 4.1) takes jobs from the
// highest intensity to the lowest, each choosing the least congested of its
// paths. This policy does the same with the choices a job scheduler has:
// - whom to start: the waiting jobs in decreasing GPU intensity, each
//   measured on the GPUs the placement would give it now (a job without
//   traffic, of infinite intensity, first; ties: submission order); a job
//   that cannot start is passed over. A job waiting `patience` seconds or
//   more comes before all of them, in submission order, and when it cannot
//   start no job after it starts (no job waits for ever behind jobs of
//   higher intensity).
// - where: the placement's choice (default `network`), unless the links it
//   would cross carry others' traffic. Then the placement is asked again
//   with the racks whose uplinks carry the most traffic left out, the
//   hottest first, one more each time, and the candidate whose busiest link
//   would be least loaded (the rates of the running jobs and of the jobs
//   started earlier in the call, plus its own, over the bandwidth;
//   policies/crux/link_loads.hpp) wins; ties: the fewest racks left out.
//   So two communication-heavy jobs do not share a leaf's uplinks where one
//   can go elsewhere.
// Left out of the paper: flow priorities in the switches (Crux's priority
// assignment P = k I and its compression into the few priority levels a
// switch has: gcsim's links share bandwidth by the network model, not by
// priority), its choice among ECMP paths (a route here is fixed by the
// fabric: the placement is the only choice), and its measurement of jobs
// at run time (here W and t come from the job's work and its placement,
// and an iteration is taken as its computation plus t, not overlapped).
//
// Options (--policy-opt):
//   order=intensity   whom to start as above (default); order=submission:
//                     strict submission order with head-of-line blocking
//                     (fifo's), placed as above
//   patience=SECONDS  how long a job may wait before it blocks the line
//                     (default 3600; 0: every job at once, fifo's order)
// Whole GPUs only (a workload with fractional jobs is refused); no
// preemption.
// Cost of one call, in waiting jobs w, running jobs r, racks k: a placement
// per waiting job to measure its intensity, the running jobs' traffic
// routed (their transfers), and for each job started up to k + 1
// placements.
//
//   CruxPolicy crux(std::make_unique<NetworkPlacement>());
#pragma once

#include <memory>

#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

struct CruxOptions {
  bool by_intensity = true;  // order=intensity
  Time patience = 3600;
};

class CruxPolicy final : public SchedulingPolicy {
 public:
  explicit CruxPolicy(std::unique_ptr<PlacementPolicy> placement, CruxOptions options = {});
  /// Reads `order` (intensity/submission) and `patience` (seconds >= 0);
  /// throws std::invalid_argument naming the option for another value.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "crux"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;

 private:
  std::unique_ptr<PlacementPolicy> placement_;
  CruxOptions options_;
};

}  // namespace gcsim
