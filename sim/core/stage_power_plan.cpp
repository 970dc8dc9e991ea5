#include "sim/core/stage_power_plan.hpp"

#include <algorithm>
#include <cassert>
#include <map>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/one_f_one_b.hpp"

namespace gcsim {
namespace {

// A lowering keeps the time within the bound up to rounding: a path that
// only ties the critical one in exact arithmetic may sum a hair above it.
constexpr double kTimeTolerance = 1e-9;

// Perseus's rule, greedily (stage_power_plan.hpp): each stage's index into `table`.
std::vector<std::size_t> perseus_states(const StagePowerPlan& plan, const std::vector<PowerState>& table) {
  const std::size_t stages = plan.forward_flops.size();
  std::vector<std::size_t> index(stages, 0);
  auto time_of = [&](const std::vector<std::size_t>& at) {
    std::vector<double> speeds;
    for (std::size_t i : at) speeds.push_back(table[i].speed);
    return planned_pipeline_flops(plan, speeds);
  };
  auto energy_of = [&](const std::vector<std::size_t>& at, double time) {
    double watts = 0;
    for (std::size_t i : at) watts += table[i].watts;
    return watts * time;
  };
  const double bound = (1 + plan.slack) * time_of(index) * (1 + kTimeTolerance);
  double energy = energy_of(index, time_of(index));
  for (;;) {
    std::size_t best = stages;
    double best_energy = energy;
    for (std::size_t s = 0; s < stages; ++s) {
      if (index[s] + 1 >= table.size()) continue;
      std::vector<std::size_t> lowered = index;
      ++lowered[s];
      const double time = time_of(lowered);
      if (time > bound) continue;
      const double e = energy_of(lowered, time);
      if (e < best_energy) best = s, best_energy = e;  // ties: the first stage
    }
    if (best == stages) return index;
    ++index[best];
    energy = best_energy;
  }
}

}  // namespace

std::uint32_t stage_of_rank(const StagePowerPlan& plan, std::uint32_t rank) {
  return (rank / plan.stages.stride) % plan.stages.size;
}

double planned_pipeline_flops(const StagePowerPlan& plan, const std::vector<double>& speeds) {
  assert(speeds.size() == plan.forward_flops.size() && "one speed per stage");
  std::vector<double> forward, backward;
  for (std::size_t s = 0; s < speeds.size(); ++s) {
    forward.push_back(plan.forward_flops[s] / speeds[s]);
    backward.push_back(plan.backward_flops[s] / speeds[s]);
  }
  return one_f_one_b_seconds(forward, backward, plan.micro_batches);
}

std::vector<PowerState> stage_power_states(const StagePowerPlan& plan, const std::vector<PowerState>& table) {
  assert(!table.empty() && "a plan's states come from a power-state table");
  std::vector<PowerState> states;
  if (!plan.limits_watts.empty()) {
    for (double limit : plan.limits_watts) states.push_back(state_within(table, limit));
    return states;
  }
  for (std::size_t i : perseus_states(plan, table)) states.push_back(table[i]);
  return states;
}

std::vector<std::optional<PowerState>> planned_rank_states(const StagePowerPlan& plan,
                                                           const std::vector<RankPower>& ranks) {
  std::map<const std::vector<PowerState>*, std::vector<PowerState>> by_table;  // each table's stage states, once
  std::vector<std::optional<PowerState>> states;
  states.reserve(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::vector<PowerState>* table = ranks[r].table;
    if (!table || table->empty()) {
      states.emplace_back();
      continue;
    }
    auto planned = by_table.find(table);
    if (planned == by_table.end()) planned = by_table.emplace(table, stage_power_states(plan, *table)).first;
    const PowerState stage = planned->second[stage_of_rank(plan, static_cast<std::uint32_t>(r))];
    states.push_back(ranks[r].cap_watts < stage.watts ? state_within(*table, ranks[r].cap_watts) : stage);
  }
  return states;
}

double planned_stretch(const StagePowerPlan& plan, const std::vector<std::optional<PowerState>>& rank_states) {
  std::vector<double> speeds(plan.forward_flops.size(), 1.0);
  for (std::size_t r = 0; r < rank_states.size(); ++r)
    if (rank_states[r]) {
      double& speed = speeds[stage_of_rank(plan, static_cast<std::uint32_t>(r))];
      speed = std::min(speed, rank_states[r]->speed);
    }
  const std::vector<double> full(speeds.size(), 1.0);
  return planned_pipeline_flops(plan, speeds) / planned_pipeline_flops(plan, full);
}

}  // namespace gcsim
