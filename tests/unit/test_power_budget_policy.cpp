// power-budget:POLICY: the inner policy's jobs start, in its order, only
// while the projected IT power (node bases, idle GPUs, held GPUs at their
// busy or capped draw) stays within the budget; counted by hand on a crafted
// cluster of 2 nodes of 2 GPUs, idle 50 W, busy 250 W, base 100 W a node:
// 400 W idle, each whole GPU held adds 200 W.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "policies/register_builtin.hpp"
#include "sim/core/policy_registry.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim::testing {
namespace {

ClusterSpec powered_cluster() {
  ClusterSpec spec = crafted_cluster(2, 2);
  spec.gpu_types[0].power = GpuPower{50, 250, 50};
  spec.node_groups[0].base_watts = 100;
  return spec;
}

std::unique_ptr<SchedulingPolicy> budgeted(const std::string& inner, const std::string& kw) {
  PolicyRegistry registry;
  register_builtin(registry);
  return registry.make_policy("power-budget:" + inner, {{"budget_kw", kw}});
}

constexpr auto kAllocate = Decision::Kind::kAllocate;

TEST(PowerBudgetPolicy, JobsStartInTheInnerOrderWhileTheProjectionStaysWithinTheBudget) {
  // 400 W idle + a's 400 W = 800 W; b would make 1000 W > 900 W: it waits,
  // and c, which would fit, waits behind it.
  PolicyBench bench(powered_cluster(), {measured_job("a", 2, 0), measured_job("b", 1, 1), measured_job("c", 1, 2)});
  bench.submit_all();
  auto policy = budgeted("fifo", "0.9");
  EXPECT_EQ(steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 0}}));
  bench.step(*policy);
  EXPECT_TRUE(bench.schedule(*policy).decisions().empty());
  bench.finish(0);  // 400 W again: b (600 W) then c (800 W) start
  EXPECT_EQ(steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 1}, {kAllocate, 2}}));
}

TEST(PowerBudgetPolicy, ABudgetAtTheProjectionExactlyAdmitsTheJob) {
  PolicyBench bench(powered_cluster(), {measured_job("a", 2, 0), measured_job("b", 1, 1)});
  bench.submit_all();
  auto policy = budgeted("fifo", "1");  // 400 + 400 + 200 = 1000 W
  EXPECT_EQ(steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 0}, {kAllocate, 1}}));
}

TEST(PowerBudgetPolicy, CappedGpusCountAtTheirStatesWatts) {
  // Capped to 150 W (state 150 W at half speed): each GPU held adds 100 W,
  // so all four fit under 900 W (400 + 4 x 100 = 800).
  ClusterSpec spec = powered_cluster();
  spec.gpu_types[0].power_states = {{250, 1.0}, {150, 0.5}};
  spec.gpu_types[0].power_cap_watts = 150;
  PolicyBench bench(spec, {measured_job("a", 2, 0), measured_job("b", 1, 1), measured_job("c", 1, 2)});
  bench.submit_all();
  auto policy = budgeted("fifo", "0.9");
  EXPECT_EQ(steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 0}, {kAllocate, 1}, {kAllocate, 2}}));
}

TEST(PowerBudgetPolicy, AJobsOwnPowerLimitLowersWhatItAdds) {
  ClusterSpec spec = powered_cluster();
  spec.gpu_types[0].power_states = {{250, 1.0}, {150, 0.5}};
  JobSpec a = measured_job("a", 2, 0), b = measured_job("b", 2, 1);
  b.power_limit_watts = 150;  // adds 2 x 100 W: 400 + 400 + 200 = 1000 W
  PolicyBench bench(spec, {a, b});
  bench.submit_all();
  EXPECT_EQ(steps_of(bench.schedule(*budgeted("fifo", "1"))), (std::vector<PlanStep>{{kAllocate, 0}, {kAllocate, 1}}));
  EXPECT_EQ(steps_of(bench.schedule(*budgeted("fifo", "0.99"))), (std::vector<PlanStep>{{kAllocate, 0}}));
}

TEST(PowerBudgetPolicy, TheWrapperIsNamedWithItsInnerPolicyAndNeedsItsBudget) {
  EXPECT_EQ(budgeted("srtf", "2")->name(), "power-budget:srtf");
  PolicyRegistry registry;
  register_builtin(registry);
  try {
    registry.make_policy("power-budget:fifo", {});
    FAIL() << "a budget is required";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("budget_kw"), std::string::npos) << e.what();
  }
  EXPECT_THROW(registry.make_policy("power-budget:fifo", {{"budget_kw", "-1"}}), std::invalid_argument);
  EXPECT_THROW(registry.make_policy("no-such-wrapper:fifo", {{"budget_kw", "1"}}), UnknownPolicy);
  EXPECT_THROW(registry.make_policy("power-budget:no-such-policy", {{"budget_kw", "1"}}), UnknownPolicy);
  // Without the wrapper nobody reads budget_kw.
  EXPECT_THROW(registry.make_policy("fifo", {{"budget_kw", "1"}}), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim::testing
