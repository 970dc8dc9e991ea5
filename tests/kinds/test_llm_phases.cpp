// Specification of an LLM training iteration compiled into phases
// (workloads/kinds/llm_training/llm_phases.hpp), every phase counted by hand.
//
// The dense case of tests/unit/test_llm_iteration.cpp: l = 4, h = 1024,
// s = 2048, B = 16, b = 1, bf16, t = p = d = 2 (8 GPUs), P = 50,331,648.
// - m = 16 / (1 x 2) = 8 micro-batches, S = m + p - 1 = 9 slots;
// - a micro-batch on one GPU of a stage: forward 2^36 = 68,719,476,736 FLOPs,
//   backward 2^37 = 137,438,953,472: 9 x 3 x 2^36 = 1,855,425,871,872 FLOPs;
// - TP: 4 allreduces a micro-batch each way among 2, each 2 ring steps of
//   b s h x 2 / 2 = 2,097,152 bytes: 9 x 8 x 2 = 144 steps;
// - PP: 9 messages of b s h x 2 = 4,194,304 bytes each way;
// - DP: 25,165,824 bytes of gradients a GPU, allreduced among 2: 2 steps of
//   12,582,912 bytes.
// Ranks tp + 2 (dp + 2 pp): TP {2, 1}, DP {2, 2}, PP {2, 4}.
#include "workloads/kinds/llm_training/llm_phases.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

constexpr double kForward = 68719476736.0;  // 2^36

LlmTrainingJob dense_case() {
  LlmTrainingJob job;
  TransformerShape& model = job.training.model;
  model.parameters = 50331648;
  model.layers = 4;
  model.hidden_size = 1024;
  model.sequence_length = 2048;
  model.global_batch = 16;
  model.micro_batch = 1;
  model.bytes_per_element = 2;
  job.training.parallel = {2, 2, 2, 1};
  job.iterations = 5;
  return job;
}

void expect_exchange(const PhaseExchange& got, Exchange exchange, RankGroups groups, double bytes,
                     std::uint64_t messages) {
  EXPECT_EQ(got.exchange, exchange);
  EXPECT_EQ(got.groups.size, groups.size);
  EXPECT_EQ(got.groups.stride, groups.stride);
  EXPECT_DOUBLE_EQ(got.bytes, bytes);
  EXPECT_EQ(got.messages, messages);
}

TEST(LlmPhases, DenseIterationComputesThenTensorThenPipelineThenGradients) {
  const PhasedWork work = compile_llm_training(dense_case());
  EXPECT_EQ(work.iterations, 5u);
  ASSERT_EQ(work.phases.size(), 5u);
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 27 * kForward);
  EXPECT_TRUE(work.phases[0].exchanges.empty());

  ASSERT_EQ(work.phases[1].exchanges.size(), 1u);
  EXPECT_EQ(work.phases[1].flops, 0);
  expect_exchange(work.phases[1].exchanges[0], Exchange::kRingStep, {2, 1}, 2097152, 144);

  ASSERT_EQ(work.phases[2].exchanges.size(), 1u);
  expect_exchange(work.phases[2].exchanges[0], Exchange::kChainNext, {2, 4}, 4194304, 9);
  ASSERT_EQ(work.phases[3].exchanges.size(), 1u);
  expect_exchange(work.phases[3].exchanges[0], Exchange::kChainPrev, {2, 4}, 4194304, 9);

  // No overlap: the gradients go with nothing computed beside them.
  EXPECT_EQ(work.phases[4].flops, 0);
  ASSERT_EQ(work.phases[4].exchanges.size(), 1u);
  expect_exchange(work.phases[4].exchanges[0], Exchange::kRingStep, {2, 2}, 12582912, 2);
}

TEST(LlmPhases, OverlapMovesItsShareOfABackwardBesideTheGradients) {
  LlmTrainingJob job = dense_case();
  job.training.dp_overlap = 0.5;
  const PhasedWork work = compile_llm_training(job);
  ASSERT_EQ(work.phases.size(), 5u);
  // c = 0.5 x 2^37 = 2^36 FLOPs leave the computing phase for the gradients'
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 26 * kForward);
  EXPECT_DOUBLE_EQ(work.phases[4].flops, kForward);
  EXPECT_EQ(work.phases[4].exchanges.size(), 1u);
}

