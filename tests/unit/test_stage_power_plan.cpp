// Each computation's power state under a pipeline's plan
// (sim/core/stage_power_plan.hpp): explicit per-stage limits, Perseus's
// rule on crafted pipelines counted by hand, each rank's draw, a cluster cap
// below a stage's state, and a type without a table.
#include "sim/core/stage_power_plan.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/one_f_one_b.hpp"

namespace gcsim {
namespace {

// The bundled H100: 700 W 1.0, 500 W 0.9, 400 W 0.8, 300 W 0.62, 200 W 0.36; busy 700 W.
constexpr double kBusy = 700;

// p = 2 stages of 2 ranks each (ranks 0, 1 on stage 0), m = 3; stage 0
// computes half what stage 1 does: forward 1 and 2, backward 2 and 4
// (units of FLOPs). At full speed the pipeline takes 21 (test_one_f_one_b.cpp);
// stage 0's F1, B0, F2 and B1 have float 5, 3, 3 and 4, B0 and F2 sharing
// theirs (they fill [7, 13] one after the other); every other op none.
StagePowerPlan half_loaded_first_stage() {
  StagePowerPlan plan;
  plan.stages = {2, 2};
  plan.micro_batches = 3;
  plan.forward_flops = {1, 2};
  plan.backward_flops = {2, 4};
  return plan;
}

double watts_of(const std::vector<PowerState>& ops, std::uint32_t stage, std::uint32_t micro_batch, bool backward) {
  return ops[pipeline_op(stage, micro_batch, backward, 3)].watts;
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
  const std::vector<PowerState> ops = computation_power_states(plan, bundled_power_states("H100"), kBusy);
  ASSERT_EQ(ops.size(), 12u);
  for (std::uint32_t i = 0; i < 3; ++i)
    for (const bool backward : {false, true}) {
      EXPECT_EQ(watts_of(ops, 0, i, backward), 400);
      EXPECT_EQ(ops[pipeline_op(0, i, backward, 3)].speed, 0.8);
      EXPECT_EQ(watts_of(ops, 1, i, backward), 700);
    }
}

TEST(StagePowerPlan, PerseusWithoutSlackLowersTheOpsWithFloatAtUnchangedTime) {
  // Savings of one step down, per unit of work at full speed, with the bubble at 700 W:
  // (700 - w') / v' - (700 - w) / v: to 500 W 222.2, to 400 W 152.8, to 300 W 270.2, to 200 W 743.7;
  // times 1/v: 1.11, 1.25, 1.61, 2.78. F1 (work 1, 6 units from 1 to 7) and B1 (work 2, 6
  // from 13 to 19) drop to 200 W: 2.78 and 5.56. B0 (work 2) then F2 (work 1) share [7, 13]:
  // B0 leads (twice the saving) down to 300 W (3.23); to 200 W it would take 5.56 + 1 > 6.
  // F2 follows down to 300 W (1.61); at 200 W 3.23 + 2.78 = 6.004 > 6. F0, B2 and
  // stage 1 have no float and no slack: 700 W.
  const StagePowerPlan plan = half_loaded_first_stage();
  const std::vector<PowerState> table = bundled_power_states("H100");
  const std::vector<PowerState> ops = computation_power_states(plan, table, kBusy);
  EXPECT_EQ(watts_of(ops, 0, 0, false), 700);
  EXPECT_EQ(watts_of(ops, 0, 1, false), 200);
  EXPECT_EQ(watts_of(ops, 0, 0, true), 300);
  EXPECT_EQ(watts_of(ops, 0, 2, false), 300);
  EXPECT_EQ(watts_of(ops, 0, 1, true), 200);
  EXPECT_EQ(watts_of(ops, 0, 2, true), 700);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(watts_of(ops, 1, i, false), 700);
    EXPECT_EQ(watts_of(ops, 1, i, true), 700);
  }
  // Energy an iteration, per GPU of each stage: 700 x 21 = 14700 at full power. Planned, stage
  // 0 saves (700 - w) x its time on each lowered op: F1 and B1 500 x 3 / 0.36 = 4166.7, B0 and
  // F2 400 x 3 / 0.62 = 1935.5; 8597.8 in all (409.4 W over 21), stage 1 14700 as before:
  // 23297.8 against 29400.
  const PlannedPipeline planned = planned_pipeline(plan, std::vector<RankPower>(4, {&table, kNever, kBusy}));
  EXPECT_EQ(planned.stretch, 1.0);
  const double stage0_joules = 700 * 21 - 500 * 3 / 0.36 - 400 * 3 / 0.62;
  EXPECT_NEAR(planned.rank_watts[0] * 21, stage0_joules, 1e-9);
  EXPECT_NEAR(planned.rank_watts[1] * 21, stage0_joules, 1e-9);
  EXPECT_NEAR(planned.rank_watts[2], 700, 1e-12);
  EXPECT_NEAR(planned.rank_watts[3], 700, 1e-12);
  ASSERT_EQ(planned.stages.size(), 2u);
  EXPECT_EQ(planned.stages[0].highest.watts, 700);
  const std::vector<std::pair<double, std::uint32_t>> expected = {{700, 2}, {300, 2}, {200, 2}};
  std::vector<std::pair<double, std::uint32_t>> counted;
  for (const auto& [state, ops_in] : planned.stages[0].ops_per_state) counted.emplace_back(state.watts, ops_in);
  EXPECT_EQ(counted, expected);
  EXPECT_NEAR(planned.stages[0].mean_watts, stage0_joules / 21, 1e-9);
  ASSERT_EQ(planned.stages[1].ops_per_state.size(), 1u);
  EXPECT_EQ(planned.stages[1].ops_per_state[0].second, 6u);
}

TEST(StagePowerPlan, PerseusWithSlackLowersACriticalOpWhileTheTimeStaysWithinIt) {
  // One stage, one micro-batch: forward 1 then backward 2, 3 in all; slack 0.1 allows 3.3.
  // Every op is critical: a step down also costs the bubble-less pipeline its added time at
  // 700 W. B to 500 W: 2 x 222.2 - 700 x 0.22 = 288.9 saved, F to 500 W 222.2 - 700 x 0.11 =
  // 144.4: B goes (3.22). Then F to 500 W would take 3.33, B to 400 W 3.5: both over.
  StagePowerPlan plan;
  plan.stages = {1, 1};
  plan.micro_batches = 1;
  plan.forward_flops = {1};
  plan.backward_flops = {2};
  plan.slack = 0.1;
  const std::vector<PowerState> table = bundled_power_states("H100");
  const std::vector<PowerState> ops = computation_power_states(plan, table, kBusy);
  EXPECT_EQ(ops[pipeline_op(0, 0, false, 1)].watts, 700);
  EXPECT_EQ(ops[pipeline_op(0, 0, true, 1)].watts, 500);
  const PlannedPipeline planned = planned_pipeline(plan, {{&table, kNever, kBusy}});
  EXPECT_DOUBLE_EQ(planned.stretch, (1 + 2 / 0.9) / 3);
  EXPECT_DOUBLE_EQ(planned.rank_watts[0], (700 * 1 + 500 * 2 / 0.9) / (1 + 2 / 0.9));
}

TEST(StagePowerPlan, PerseusKeepsAnOpAtFullPowerWhereLoweringCostsTheOtherStagesMore) {
  // The slack test's op on a pipeline of 4 stages: lengthening the critical path by 0.11 x
  // the work costs 4 GPUs 700 W each in the bubble, more than the 222.2 x the work saved.
  StagePowerPlan plan;
  plan.stages = {4, 1};
  plan.micro_batches = 1;
  plan.forward_flops = {1, 1, 1, 1};
  plan.backward_flops = {2, 2, 2, 2};
  plan.slack = 0.5;
  for (const PowerState& op : computation_power_states(plan, bundled_power_states("H100"), kBusy))
    EXPECT_EQ(op.watts, 700);
}

TEST(StagePowerPlan, AClusterCapBelowAStageStateSlowsItsStage) {
  StagePowerPlan plan = half_loaded_first_stage();
  plan.limits_watts = {700, 700};
  const std::vector<PowerState> table = bundled_power_states("H100");
  std::vector<RankPower> ranks(4, RankPower{&table, kNever, kBusy});
  ranks[3].cap_watts = 550;  // 500 W at 0.9
  const PlannedPipeline planned = planned_pipeline(plan, ranks);
  ASSERT_EQ(planned.rank_watts.size(), 4u);
  // Stage 1 at 0.9 bounds the pipeline: 1 + 18 / 0.9 + 2 = 23.
  EXPECT_DOUBLE_EQ(planned.stretch, 23.0 / 21);
  EXPECT_DOUBLE_EQ(planned.rank_watts[2], 700);
  // Rank 3 computes 20 and waits 3, all at 500 W: capped, it draws no more in the bubble.
  EXPECT_DOUBLE_EQ(planned.rank_watts[3], 500);
}

TEST(StagePowerPlan, ATypeWithoutATableHasNoState) {
  StagePowerPlan plan = half_loaded_first_stage();
  plan.limits_watts = {300, 300};
  const std::vector<PowerState> none;
  const PlannedPipeline planned = planned_pipeline(plan, std::vector<RankPower>(4, RankPower{&none, kNever, 250}));
  for (const double watts : planned.rank_watts) EXPECT_EQ(watts, 250);
  EXPECT_EQ(planned.stretch, 1.0);
}

}  // namespace
}  // namespace gcsim
