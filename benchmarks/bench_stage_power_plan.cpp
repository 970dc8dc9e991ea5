// Perseus's per-computation plan (sim/core/stage_power_plan.hpp) on the
// pipelines it is meant for: p stages of unequal layers (the first and last
// hold a third more, as an embedding and a logit layer weigh), m
// micro-batches, the bundled H100 table, slack 0 and 0.05.
//
// BM_PerseusPlan/stages:P/micro_batches:M/slack_percent:S: one
// computation_power_states() call, 2 x P x M computations; p = 16 and m = 64
// (2,048 computations) is the size the plan must stay fast at. Counter
// lowered: how many computations run below full power.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/stage_power_plan.hpp"

namespace gcsim {
namespace {

StagePowerPlan unequal_pipeline(std::uint32_t stages, std::uint32_t micro_batches, double slack) {
  StagePowerPlan plan;
  plan.stages = {stages, 1};
  plan.micro_batches = micro_batches;
  for (std::uint32_t s = 0; s < stages; ++s) {
    const double layers = s == 0 || s + 1 == stages ? 4 : 3;
    plan.forward_flops.push_back(layers);
    plan.backward_flops.push_back(2 * layers);
  }
  plan.slack = slack;
  return plan;
}

void BM_PerseusPlan(benchmark::State& state) {
  const StagePowerPlan plan = unequal_pipeline(static_cast<std::uint32_t>(state.range(0)),
                                               static_cast<std::uint32_t>(state.range(1)), state.range(2) / 100.0);
  const std::vector<PowerState> table = bundled_power_states("H100");
  std::size_t lowered = 0;
  for (auto _ : state) {
    const std::vector<PowerState> ops = computation_power_states(plan, table, 700);
    lowered = 0;
    for (const PowerState& op : ops) lowered += op.watts < table.front().watts ? 1 : 0;
    benchmark::DoNotOptimize(lowered);
  }
  state.counters["lowered"] = static_cast<double>(lowered);
}
BENCHMARK(BM_PerseusPlan)
    ->ArgNames({"stages", "micro_batches", "slack_percent"})
    ->Args({4, 64, 0})
    ->Args({16, 64, 0})
    ->Args({16, 64, 5})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gcsim