TEST(LlmPhases, ZeroReduceScattersBesideTheBackwardThenAllGathersAfter) {
  LlmTrainingJob job = dense_case();
  job.training.gradients = GradientExchange::kReduceScatterAllGather;
  job.training.dp_overlap = 1;
  const PhasedWork work = compile_llm_training(job);
  ASSERT_EQ(work.phases.size(), 6u);
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 25 * kForward);  // 27 - 2 (the whole backward, 2^37)
  EXPECT_DOUBLE_EQ(work.phases[4].flops, 2 * kForward);
  ASSERT_EQ(work.phases[4].exchanges.size(), 1u);
  expect_exchange(work.phases[4].exchanges[0], Exchange::kRingStep, {2, 2}, 12582912, 1);  // d - 1
  EXPECT_EQ(work.phases[5].flops, 0);
  ASSERT_EQ(work.phases[5].exchanges.size(), 1u);
  expect_exchange(work.phases[5].exchanges[0], Exchange::kRingStep, {2, 2}, 12582912, 1);
}

TEST(LlmPhases, RecomputationRepeatsTheForwardAndItsAllreduces) {
  LlmTrainingJob job = dense_case();
  job.training.compute.recomputation = true;
  const PhasedWork work = compile_llm_training(job);
  // 9 x (1 + 3) x 2^36 FLOPs; 9 x (4 + 8) allreduces of 2 steps
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 36 * kForward);
  EXPECT_EQ(work.phases[1].exchanges[0].messages, 216u);
}

TEST(LlmPhases, PipelineFirstRankOrderPutsStagesNextToTensorGroups) {
  LlmTrainingJob job = dense_case();
  job.rank_order = RankOrder::kTensorPipelineData;
  const PhasedWork work = compile_llm_training(job);
  // ranks tp + 2 (pp + 2 dp): PP {2, 2}, DP {2, 4}; TP unchanged
  expect_exchange(work.phases[1].exchanges[0], Exchange::kRingStep, {2, 1}, 2097152, 144);
  expect_exchange(work.phases[2].exchanges[0], Exchange::kChainNext, {2, 2}, 4194304, 9);
  expect_exchange(work.phases[4].exchanges[0], Exchange::kRingStep, {2, 4}, 12582912, 2);
}

TEST(LlmPhases, MeasuredLayerTimesComputeAtTheRateTheyWereMeasuredAt) {
  LlmTrainingJob job = dense_case();
  job.training.compute.rule = ComputeRule::kLayerTimes;
  job.training.compute.layer_forward_seconds = 1e-3;
  job.training.compute.layer_backward_seconds = 2e-3;
  job.training.compute.gpu_flops = 1e14;
  const PhasedWork work = compile_llm_training(job);
  // 2 layers a stage: 2 ms forward, 4 ms backward a micro-batch, at 1e14 FLOP/s; 9 slots
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 9 * 6e-3 * 1e14);
}

TEST(LlmPhases, OneGpuOnlyComputes) {
  LlmTrainingJob job = dense_case();
  job.training.parallel = {1, 1, 1, 1};
  job.training.dp_overlap = 1;  // nothing to hide: its share stays in the computing phase
  const PhasedWork work = compile_llm_training(job);
  // 16 micro-batches of 4 layers: forward 2^38, backward 2^39
  ASSERT_EQ(work.phases.size(), 1u);
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 16 * 12 * kForward);
  EXPECT_TRUE(work.phases[0].exchanges.empty());
}

