// policy.hpp: the interfaces a scheduling policy implements.
//
// The engine calls SchedulingPolicy::schedule() whenever the queue or the
// cluster changed: jobs arrived, jobs finished, or a wake-up the policy asked
// for fell due. Several changes at the same simulated time are delivered in
// one call. The policy reads the views and records decisions into `plan`; the
// engine applies the plan as one transaction right after the call returns and
// rejects it whole if any decision is invalid (PlanRejected, a policy bug).
// A policy must not keep references to the views beyond the call. The views
// (cluster_view.hpp, queue_view.hpp) are all a policy sees of the state: it
// never includes the engine's writable SchedulerState.
//
//   class MyPolicy final : public SchedulingPolicy {
//     std::string_view name() const override { return "mine"; }
//     void schedule(const SchedulingContext& ctx, Plan& plan) override { ... }
//   };
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_view.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

/// A queue a policy guarantees a share of the cluster to (capacity queues),
/// for the run's report: its path, its guaranteed GPUs, and the queue names
/// jobs may give to mean it.
struct GuaranteedQueue {
  std::string path;
  double gpus = 0;
  std::vector<std::string> job_queue_names;
};

struct SchedulingContext {
  Time now;
  const ClusterView& cluster;
  const QueueView& jobs;
};

class SchedulingPolicy {
 public:
  virtual ~SchedulingPolicy() = default;
  virtual std::string_view name() const = 0;
  /// Called on every change (see file comment). May record nothing.
  virtual void schedule(const SchedulingContext& ctx, Plan& plan) = 0;
  /// Whether the policy schedules jobs asking a fraction of a GPU
  /// (JobSpec::gpu_share < 1). Such a policy must count what those jobs hold
  /// by share, not by GPU: placing several jobs in one call, it places each
  /// on a TentativeCluster that took the earlier ones' shares
  /// (TentativeCluster::take(gpus, job)). A workload with fractional jobs is
  /// refused, before simulating, under a policy that does not.
  virtual bool shares_gpus() const { return false; }
  /// The queues it guarantees shares of the cluster to, as of the end of the
  /// run; `gcsim run` reports each one's guarantee attainment. None by default.
  virtual std::vector<GuaranteedQueue> guaranteed_queues(const ClusterLayout& layout) const {
    (void)layout;
    return {};
  }
  /// Under `gcsim run --check`, called after every schedule() with the same
  /// context, before its plan is applied: throws InvariantViolation
  /// (invariant_violation.hpp) when what the policy keeps from call to call
  /// disagrees with what `ctx` shows (a queue's usage and its jobs'
  /// allocations). Nothing to check by default.
  virtual void check_invariants(const SchedulingContext& ctx) const { (void)ctx; }
};

/// Chooses GPUs for one job, independently of the order in which jobs are
/// served, so any ordering policy can be combined with any placement.
class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual std::string_view name() const = 0;
  /// GPUs for `job` among those free in `cluster` and not in `taken` (GPUs
  /// already promised earlier in the same plan), in ring order; nullopt if the
  /// job cannot be placed now. Must respect the job's GPU memory request,
  /// place a fractional job (gpu_share < 1) only where its share and memory
  /// fit (policies/kit/shared_gpu_fit.hpp does it for the built-in ones), and
  /// give GPUs of one type to a job that does not allow several
  /// (may_mix_gpu_types(); policies/kit/one_gpu_type.hpp): the engine rejects
  /// a plan that mixes types for such a job.
  virtual std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                                  const std::vector<bool>& taken) const = 0;
};

}  // namespace gcsim
