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
// budget. The first allocation that would exceed it waits, and so does every
// allocation recorded after it (head-of-line blocking: a large job is not
// overtaken by smaller ones that fit, so it cannot starve). Preemptions and
// releases the inner policy records are kept; they lower the projection
// before the allocations recorded after them.
//
// Options (--policy-opt, beside the inner policy's):
//   budget_kw=KW  the budget, kilowatts of IT power (required, > 0)
//
// Assumptions and limits: the GPU power is each type's own `power` or its
// bundled default (a type with neither is an input error at the first call).
// A job whose start alone would exceed the budget on an idle cluster never
// starts. Nothing is capped to fit under the budget: jobs wait instead. The
// inner policy must read the state afresh at every call (fifo, fifo-backfill,
// srtf, gang, drf, tiresias do); a policy that counts its own allocations
// from call to call (capacity's queue usage) would count the ones that were
// held back.
//
// Cost of one call: the inner policy's, plus O(h) for the h GPUs running
// jobs hold and O(a) for the a GPUs the inner policy allocates.
//
//   auto policy = registry.make_policy("power-budget:fifo", {{"budget_kw", "500"}});
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

class PowerBudgetPolicy final : public SchedulingPolicy {
 public:
  PowerBudgetPolicy(std::unique_ptr<SchedulingPolicy> inner, double budget_watts);
  /// Reads `budget_kw` (a number > 0, required); throws std::invalid_argument otherwise.
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
  // What `job` adds to the projection holding `gpus`: its share of each
  // GPU's busy draw over its idle draw.
  double added_watts(const SchedulingContext& ctx, JobIndex job, const std::vector<GpuId>& gpus);
  // The idle and busy watts of every GPU type, read at the first call.
  void read_power(const ClusterLayout& layout);

  std::unique_ptr<SchedulingPolicy> inner_;
  double budget_watts_;
  std::string name_;
  std::vector<double> type_idle_watts_, type_busy_watts_;
  double idle_cluster_watts_ = 0;  // every node's base and every GPU's idle draw
  bool power_read_ = false;
};

}  // namespace gcsim
