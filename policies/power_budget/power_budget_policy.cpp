#include "policies/power_budget/power_budget_policy.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/input_error.hpp"

namespace gcsim {

PowerBudgetPolicy::PowerBudgetPolicy(std::unique_ptr<SchedulingPolicy> inner, double budget_watts,
                                     OverBudget over_budget, double min_speed)
    : inner_(std::move(inner)),
      budget_watts_(budget_watts),
      over_budget_(over_budget),
      min_speed_(min_speed),
      name_("power-budget:" + std::string(inner_->name())) {}

std::unique_ptr<SchedulingPolicy> PowerBudgetPolicy::create(const PolicyOptions& options,
                                                            std::unique_ptr<SchedulingPolicy> inner) {
  const double budget_kw = options.number("budget_kw", 0, PolicyOptions::Above{0});
  if (budget_kw == 0) throw std::invalid_argument("option budget_kw is required: the budget in kW of IT power");
  OverBudget over_budget = OverBudget::kWait;
  if (const auto over = options.find("over_budget"); over != options.end()) {
    if (over->second == "cap")
      over_budget = OverBudget::kCap;
    else if (over->second != "wait")
      throw std::invalid_argument("option over_budget must be wait or cap, got '" + over->second + "'");
  }
  const double min_speed = options.number("min_speed", 0.5, PolicyOptions::Above{0});
  if (min_speed > 1)
    throw std::invalid_argument("option min_speed must be a number in (0, 1] (a fraction of full speed), got '" +
                                options.at("min_speed") + "'");
  return std::make_unique<PowerBudgetPolicy>(std::move(inner), budget_kw * 1000, over_budget, min_speed);
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
    std::vector<double>& watts = type_state_watts_.emplace_back();
    for (const PowerState& state : power_states_of(type)) watts.push_back(state.watts);
  }
  for (const NodeGroup& group : spec.node_groups) idle_cluster_watts_ += group.count * group.base_watts;
  for (std::size_t g = 0; g < layout.gpu_count(); ++g)
    idle_cluster_watts_ += type_idle_watts_[layout.gpu_type_index(static_cast<GpuId>(g))];
  power_read_ = true;
}

double PowerBudgetPolicy::added_watts(const SchedulingContext& ctx, JobIndex job, const std::vector<GpuId>& gpus,
                                      double run_limit_watts) const {
  const ClusterLayout& layout = ctx.cluster.layout();
  const JobSpec& spec = ctx.jobs.spec(job);
  const double limit = run_power_limit(spec.power_limit_watts, run_limit_watts);
  double watts = 0;
  for (GpuId g : gpus) {
    const std::uint32_t type = layout.gpu_type_index(g);
    const std::optional<PowerState> state = capped_state(layout, g, limit);
    watts += spec.gpu_share * ((state ? state->watts : type_busy_watts_[type]) - type_idle_watts_[type]);
  }
  return watts;
}

double PowerBudgetPolicy::held_watts(const SchedulingContext& ctx, JobIndex job) const {
  const JobRuntime& runtime = ctx.jobs.runtime(job);
  return added_watts(ctx, job, runtime.gpus, runtime.power_limit_watts);
}

std::optional<PowerBudgetPolicy::Cap> PowerBudgetPolicy::fitting_cap(const SchedulingContext& ctx, JobIndex job,
                                                                     const std::vector<GpuId>& gpus,
                                                                     double inner_limit_watts, double projected) const {
  const ClusterLayout& layout = ctx.cluster.layout();
  // Every state of the GPUs' tables is a limit to try, highest first; one
  // at or above the state they run in adds as much as without it, too much.
  std::vector<double> limits;
  for (GpuId g : gpus) {
    const std::vector<double>& watts = type_state_watts_[layout.gpu_type_index(g)];
    limits.insert(limits.end(), watts.begin(), watts.end());
  }
  std::sort(limits.begin(), limits.end(), std::greater<>());
  limits.erase(std::unique(limits.begin(), limits.end()), limits.end());
  const double job_limit = ctx.jobs.spec(job).power_limit_watts;
  for (double limit : limits) {
    const double run_limit = run_power_limit(inner_limit_watts, limit);
    const double added = added_watts(ctx, job, gpus, run_limit);
    if (projected + added > budget_watts_) continue;
    double slowest = 1;
    for (GpuId g : gpus)
      if (const std::optional<PowerState> state = capped_state(layout, g, run_power_limit(job_limit, run_limit)))
        slowest = std::min(slowest, state->speed);
    if (slowest < min_speed_) return std::nullopt;
    return Cap{run_limit, added};
  }
  return std::nullopt;
}

void PowerBudgetPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  if (!power_read_) read_power(ctx.cluster.layout());
  // The projection now: what the jobs holding GPUs add to the idle cluster.
  double projected = idle_cluster_watts_;
  for (JobIndex job : ctx.jobs.running()) projected += held_watts(ctx, job);
  for (JobIndex job : ctx.jobs.waiting()) projected += held_watts(ctx, job);

  Plan inner;
  inner_->schedule(ctx, inner);
  bool blocked = false;
  for (const Decision& d : inner.decisions()) {
    switch (d.kind) {
      case Decision::Kind::kPreempt:
      case Decision::Kind::kRelease:
        projected -= held_watts(ctx, d.job);
        if (d.kind == Decision::Kind::kPreempt)
          plan.preempt(d.job);
        else
          plan.release(d.job);
        break;
      case Decision::Kind::kAllocate: {
        if (blocked) break;
        const double added = added_watts(ctx, d.job, d.gpus, d.power_limit_watts);
        if (projected + added <= budget_watts_) {
          projected += added;
          plan.allocate(d.job, d.gpus, d.power_limit_watts);
          break;
        }
        if (over_budget_ == OverBudget::kCap) {
          if (const std::optional<Cap> cap = fitting_cap(ctx, d.job, d.gpus, d.power_limit_watts, projected)) {
            projected += cap->added_watts;
            plan.allocate(d.job, d.gpus, cap->limit_watts);
            break;
          }
        }
        blocked = true;  // it waits, and so do the allocations after it
        break;
      }
    }
  }
  if (inner.wake_time() != kNever) plan.wake_at(inner.wake_time());
}

}  // namespace gcsim