// The MoE case of tests/unit/test_llm_iteration.cpp: l = 4, every other
// layer MoE with E = 4 experts, top-2; t = 1, p = 2, d = 4, e = 2 (8 GPUs),
// P = 100,663,296 (P_E = 67,108,864).
// - m = 16 / 4 = 4, S = 5; a stage's forward 171,798,691,840 FLOPs, its
//   backward twice: 5 x 3 x 171,798,691,840 = 2,576,980,377,600;
// - EP: 2 all-to-alls a micro-batch each way, b s k h x 2 / e = 4,194,304
//   bytes to the other rank: 5 x 4 = 20; ranks tp + (dp + 4 pp): EP {2, 1};
// - PP {2, 4}: 5 messages of 4,194,304 bytes each way;
// - DP: dense gradients 33,554,432 bytes among 4 ({4, 1}): 6 steps of
//   8,388,608; the experts' 33,554,432 among d/e = 2 ({2, 2}): 2 steps of
//   16,777,216.
LlmTrainingJob moe_case() {
  LlmTrainingJob job = dense_case();
  job.training.model.parameters = 100663296;
  job.training.model.experts = 4;
  job.training.model.top_k = 2;
  job.training.model.moe_layer_interval = 2;
  job.training.parallel = {1, 2, 4, 2};
  return job;
}

TEST(LlmPhases, MixtureOfExpertsAllToAllsAmongConsecutiveReplicas) {
  const PhasedWork work = compile_llm_training(moe_case());
  ASSERT_EQ(work.phases.size(), 5u);  // t = 1: no TP phase
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 2576980377600.0);
  ASSERT_EQ(work.phases[1].exchanges.size(), 1u);
  expect_exchange(work.phases[1].exchanges[0], Exchange::kAllToAll, {2, 1}, 4194304, 20);
  expect_exchange(work.phases[2].exchanges[0], Exchange::kChainNext, {2, 4}, 4194304, 5);
  expect_exchange(work.phases[3].exchanges[0], Exchange::kChainPrev, {2, 4}, 4194304, 5);
}

TEST(LlmPhases, ExpertGradientsGoAmongTheReplicasOfTheirExperts) {
  const PhasedWork work = compile_llm_training(moe_case());
  ASSERT_EQ(work.phases[4].exchanges.size(), 2u);
  expect_exchange(work.phases[4].exchanges[0], Exchange::kRingStep, {4, 1}, 8388608, 6);
  expect_exchange(work.phases[4].exchanges[1], Exchange::kRingStep, {2, 2}, 16777216, 2);
}

TEST(LlmPhases, ZeroAllGathersTheExpertsToo) {
  LlmTrainingJob job = moe_case();
  job.training.gradients = GradientExchange::kReduceScatterAllGather;
  const PhasedWork work = compile_llm_training(job);
  ASSERT_EQ(work.phases.size(), 6u);
  for (const std::size_t phase : {4u, 5u}) {
    ASSERT_EQ(work.phases[phase].exchanges.size(), 2u);
    expect_exchange(work.phases[phase].exchanges[0], Exchange::kRingStep, {4, 1}, 8388608, 3);
    expect_exchange(work.phases[phase].exchanges[1], Exchange::kRingStep, {2, 2}, 16777216, 1);
  }
}

TEST(LlmPhases, ExpertGroupsFollowTheRankOrder) {
  LlmTrainingJob job = moe_case();
  job.rank_order = RankOrder::kTensorPipelineData;
  const PhasedWork work = compile_llm_training(job);
  // ranks pp + 2 dp: EP {2, 2}, PP {2, 1}, DP {4, 2}, the experts' DP {2, 4}
  expect_exchange(work.phases[1].exchanges[0], Exchange::kAllToAll, {2, 2}, 4194304, 20);
  expect_exchange(work.phases[2].exchanges[0], Exchange::kChainNext, {2, 1}, 4194304, 5);
  expect_exchange(work.phases[4].exchanges[0], Exchange::kRingStep, {4, 2}, 8388608, 6);
  expect_exchange(work.phases[4].exchanges[1], Exchange::kRingStep, {2, 4}, 16777216, 2);
}

void expect_groups(RankGroups groups, std::uint32_t size, std::uint32_t stride) {
  EXPECT_EQ(groups.size, size);
  EXPECT_EQ(groups.stride, stride);
}

