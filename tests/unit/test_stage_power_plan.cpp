// Each pipeline stage's power state under a plan (sim/core/stage_power_plan.hpp):
// explicit limits, Perseus's rule on a crafted pipeline counted by hand,
// a cluster cap below a stage's state, and a type without a table.
#include "sim/core/stage_power_plan.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "sim/core/gpu_power_states.hpp"

namespace gcsim {
namespace {

// p = 2 stages of 2 ranks each (ranks 0, 1 on stage 0), m = 3; stage 0
// computes half what stage 1 does: forward 1 and 2, backward 2 and 4
// (units of FLOPs). At full speed the pipeline takes 21 (test_one_f_one_b.cpp).
StagePowerPlan half_loaded_first_stage() {
  StagePowerPlan plan;
  plan.stages = {2, 2};
  plan.micro_batches = 3;
  plan.forward_flops = {1, 2};
  plan.backward_flops = {2, 4};
  return plan;
}

TEST(StagePowerPlan, RanksFollowThePipelineGroups) {
  StagePowerPlan plan = half_loaded_first_stage();
  EXPECT_EQ(stage_of_rank(plan, 0), 0u);
  EXPECT_EQ(stage_of_rank(plan, 1), 0u);
  EXPECT_EQ(stage_of_rank(plan, 2), 1u);
  EXPECT_EQ(stage_of_rank(plan, 3), 1u);
  plan.stages = {2, 1};  // tp-pp-dp with t = 1: stages alternate
  EXPECT_EQ(stage_of_rank(plan, 3), 1u);
  EXPECT_EQ(stage_of_rank(plan, 2), 0u);
}

TEST(StagePowerPlan, ExplicitLimitsTakeTheHighestStateWithinEach) {
  StagePowerPlan plan = half_loaded_first_stage();
  plan.limits_watts = {450, 800};  // H100: 400 W is the highest within 450; 700 W within 800
  const std::vector<PowerState> states = stage_power_states(plan, bundled_power_states("H100"));
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0].watts, 400);
  EXPECT_EQ(states[0].speed, 0.8);
  EXPECT_EQ(states[1].watts, 700);
}

TEST(StagePowerPlan, PerseusWithoutSlackKeepsEveryStageOnTheCriticalPathAtFullPower) {
  // Stage 0 at speed v: its first forward and last backward bracket stage
  // 1's 18 units of work, so the pipeline takes 18 + 3/v > 21 for any v < 1.
  const std::vector<PowerState> states = stage_power_states(half_loaded_first_stage(), bundled_power_states("H100"));
  EXPECT_EQ(states[0].watts, 700);
  EXPECT_EQ(states[1].watts, 700);
}

TEST(StagePowerPlan, PerseusWithSlackLowersTheLightStageWhileTheTimeStaysWithinIt) {
  // Slack 0.05: the bound is 1.05 x 21 = 22.05. Stage 0 at speed v takes 18 + 3/v
  // (v >= 0.5): 500 W (0.9) 21.33, 400 W (0.8) 21.75, 300 W (0.62) 22.84 (over).
  // Stage 1 at 0.9 alone: 1 + 18/0.9 + 2 = 23 (over). Energy, watts x time:
  // full 1400 x 21 = 29400; stage 0 at 500 W 1200 x 21.33 = 25600; at 400 W
  // 1100 x 21.75 = 23925, the last step within the bound.
  StagePowerPlan plan = half_loaded_first_stage();
  plan.slack = 0.05;
  const std::vector<PowerState> states = stage_power_states(plan, bundled_power_states("H100"));
  EXPECT_EQ(states[0].watts, 400);
  EXPECT_EQ(states[1].watts, 700);
  EXPECT_DOUBLE_EQ(planned_pipeline_flops(plan, {0.8, 1.0}), 21.75);
  const std::vector<PowerState> table = bundled_power_states("H100");
  const std::vector<RankPower> ranks(4, RankPower{&table, kNever});
  EXPECT_DOUBLE_EQ(planned_stretch(plan, planned_rank_states(plan, ranks)), 21.75 / 21);
}

TEST(StagePowerPlan, AClusterCapBelowAStageStateSlowsItsStage) {
  StagePowerPlan plan = half_loaded_first_stage();
  plan.limits_watts = {700, 700};
  const std::vector<PowerState> table = bundled_power_states("H100");
  std::vector<RankPower> ranks(4, RankPower{&table, kNever});
  ranks[3].cap_watts = 550;  // 500 W at 0.9
  const std::vector<std::optional<PowerState>> states = planned_rank_states(plan, ranks);
  ASSERT_EQ(states.size(), 4u);
  EXPECT_EQ(states[2]->watts, 700);
  EXPECT_EQ(states[3]->watts, 500);
  // Stage 1 at 0.9 bounds the pipeline: 1 + 18 / 0.9 + 2 = 23.
  EXPECT_DOUBLE_EQ(planned_stretch(plan, states), 23.0 / 21);
}

TEST(StagePowerPlan, ATypeWithoutATableHasNoState) {
  StagePowerPlan plan = half_loaded_first_stage();
  plan.limits_watts = {300, 300};
  const std::vector<PowerState> none;
  const std::vector<RankPower> ranks(4, RankPower{&none, kNever});
  const std::vector<std::optional<PowerState>> states = planned_rank_states(plan, ranks);
  for (const auto& state : states) EXPECT_FALSE(state.has_value());
  EXPECT_EQ(planned_stretch(plan, states), 1.0);
}

}  // namespace
}  // namespace gcsim
