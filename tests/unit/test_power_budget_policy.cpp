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

// over_budget=cap, on the powered cluster with the states 250 W at full
// speed, 200 W at 0.8 and 150 W at 0.5: a GPU held adds 200, 150 or 100 W.
ClusterSpec cluster_with_states() {
  ClusterSpec spec = powered_cluster();
  spec.gpu_types[0].power_states = {{250, 1.0}, {200, 0.8}, {150, 0.5}};
  return spec;
}

std::unique_ptr<SchedulingPolicy> capping(const std::string& kw, const std::string& min_speed = "") {
  PolicyRegistry registry;
  register_builtin(registry);
  PolicyOptions options{{"budget_kw", kw}, {"over_budget", "cap"}};
  if (!min_speed.empty()) options["min_speed"] = min_speed;
  return registry.make_policy("power-budget:fifo", options);
}

// Each decision's power limit, in the order recorded.
std::vector<double> limits_of(const Plan& plan) {
  std::vector<double> limits;
  for (const Decision& d : plan.decisions()) limits.push_back(d.power_limit_watts);
  return limits;
}

TEST(PowerBudgetPolicy, WithCapTheCapIsTheHighestStateWhoseProjectionFits) {
  PolicyBench bench(cluster_with_states(), {measured_job("a", 2, 0), measured_job("b", 2, 1)});
  bench.submit_all();
  // a: 800 W. b adds 400 at 250 W, 300 at 200 W, 200 at 150 W.
  EXPECT_EQ(limits_of(bench.schedule(*capping("1.15"))), (std::vector<double>{0, 200}));
  EXPECT_EQ(limits_of(bench.schedule(*capping("1.05"))), (std::vector<double>{0, 150}));
  EXPECT_EQ(limits_of(bench.schedule(*capping("1.25"))), (std::vector<double>{0, 0}));  // fits at full
  // Under 1000 W not even 150 W fits: b waits.
  EXPECT_EQ(steps_of(bench.schedule(*capping("0.99"))), (std::vector<PlanStep>{{kAllocate, 0}}));
}

TEST(PowerBudgetPolicy, WithCapAStateSlowerThanMinSpeedIsRefusedAndTheJobWaitsWithThoseBehindIt) {
  // a: 800 W. b (one GPU) fits under 920 W only at 150 W (900 W), speed
  // 0.5: min_speed 0.6 refuses it, and c, limited to 150 W by itself and so
  // fitting (900 W), waits behind it.
  JobSpec c = measured_job("c", 1, 2);
  c.power_limit_watts = 150;
  PolicyBench bench(cluster_with_states(), {measured_job("a", 2, 0), measured_job("b", 1, 1), c});
  bench.submit_all();
  EXPECT_EQ(steps_of(bench.schedule(*capping("0.92", "0.6"))), (std::vector<PlanStep>{{kAllocate, 0}}));
  // The default min_speed, 0.5, takes it; c then no longer fits (1000 W).
  const Plan taken = bench.schedule(*capping("0.92"));
  EXPECT_EQ(steps_of(taken), (std::vector<PlanStep>{{kAllocate, 0}, {kAllocate, 1}}));
  EXPECT_EQ(limits_of(taken), (std::vector<double>{0, 150}));
}

TEST(PowerBudgetPolicy, ACappedRunCountsAtItsCapUntilItEnds) {
  // a full (800 W), b capped at 200 W (1100 W). Once a ends: 400 + 300 =
  // 700 W, so d starts at full (1100 W); were b counted at full (800 W),
  // d would have to be capped.
  PolicyBench bench(cluster_with_states(), {measured_job("a", 2, 0), measured_job("b", 2, 1), measured_job("d", 2, 2)});
  bench.submit(0);
  bench.submit(1);
  auto policy = capping("1.15");
  bench.step(*policy);
  ASSERT_EQ(bench.state().running(), (std::vector<JobIndex>{0, 1}));
  EXPECT_EQ(bench.state().runtime(1).power_limit_watts, 200);
  bench.finish(0);
  bench.submit(2);
  const Plan plan = bench.schedule(*policy);
  EXPECT_EQ(steps_of(plan), (std::vector<PlanStep>{{kAllocate, 2}}));
  EXPECT_EQ(limits_of(plan), (std::vector<double>{0}));
  EXPECT_EQ(bench.state().runtime(1).power_limit_watts, 200);  // b keeps its cap
}

TEST(PowerBudgetPolicy, WaitIsTheDefaultAndAJobOverTheBudgetIsNeverCapped) {
  PolicyBench bench(cluster_with_states(), {measured_job("a", 2, 0), measured_job("b", 2, 1)});
  bench.submit_all();
  PolicyRegistry registry;
  register_builtin(registry);
  for (const PolicyOptions& options :
       {PolicyOptions{{"budget_kw", "1.15"}}, PolicyOptions{{"budget_kw", "1.15"}, {"over_budget", "wait"}}}) {
    const Plan plan = bench.schedule(*registry.make_policy("power-budget:fifo", options));
    EXPECT_EQ(steps_of(plan), (std::vector<PlanStep>{{kAllocate, 0}}));
    EXPECT_EQ(limits_of(plan), (std::vector<double>{0}));
  }
}

TEST(PowerBudgetPolicy, AJobOnGpusWithoutATableCannotBeCappedAndWaits) {
  PolicyBench bench(powered_cluster(), {measured_job("a", 2, 0), measured_job("b", 2, 1)});
  bench.submit_all();
  EXPECT_EQ(steps_of(bench.schedule(*capping("1.15"))), (std::vector<PlanStep>{{kAllocate, 0}}));
}

TEST(PowerBudgetPolicy, BadOverBudgetAndMinSpeedValuesAreRefusedNamingTheOption) {
  PolicyRegistry registry;
  register_builtin(registry);
  const auto refused = [&](const std::string& key, const std::string& value) {
    try {
      registry.make_policy("power-budget:fifo", {{"budget_kw", "1"}, {key, value}});
      ADD_FAILURE() << key << "=" << value << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(value), std::string::npos) << e.what();
    }
  };
  refused("over_budget", "throttle");
  refused("min_speed", "0");
  refused("min_speed", "1.5");
  refused("min_speed", "-0.2");
  refused("min_speed", "fast");
  EXPECT_NO_THROW(registry.make_policy("power-budget:fifo", {{"budget_kw", "1"}, {"min_speed", "1"}}));
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
