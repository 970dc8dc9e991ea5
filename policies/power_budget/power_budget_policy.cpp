#include "policies/power_budget/power_budget_policy.hpp"

#include <optional>
#include <stdexcept>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/input_error.hpp"

namespace gcsim {

PowerBudgetPolicy::PowerBudgetPolicy(std::unique_ptr<SchedulingPolicy> inner, double budget_watts)
    : inner_(std::move(inner)), budget_watts_(budget_watts), name_("power-budget:" + std::string(inner_->name())) {}

std::unique_ptr<SchedulingPolicy> PowerBudgetPolicy::create(const PolicyOptions& options,
                                                            std::unique_ptr<SchedulingPolicy> inner) {
  const double budget_kw = options.number("budget_kw", 0, PolicyOptions::Above{0});
  if (budget_kw == 0) throw std::invalid_argument("option budget_kw is required: the budget in kW of IT power");
  return std::make_unique<PowerBudgetPolicy>(std::move(inner), budget_kw * 1000);
}

void PowerBudgetPolicy::read_power(const ClusterLayout& layout) {
  const ClusterSpec& spec = layout.spec();
  for (std::size_t t = 0; t < spec.gpu_types.size(); ++t) {
    const GpuType& type = spec.gpu_types[t];
    const std::optional<GpuPower> power = power_of(type);
    if (!power)
      throw InputError("cluster '" + spec.name + "'", "gpu_types[" + std::to_string(t) + "] (name '" + type.name + "')",
                       "power",
                       "the power budget needs the power of GPU type '" + type.name +
                           "', which has no bundled default: give idle_watts and busy_watts");
    type_idle_watts_.push_back(power->idle_watts);
    type_busy_watts_.push_back(power->busy_watts);
  }
  for (const NodeGroup& group : spec.node_groups) idle_cluster_watts_ += group.count * group.base_watts;
  for (std::size_t g = 0; g < layout.gpu_count(); ++g)
    idle_cluster_watts_ += type_idle_watts_[layout.gpu_type_index(static_cast<GpuId>(g))];
  power_read_ = true;
}

double PowerBudgetPolicy::added_watts(const SchedulingContext& ctx, JobIndex job, const std::vector<GpuId>& gpus) {
  const ClusterLayout& layout = ctx.cluster.layout();
  const JobSpec& spec = ctx.jobs.spec(job);
  double watts = 0;
  for (GpuId g : gpus) {
    const std::uint32_t type = layout.gpu_type_index(g);
    const std::optional<PowerState> state = capped_state(layout, g, spec.power_limit_watts);
    watts += spec.gpu_share * ((state ? state->watts : type_busy_watts_[type]) - type_idle_watts_[type]);
  }
  return watts;
}

void PowerBudgetPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  if (!power_read_) read_power(ctx.cluster.layout());
  // The projection now: what the jobs holding GPUs add to the idle cluster.
  double projected = idle_cluster_watts_;
  for (JobIndex job : ctx.jobs.running()) projected += added_watts(ctx, job, ctx.jobs.runtime(job).gpus);
  for (JobIndex job : ctx.jobs.waiting()) projected += added_watts(ctx, job, ctx.jobs.runtime(job).gpus);

  Plan inner;
  inner_->schedule(ctx, inner);
  bool blocked = false;
  for (const Decision& d : inner.decisions()) {
    switch (d.kind) {
      case Decision::Kind::kPreempt:
      case Decision::Kind::kRelease:
        projected -= added_watts(ctx, d.job, ctx.jobs.runtime(d.job).gpus);
        if (d.kind == Decision::Kind::kPreempt)
          plan.preempt(d.job);
        else
          plan.release(d.job);
        break;
      case Decision::Kind::kAllocate: {
        if (blocked) break;
        const double added = added_watts(ctx, d.job, d.gpus);
        if (projected + added > budget_watts_) {
          blocked = true;  // it waits, and so do the allocations after it
          break;
        }
        projected += added;
        plan.allocate(d.job, d.gpus);
        break;
      }
    }
  }
  if (inner.wake_time() != kNever) plan.wake_at(inner.wake_time());
}

}  // namespace gcsim
