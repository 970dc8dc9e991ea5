// power_budget_policy.hpp: a power-budget admission around any policy
// (`--policy power-budget:fifo --policy-opt budget_kw=500`).
//
// Semantics: jobs start only while the cluster's projected IT power stays
// within the budget. The projection counts every node's base_watts, every
// GPU's idle_watts, and for each GPU a job holds the job's share of the
// GPU's busy draw over its idle one, at the power state the GPU runs in for
// that job (sim/core/gpu_power_states.hpp: a capped GPU at its state's
// watts): the power the cluster would draw were every held GPU computing
// and every node awake, the bound a facility's budget must hold (a job
// communicating draws less, a sleeping node too).
// The inner policy decides as it would alone; its allocations are then
// admitted in the order it recorded them, which is its own order of service
// (fifo: submission order), while the projection with them stays within the
// budget. Preemptions and releases the inner policy records are kept; they
// lower the projection before the allocations recorded after them. An
// allocation that would exceed the budget, at the power state its GPUs
// would run in (the cluster's caps, the job's own limit, a limit the inner
// policy gave it), is dealt with by `over_budget`:
//
// - wait (the default): it waits, and so does every allocation recorded
//   after it (head-of-line blocking: a large job is not overtaken by
//   smaller ones that fit, so it cannot starve);
// - cap: it starts at once under a power limit (Plan::allocate): the watts
//   of the highest state of its GPUs' tables whose projection fits in what
//   is left of the budget, provided the slowest of its GPUs computes there
//   at min_speed or more. Otherwise it waits as above, head-of-line
//   blocking included. A capped job keeps its cap until its run ends, even
//   when power frees up; preempted and started again, it is judged afresh.
//   A job whose GPUs have no power-state table cannot be capped: it waits.
//
// Options (--policy-opt, beside the inner policy's):
//   budget_kw=KW          the budget, kilowatts of IT power (required, > 0)
//   over_budget=wait|cap  what an allocation over the budget does (wait)
//   min_speed=F           with cap: the least speed a cap may bring, in (0, 1] (0.5)
//
// Assumptions and limits: the GPU power is each type's own `power` or its
// bundled default (a type with neither is an input error at the first call).
// A job whose start alone would exceed the budget on an idle cluster never
// starts (with cap: unless a state at min_speed or more fits). The
// inner policy must read the state afresh at every call (fifo, fifo-backfill,
// srtf, gang, drf, tiresias do); a policy that counts its own allocations
// from call to call (capacity's queue usage) would count the ones that were
// held back.
//
// Cost of one call: the inner policy's, plus O(h) for the h GPUs running
// jobs hold and O(a) for the a GPUs the inner policy allocates (O(a x s)
// for an allocation capped, s the states of its GPUs' tables).
//
//   auto policy = registry.make_policy("power-budget:fifo", {{"budget_kw", "500"}, {"over_budget", "cap"}});
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

class PowerBudgetPolicy final : public SchedulingPolicy {
 public:
  /// What an allocation that would exceed the budget does.
  enum class OverBudget { kWait, kCap };

  PowerBudgetPolicy(std::unique_ptr<SchedulingPolicy> inner, double budget_watts,
                    OverBudget over_budget = OverBudget::kWait, double min_speed = 0.5);
  /// Reads `budget_kw` (a number > 0, required), `over_budget` (wait or cap)
  /// and `min_speed` (in (0, 1]); throws std::invalid_argument otherwise.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<SchedulingPolicy> inner);

  std::string_view name() const override { return name_; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return inner_->shares_gpus(); }
  std::vector<GuaranteedQueue> guaranteed_queues(const ClusterLayout& layout) const override {
    return inner_->guaranteed_queues(layout);
  }
  void check_invariants(const SchedulingContext& ctx) const override { inner_->check_invariants(ctx); }

 private:
  // A power limit an allocation over the budget may start under, and what
  // it then adds to the projection.
  struct Cap {
    double limit_watts;
    double added_watts;
  };

  // What `job` adds to the projection holding `gpus` in a run under
  // `run_limit_watts` (0: none): its share of each GPU's busy draw, at its
  // state, over its idle draw.
  double added_watts(const SchedulingContext& ctx, JobIndex job, const std::vector<GpuId>& gpus,
                     double run_limit_watts) const;
  // What `job` adds with the GPUs it holds, under the limit its run started with.
  double held_watts(const SchedulingContext& ctx, JobIndex job) const;
  // The highest state of the GPUs' tables under which `job` on `gpus`
  // keeps the `projected` watts within the budget, if its slowest GPU there
  // computes at min_speed or more; the inner policy's limit holds where lower.
  std::optional<Cap> fitting_cap(const SchedulingContext& ctx, JobIndex job, const std::vector<GpuId>& gpus,
                                 double inner_limit_watts, double projected) const;
  // The idle and busy watts of every GPU type, read at the first call.
  void read_power(const ClusterLayout& layout);

  std::unique_ptr<SchedulingPolicy> inner_;
  double budget_watts_;
  OverBudget over_budget_;
  double min_speed_;
  std::string name_;
  std::vector<double> type_idle_watts_, type_busy_watts_;
  std::vector<std::vector<double>> type_state_watts_;  // each type's states' watts, highest first
  double idle_cluster_watts_ = 0;                      // every node's base and every GPU's idle draw
  bool power_read_ = false;
};

}  // namespace gcsim