TEST(LlmRankGroups, AreEachDegreeAtTheStrideOfTheDegreesBeforeIt) {
  const ParallelDegrees degrees{8, 4, 16, 4};  // 512 GPUs
  const LlmRankGroups a = llm_rank_groups(degrees, RankOrder::kTensorDataPipeline);
  expect_groups(a.tensor, 8, 1);
  expect_groups(a.data, 16, 8);
  expect_groups(a.pipeline, 4, 128);
  expect_groups(a.expert, 4, 8);
  expect_groups(a.expert_data, 4, 32);
  const LlmRankGroups b = llm_rank_groups(degrees, RankOrder::kTensorPipelineData);
  expect_groups(b.pipeline, 4, 8);
  expect_groups(b.data, 16, 32);
  expect_groups(b.expert, 4, 32);
  expect_groups(b.expert_data, 4, 128);
}

TEST(TensorParallelDegree, IsTheRingAmongConsecutiveRanksThatStepsMoreThanAnAllreduce) {
  EXPECT_EQ(tensor_parallel_degree(compile_llm_training(dense_case())), 2u);
  // t = 1: the dense gradients' ring {4, 1} steps 2 (4 - 1) times, no more
  EXPECT_EQ(tensor_parallel_degree(compile_llm_training(moe_case())), 1u);
  LlmTrainingJob job = dense_case();
  job.training.parallel = {1, 1, 8, 1};
  EXPECT_EQ(tensor_parallel_degree(compile_llm_training(job)), 1u);
  job.training.parallel = {8, 1, 1, 1};
  EXPECT_EQ(tensor_parallel_degree(compile_llm_training(job)), 8u);
}

}  // namespace
}  // namespace gcsim

namespace gcsim {
namespace {

TEST(LlmPhasesStages, UnequalStagesComputeThe1F1BLongestPathAndExchangeAsTheHeaviest) {
  // Stage 0 holds 1 layer (2^35 FLOPs forward on one GPU, 2^36 backward),
  // stage 1 holds 3: the longest path is 75 x 2^35 FLOPs
  // (tests/unit/test_llm_iteration.cpp); the TP pairs exchange as stage 1,
  // 6 allreduces each way a slot: 9 x 12 x 2 = 216 steps.
  LlmTrainingJob job = dense_case();
  job.training.stage_layers = {1, 3};
  const PhasedWork work = compile_llm_training(job);
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 75 * kForward / 2);
  expect_exchange(work.phases[1].exchanges[0], Exchange::kRingStep, {2, 1}, 2097152, 216);
  EXPECT_EQ(work.power_plan, nullptr);
}

TEST(LlmPhasesStages, APowerPlanCarriesTheStagesComputeAndTheirLimits) {
  LlmTrainingJob job = dense_case();
  job.training.stage_layers = {1, 3};
  job.stage_power_limits_watts = {300, 700};
  const PhasedWork work = compile_llm_training(job);
  ASSERT_NE(work.power_plan, nullptr);
  const StagePowerPlan& plan = *work.power_plan;
  EXPECT_EQ(plan.stages.size, 2u);
  EXPECT_EQ(plan.stages.stride, 4u);  // tp-dp-pp: ranks 0-3 on stage 0
  EXPECT_EQ(plan.micro_batches, 8u);
  EXPECT_EQ(plan.forward_flops, (std::vector<double>{kForward / 2, 3 * kForward / 2}));
  EXPECT_EQ(plan.backward_flops, (std::vector<double>{kForward, 3 * kForward}));
  EXPECT_EQ(plan.limits_watts, (std::vector<double>{300, 700}));
}

TEST(LlmPhasesStages, PerseusOnEqualStagesKeepsTheBalancedPhases) {
  LlmTrainingJob job = dense_case();
  job.perseus = true;
  job.stage_power_slack = 0.05;
  const PhasedWork work = compile_llm_training(job);
  EXPECT_DOUBLE_EQ(work.phases[0].flops, 9 * 3 * kForward);
  ASSERT_NE(work.power_plan, nullptr);
  EXPECT_TRUE(work.power_plan->limits_watts.empty());
  EXPECT_EQ(work.power_plan->slack, 0.05);
  EXPECT_EQ(work.power_plan->forward_flops, (std::vector<double>{kForward, kForward}));
}

}  // namespace
}  // namespace gcsim
