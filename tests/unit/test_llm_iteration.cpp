// Specification of one training iteration under TP x PP x DP (x EP) with
// 1F1B (sim/model/llm_iteration.hpp), every term counted by hand.
//
// The dense case: l = 4 layers, h = 1024, s = 2048, B = 16, b = 1, bf16
// (2 bytes), t = p = d = 2 (8 GPUs), GPUs of 1e14 FLOP/s, every link 1e11 B/s
// and 10 us; P = 12 l h^2 = 50,331,648 (the layers' weights).
// - a layer's forward: 24 b s h^2 + 4 b s^2 h = 24 x 2^31 + 2^34 = 2^36
//   = 68,719,476,736 FLOPs; a stage holds 2 layers split over t = 2 GPUs:
//   2^36 FLOPs per GPU, 0.68719476736 ms forward, twice that backward;
// - an activation: b s h x 2 = 4,194,304 bytes; a TP allreduce among 2:
//   2 steps of (10 us + 2,097,152 / 1e11 = 20.97152 us) = 61.94304 us, 4 per
//   stage each way (2 per layer) = 247.77216 us; a PP message:
//   10 us + 41.94304 us = 51.94304 us each way;
// - t_f = 0.68719476736 + 0.24777216 + 0.05194304 = 0.98690996736 ms,
//   t_b = 1.37438953472 + 0.24777216 + 0.05194304 = 1.67410473472 ms;
// - m = 16 / (1 x 2) = 8; the pipeline (8 + 2 - 1)(t_f + t_b) = 9 x 2.66101470208
//   = 23.94913231872 ms, idle 1/9 of it;
// - DP: P/(t p) = 12,582,912 parameters, 25,165,824 bytes of gradients per
//   GPU, allreduced among 2: 2 steps of (10 us + 125.82912 us) = 271.65824 us.
#include "sim/model/llm_iteration.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

constexpr GroupLink kLink{1e-5, 1e11};

LlmTraining dense_case() {
  LlmTraining job;
  job.model.parameters = 50331648;
  job.model.layers = 4;
  job.model.hidden_size = 1024;
  job.model.sequence_length = 2048;
  job.model.global_batch = 16;
  job.model.micro_batch = 1;
  job.model.bytes_per_element = 2;
  job.parallel = {2, 2, 2, 1};
  job.compute.gpu_flops = 1e14;
  job.links = {kLink, kLink, kLink, kLink};
  return job;
}

TEST(LlmIteration, MicroBatchesAreTheBatchOverMicroBatchTimesReplicas) {
  const LlmIteration it = llm_iteration(dense_case());
  EXPECT_EQ(it.micro_batches, 8u);
  EXPECT_EQ(it.layers_per_stage, 2u);
  EXPECT_EQ(it.moe_layers_per_stage, 0u);
}

TEST(LlmIteration, ComputeIsMegatronsLayerFlopsSplitOverStagesAndTensorRanks) {
  const LlmIteration it = llm_iteration(dense_case());
  EXPECT_DOUBLE_EQ(it.forward_flops, 68719476736.0);
  EXPECT_DOUBLE_EQ(it.backward_flops, 2 * 68719476736.0);
  EXPECT_DOUBLE_EQ(it.forward_compute_seconds, 0.68719476736e-3);
  EXPECT_DOUBLE_EQ(it.backward_compute_seconds, 1.37438953472e-3);
}

TEST(LlmIteration, TensorParallelismAllreducesTwicePerLayerEachWay) {
  const ExchangeTerm tp = llm_iteration(dense_case()).tensor;
  EXPECT_EQ(tp.collective, Collective::kAllreduce);
  EXPECT_EQ(tp.ranks, 2u);
  EXPECT_DOUBLE_EQ(tp.buffer_bytes, 4194304);
  EXPECT_EQ(tp.per_forward, 4u);
  EXPECT_EQ(tp.per_backward, 4u);
  EXPECT_DOUBLE_EQ(tp.each.seconds, 61.94304e-6);
  EXPECT_DOUBLE_EQ(tp.each.bytes_sent_per_rank, 4194304);  // 2 (t-1)/t of it
  EXPECT_DOUBLE_EQ(tp.forward_seconds(), 247.77216e-6);
}

TEST(LlmIteration, PipelineSendsOneActivationEachWayPerMicroBatch) {
  const ExchangeTerm pp = llm_iteration(dense_case()).pipeline;
  EXPECT_EQ(pp.collective, Collective::kPointToPoint);
  EXPECT_EQ(pp.per_forward, 1u);
  EXPECT_EQ(pp.per_backward, 1u);
  EXPECT_DOUBLE_EQ(pp.each.seconds, 51.94304e-6);
  EXPECT_DOUBLE_EQ(pp.each.bytes_sent_per_rank, 4194304);
}

TEST(LlmIteration, OneFOneBTakesMPlusPMinusOneSlotsOfForwardAndBackward) {
  const LlmIteration it = llm_iteration(dense_case());
  EXPECT_DOUBLE_EQ(it.stage_forward_seconds, 0.98690996736e-3);
  EXPECT_DOUBLE_EQ(it.stage_backward_seconds, 1.67410473472e-3);
  EXPECT_DOUBLE_EQ(it.pipeline_seconds, 23.94913231872e-3);
  EXPECT_DOUBLE_EQ(it.bubble_fraction, 1.0 / 9);
}

TEST(LlmIteration, DataParallelismAllreducesTheGradientsOfItsShare) {
  const LlmIteration it = llm_iteration(dense_case());
  EXPECT_DOUBLE_EQ(it.data.dense_gradient_bytes, 25165824);
  EXPECT_EQ(it.data.expert_gradient_bytes, 0);
  EXPECT_DOUBLE_EQ(it.data.seconds, 271.65824e-6);
  EXPECT_DOUBLE_EQ(it.data.bytes_sent_per_gpu, 25165824);  // 2 (d-1)/d of it
  // No overlap: the whole exchange follows the pipeline. 23.94913231872 + 0.27165824 ms.
  EXPECT_EQ(it.data.hidden_seconds, 0);
  EXPECT_DOUBLE_EQ(it.data.exposed_seconds, 271.65824e-6);
  EXPECT_DOUBLE_EQ(it.iteration_seconds, 24.22079055872e-3);
}

TEST(LlmIteration, OverlapHidesTheExchangeBehindItsShareOfTheLastBackwardsCompute) {
  LlmTraining job = dense_case();
  job.dp_overlap = 0.1;
  const LlmIteration it = llm_iteration(job);
  // 0.1 x the backward's compute, 1.37438953472 ms, runs beside the 271.65824 us exchange:
  // 137.438953472 us of it hides; 23.94913231872 + 0.134219286528 ms
  EXPECT_DOUBLE_EQ(it.data.hidden_seconds, 137.438953472e-6);
  EXPECT_DOUBLE_EQ(it.data.exposed_seconds, 134.219286528e-6);
  EXPECT_DOUBLE_EQ(it.iteration_seconds, 24.083351605248e-3);
}

TEST(LlmIteration, OverlapHidesNoMoreThanTheExchange) {
  LlmTraining job = dense_case();
  job.dp_overlap = 0.5;
  const LlmIteration it = llm_iteration(job);
  // 0.68719476736 ms of compute beside a 271.65824 us exchange: all of it hides
  EXPECT_DOUBLE_EQ(it.data.hidden_seconds, 271.65824e-6);
  EXPECT_EQ(it.data.exposed_seconds, 0);
  EXPECT_DOUBLE_EQ(it.iteration_seconds, 23.94913231872e-3);
}

TEST(LlmIteration, OverlapHidesNoMoreThanTheLastBackwardsCompute) {
  LlmTraining job = dense_case();
  job.dp_overlap = 1;
  job.links.data.bandwidth = 1e9;
  const LlmIteration it = llm_iteration(job);
  // 2 steps of (10 us + 12,582,912 / 1e9 = 12.582912 ms) = 25.185824 ms; the backward's compute,
  // 1.37438953472 ms, hides (not its TP and PP time: those exchanges run before the gradients')
  EXPECT_DOUBLE_EQ(it.data.seconds, 25.185824e-3);
  EXPECT_DOUBLE_EQ(it.data.hidden_seconds, 1.37438953472e-3);
  EXPECT_DOUBLE_EQ(it.data.exposed_seconds, 23.81143446528e-3);
}

TEST(LlmIteration, ZeroReduceScattersThenAllGathersAndOverlapsOnlyTheReduceScatter) {
  LlmTraining job = dense_case();
  job.gradients = GradientExchange::kReduceScatterAllGather;
  job.dp_overlap = 1;
  const LlmIteration it = llm_iteration(job);
  // each: 1 step of (10 us + 125.82912 us); the same volume as the allreduce, in two halves
  EXPECT_DOUBLE_EQ(it.data.seconds, 271.65824e-6);
  EXPECT_DOUBLE_EQ(it.data.bytes_sent_per_gpu, 25165824);
  EXPECT_DOUBLE_EQ(it.data.overlappable_seconds, 135.82912e-6);
  EXPECT_DOUBLE_EQ(it.data.hidden_seconds, 135.82912e-6);
  EXPECT_DOUBLE_EQ(it.data.exposed_seconds, 135.82912e-6);
}

TEST(LlmIteration, RecomputationRepeatsTheForwardAndItsAllreducesInTheBackward) {
  LlmTraining job = dense_case();
  job.compute.recomputation = true;
  const LlmIteration it = llm_iteration(job);
  // backward 3 x 2^36 FLOPs = 2.06158430208 ms; 8 allreduces = 0.49554432 ms; + 0.05194304 ms
  EXPECT_DOUBLE_EQ(it.backward_flops, 3 * 68719476736.0);
  EXPECT_EQ(it.tensor.per_forward, 4u);
  EXPECT_EQ(it.tensor.per_backward, 8u);
  EXPECT_DOUBLE_EQ(it.stage_backward_seconds, 2.60907166208e-3);
  // 9 x (0.98690996736 + 2.60907166208) ms
  EXPECT_DOUBLE_EQ(it.pipeline_seconds, 32.36383466496e-3);
}

TEST(LlmIteration, TheLogitLayerIsSpreadOverTheStages) {
  LlmTraining job = dense_case();
  job.model.vocabulary_size = 51200;
  const LlmIteration it = llm_iteration(job);
  // 2 b s h V = 214,748,364,800 over p t = 4: 53,687,091,200 per GPU
  EXPECT_DOUBLE_EQ(it.forward_flops, 68719476736.0 + 53687091200.0);
  EXPECT_DOUBLE_EQ(it.backward_flops, 2 * (68719476736.0 + 53687091200.0));
}

TEST(MegatronIterationFlops, IsSeventyTwoOrNinetySixBslhSquaredTimesTheCorrection) {
  TransformerShape model = dense_case().model;
  model.vocabulary_size = 51200;
  // without recomputation, V/(12 l h): 72 B s l h^2 = 72 x 16 x 2048 x 4 x 1024^2 = 9,895,604,649,984
  // times (1 + s/6h + V/12lh) = 1 + 1/3 + 51200/49152 = 2.375
  EXPECT_DOUBLE_EQ(megatron_iteration_flops(model, false), 23502061043712.0);
  // with it, V/(16 l h) (the logit layer is not recomputed): 96 B s l h^2 = 13,194,139,533,312
  // times 1 + 1/3 + 51200/65536 = 2.11458333...
  EXPECT_DOUBLE_EQ(megatron_iteration_flops(model, true), 27900107554816.0);
}

TEST(MegatronIterationFlops, IsWhatAllGpusComputeOverAllMicroBatches) {
  for (bool recomputation : {false, true}) {
    LlmTraining job = dense_case();
    job.model.vocabulary_size = 51200;
    job.compute.recomputation = recomputation;
    const LlmIteration it = llm_iteration(job);
    // m micro-batches on each of the t p d = 8 GPUs
    EXPECT_DOUBLE_EQ(it.micro_batches * 8 * (it.forward_flops + it.backward_flops),
                     megatron_iteration_flops(job.model, recomputation));
  }
}

TEST(LlmIteration, ParameterFlopsAreSixPerParameterAndToken) {
  LlmTraining job = dense_case();
  job.compute.rule = ComputeRule::kParameterFlops;
  const LlmIteration it = llm_iteration(job);
  // forward 2 P b s / (p t) = 2 x 50,331,648 x 2048 / 4 = 51,539,607,552 FLOPs: 0.51539607552 ms
  EXPECT_DOUBLE_EQ(it.forward_flops, 51539607552.0);
  EXPECT_DOUBLE_EQ(it.backward_flops, 2 * 51539607552.0);
  EXPECT_DOUBLE_EQ(it.forward_compute_seconds, 0.51539607552e-3);
  // over the iteration: 6 P B s
  EXPECT_DOUBLE_EQ(it.micro_batches * 8 * (it.forward_flops + it.backward_flops), 6.0 * 50331648 * 16 * 2048);
  job.compute.recomputation = true;
  EXPECT_DOUBLE_EQ(llm_iteration(job).backward_flops, 3 * 51539607552.0);  // 8 P B s in all
}

TEST(LlmIteration, MeasuredLayerTimesReplaceTheFlops) {
  LlmTraining job = dense_case();
  job.compute.rule = ComputeRule::kLayerTimes;
  job.compute.layer_forward_seconds = 1e-3;
  job.compute.layer_backward_seconds = 2e-3;
  job.compute.gpu_flops = 0;
  LlmIteration it = llm_iteration(job);
  EXPECT_EQ(it.forward_flops, 0);
  EXPECT_DOUBLE_EQ(it.forward_compute_seconds, 2e-3);  // 2 layers a stage
  EXPECT_DOUBLE_EQ(it.backward_compute_seconds, 4e-3);
  job.compute.recomputation = true;
  it = llm_iteration(job);
  EXPECT_DOUBLE_EQ(it.backward_compute_seconds, 6e-3);  // each layer's forward again
}

TEST(LlmIteration, OneGpuExchangesNothing) {
  LlmTraining job = dense_case();
  job.parallel = {1, 1, 1, 1};
  const LlmIteration it = llm_iteration(job);
  // m = 16; a micro-batch: 4 layers of 2^36 FLOPs forward = 2.74877906944 ms, backward twice
  EXPECT_EQ(it.tensor.per_forward + it.pipeline.per_forward + it.expert.per_forward, 0u);
  EXPECT_EQ(it.data.seconds, 0);
  EXPECT_EQ(it.bubble_fraction, 0);
  EXPECT_DOUBLE_EQ(it.iteration_seconds, 16 * 3 * 2.74877906944e-3);
}

TEST(PipelineBubbleFraction, IsStagesMinusOneOverMicroBatchesPlusStagesMinusOne) {
  EXPECT_DOUBLE_EQ(pipeline_bubble_fraction(8, 2), 1.0 / 9);
  EXPECT_DOUBLE_EQ(pipeline_bubble_fraction(4, 4), 3.0 / 7);
  EXPECT_DOUBLE_EQ(pipeline_bubble_fraction(1, 8), 7.0 / 8);
  EXPECT_EQ(pipeline_bubble_fraction(16, 1), 0);
}

// ---- mixture of experts --------------------------------------------------------------
//
// l = 4 layers, layers 2 and 4 MoE (interval 2: one a stage) with E = 4
// experts, top-2; t = 1, p = 2, d = 4, e = 2 (8 GPUs), B = 16, b = 1, the
// dense case's h, s, GPUs and links.
// - P_E = 2 MoE layers x 4 experts x 8 h^2 = 67,108,864; the rest: attention
//   4 h^2 x 4 layers + the 2 dense MLPs 8 h^2 x 2 = 33,554,432; P = 100,663,296;
// - an MoE layer's forward: 8 b s h^2 + 4 b s^2 h + 2 x 16 b s h^2
//   = 40 x 2^31 + 2^34 = 103,079,215,104 FLOPs; a stage (one dense, one MoE):
//   80 x 2^31 = 171,798,691,840 FLOPs = 1.7179869184 ms forward, twice backward;
// - an all-to-all: b s k h x 2 = 8,388,608 bytes, (e-1)/e of it sent:
//   10 us + 4,194,304 / 1e11 = 51.94304 us, dispatch and combine each way;
// - t_f = 1.7179869184 + 2 x 0.05194304 + 0.05194304 (PP) = 1.8738160384 ms,
//   t_b = 3.4359738368 + 0.15582912 = 3.5918029568 ms; m = 16 / 4 = 4:
//   (4 + 1) x 5.4656189952 = 27.328094976 ms, bubble 1/5;
// - DP: dense 33,554,432 / 2 x 2 bytes = 33,554,432 bytes among 4:
//   6 x (10 us + 83.88608 us) = 563.31648 us; experts 67,108,864 / (2 x 2)
//   x 2 bytes = 33,554,432 bytes among d/e = 2: 2 x (10 us + 167.77216 us)
//   = 355.54432 us; in all 918.8608 us.
LlmTraining moe_case() {
  LlmTraining job = dense_case();
  job.model.parameters = 100663296;
  job.model.experts = 4;
  job.model.top_k = 2;
  job.model.moe_layer_interval = 2;
  job.parallel = {1, 2, 4, 2};
  return job;
}

TEST(MixtureOfExperts, CountsTheExpertsParameters) {
  const TransformerShape model = moe_case().model;
  EXPECT_EQ(moe_layer_count(model), 2u);
  EXPECT_DOUBLE_EQ(expert_parameters(model), 67108864);
  // a token meets 2 of the 4 experts: 33,554,432 + 2 x 2 x 8 h^2
  EXPECT_DOUBLE_EQ(active_parameters(model), 67108864);
  EXPECT_EQ(moe_layer_count(dense_case().model), 0u);
}

TEST(MixtureOfExperts, AnMoeLayerRunsTopKMlps) {
  const LlmIteration it = llm_iteration(moe_case());
  EXPECT_EQ(it.moe_layers_per_stage, 1u);
  EXPECT_DOUBLE_EQ(it.forward_flops, 171798691840.0);
  EXPECT_DOUBLE_EQ(it.forward_compute_seconds, 1.7179869184e-3);
}

TEST(MixtureOfExperts, DispatchAndCombineAreAllToAllsOfTheRoutedTokens) {
  const ExchangeTerm ep = llm_iteration(moe_case()).expert;
  EXPECT_EQ(ep.collective, Collective::kAllToAll);
  EXPECT_EQ(ep.ranks, 2u);
  EXPECT_DOUBLE_EQ(ep.buffer_bytes, 8388608);
  EXPECT_DOUBLE_EQ(ep.each.bytes_sent_per_rank, 4194304);
  EXPECT_DOUBLE_EQ(ep.each.seconds, 51.94304e-6);
  EXPECT_EQ(ep.per_forward, 2u);
  EXPECT_EQ(ep.per_backward, 2u);
}

TEST(MixtureOfExperts, TheIterationAddsEveryTerm) {
  const LlmIteration it = llm_iteration(moe_case());
  EXPECT_EQ(it.tensor.per_forward, 0u);  // t = 1
  EXPECT_EQ(it.micro_batches, 4u);
  EXPECT_DOUBLE_EQ(it.stage_forward_seconds, 1.8738160384e-3);
  EXPECT_DOUBLE_EQ(it.stage_backward_seconds, 3.5918029568e-3);
  EXPECT_DOUBLE_EQ(it.pipeline_seconds, 27.328094976e-3);
  EXPECT_DOUBLE_EQ(it.bubble_fraction, 0.2);
}

TEST(MixtureOfExperts, ExpertGradientsAreExchangedAmongTheReplicasOfTheirExperts) {
  const LlmIteration it = llm_iteration(moe_case());
  EXPECT_DOUBLE_EQ(it.data.dense_gradient_bytes, 33554432);
  EXPECT_DOUBLE_EQ(it.data.expert_gradient_bytes, 33554432);
  EXPECT_DOUBLE_EQ(it.data.seconds, 918.8608e-6);
  // 3/2 x 33,554,432 among 4, 1 x 33,554,432 among 2
  EXPECT_DOUBLE_EQ(it.data.bytes_sent_per_gpu, 83886080);
  EXPECT_DOUBLE_EQ(it.iteration_seconds, 27.328094976e-3 + 918.8608e-6);
}

TEST(MixtureOfExperts, RecomputationRepeatsTheAllToAlls) {
  LlmTraining job = moe_case();
  job.compute.recomputation = true;
  EXPECT_EQ(llm_iteration(job).expert.per_backward, 4u);
}

// ---- validation -----------------------------------------------------------------------

TEST(FindLlmProblem, AcceptsTheWorkedCases) {
  EXPECT_FALSE(find_llm_problem(dense_case(), 8, 8).has_value());
  EXPECT_FALSE(find_llm_problem(moe_case(), 8, 4).has_value());
}

struct ProblemCase {
  std::string name;
  std::function<void(LlmTraining&)> change;
  std::uint32_t gpus;
  std::uint32_t gpus_per_node;
  std::string field;
};

std::ostream& operator<<(std::ostream& out, const ProblemCase& c) { return out << c.name; }

const double kNaN = std::numeric_limits<double>::quiet_NaN();

const ProblemCase kProblems[] = {
    {"NoParameters", [](LlmTraining& j) { j.model.parameters = 0; }, 8, 8, "model.parameters"},
    {"NoLayers", [](LlmTraining& j) { j.model.layers = 0; }, 8, 8, "model.layers"},
    {"NoHiddenSize", [](LlmTraining& j) { j.model.hidden_size = 0; }, 8, 8, "model.hidden_size"},
    {"NoSequence", [](LlmTraining& j) { j.model.sequence_length = 0; }, 8, 8, "model.sequence_length"},
    {"NoBatch", [](LlmTraining& j) { j.model.global_batch = 0; }, 8, 8, "model.global_batch"},
    {"NoMicroBatch", [](LlmTraining& j) { j.model.micro_batch = 0; }, 8, 8, "model.micro_batch"},
    {"NaNBytes", [](LlmTraining& j) { j.model.bytes_per_element = kNaN; }, 8, 8, "model.bytes_per_element"},
    {"NoTensorDegree", [](LlmTraining& j) { j.parallel.tensor = 0; }, 8, 8, "parallel.tensor"},
    {"NoPipelineDegree", [](LlmTraining& j) { j.parallel.pipeline = 0; }, 8, 8, "parallel.pipeline"},
    {"NoDataDegree", [](LlmTraining& j) { j.parallel.data = 0; }, 8, 8, "parallel.data"},
    {"NoExpertDegree", [](LlmTraining& j) { j.parallel.expert = 0; }, 8, 8, "parallel.expert"},
    {"DegreesMissTheGpus", [](LlmTraining&) {}, 16, 8, "gpus"},
    {"TensorGroupAboveANode",
     [](LlmTraining& j) {
       j.parallel = {8, 1, 1, 1};
     },
     8, 4, "parallel.tensor"},
    {"TensorGroupAcrossNodes",
     [](LlmTraining& j) {
       j.parallel = {3, 1, 1, 1};
     },
     3, 8, "parallel.tensor"},
    {"LayersUnevenOverStages",
     [](LlmTraining& j) {
       j.parallel = {2, 3, 2, 1};
     },
     12, 8, "model.layers"},
    {"BatchNotWholeMicroBatches", [](LlmTraining& j) { j.model.global_batch = 15; }, 8, 8, "model.global_batch"},
    {"ExpertDegreeWithoutExperts", [](LlmTraining& j) { j.parallel.expert = 2; }, 8, 8, "parallel.expert"},
    {"NoTopK", [](LlmTraining& j) { j = moe_case(), j.model.top_k = 0; }, 8, 8, "model.top_k"},
    {"TopKAboveExperts", [](LlmTraining& j) { j = moe_case(), j.model.top_k = 5; }, 8, 8, "model.top_k"},
    {"ExpertsUnevenOverTheGroup", [](LlmTraining& j) { j = moe_case(), j.model.experts = 3; }, 8, 8, "model.experts"},
    {"ExpertDegreeNotDividingData",
     [](LlmTraining& j) {
       j = moe_case(), j.parallel = {1, 1, 2, 4}, j.model.experts = 8;
     },
     2, 8, "parallel.expert"},
    {"NoMoeInterval", [](LlmTraining& j) { j = moe_case(), j.model.moe_layer_interval = 0; }, 8, 8,
     "model.moe_layer_interval"},
    {"MoeLayersUnevenOverStages", [](LlmTraining& j) { j = moe_case(), j.model.moe_layer_interval = 3; }, 8, 8,
     "model.moe_layer_interval"},
    {"FewerParametersThanExperts", [](LlmTraining& j) { j = moe_case(), j.model.parameters = 67108863; }, 8, 8,
     "model.parameters"},
    {"NoGpuFlops", [](LlmTraining& j) { j.compute.gpu_flops = 0; }, 8, 8, "compute.gpu_flops"},
    {"NoLayerForward",
     [](LlmTraining& j) { j.compute.rule = ComputeRule::kLayerTimes, j.compute.layer_backward_seconds = 1; }, 8, 8,
     "compute.layer_forward_seconds"},
    {"NegativeLayerBackward",
     [](LlmTraining& j) {
       j.compute.rule = ComputeRule::kLayerTimes, j.compute.layer_forward_seconds = 1;
       j.compute.layer_backward_seconds = -1;
     },
     8, 8, "compute.layer_backward_seconds"},
    {"OverlapAboveOne", [](LlmTraining& j) { j.dp_overlap = 1.5; }, 8, 8, "dp_overlap"},
    {"OverlapNaN", [](LlmTraining& j) { j.dp_overlap = kNaN; }, 8, 8, "dp_overlap"},
};

class FindLlmProblemOf : public ::testing::TestWithParam<ProblemCase> {};

TEST_P(FindLlmProblemOf, NamesTheFieldAndSaysWhatIsWrong) {
  LlmTraining job = dense_case();
  GetParam().change(job);
  const std::optional<LlmInputProblem> problem = find_llm_problem(job, GetParam().gpus, GetParam().gpus_per_node);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->field, GetParam().field);
  EXPECT_FALSE(problem->problem.empty());
}

INSTANTIATE_TEST_SUITE_P(EachRule, FindLlmProblemOf, ::testing::ValuesIn(kProblems),
                         [](const ::testing::TestParamInfo<ProblemCase>& info) { return info.param.name; });

TEST(FindLlmProblem, OfTheJobAloneLeavesOutTheGpusRateAndNodes) {
  LlmTraining job = dense_case();
  job.compute.gpu_flops = 0;  // the rate of the GPUs it will get
  job.parallel = {8, 1, 1, 1};
  EXPECT_FALSE(find_llm_problem(job, 8).has_value());
  job.model.layers = 0;
  ASSERT_TRUE(find_llm_problem(job, 8).has_value());
  EXPECT_EQ(find_llm_problem(job, 8)->field, "model.layers");
}

TEST(FindTensorGroupProblem, AGroupFitsANodeAndDividesItsGpus) {
  EXPECT_FALSE(find_tensor_group_problem(8, 8).has_value());
  EXPECT_FALSE(find_tensor_group_problem(2, 8).has_value());
  EXPECT_FALSE(find_tensor_group_problem(1, 1).has_value());
  const auto above = find_tensor_group_problem(8, 4);
  ASSERT_TRUE(above.has_value());
  EXPECT_EQ(above->field, "parallel.tensor");
  EXPECT_NE(above->problem.find("8 does not divide the 4 GPUs of a node"), std::string::npos) << above->problem;
  ASSERT_TRUE(find_tensor_group_problem(3, 8).has_value());
}

TEST(FindLlmProblem, SaysHowTheDegreesMissTheGpus) {
  const auto problem = find_llm_problem(dense_case(), 16, 8);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->problem.find("2 x 2 x 2 = 8 GPUs, but the job has 16"), std::string::npos) << problem->problem;
}

TEST(FindLlmProblem, SaysHowManyParametersTheExpertsNeed) {
  LlmTraining job = moe_case();
  job.model.parameters = 1e6;
  const auto problem = find_llm_problem(job, 8, 8);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->problem.find("1e+06 is fewer than the experts' own 67108864"), std::string::npos)
      << problem->problem;
}

}  // namespace
}  // namespace gcsim

// ---- unequal stages and stage speeds ----------------------------------------------
// The dense case with u = one layer's forward on one GPU of its TP pair,
// 2^35 FLOPs at 1e14 FLOP/s = 0.34359738368 ms, its backward 2u.

namespace gcsim {
namespace {

constexpr double kLayerForward = 0.34359738368e-3;  // u

TEST(LlmIterationStages, UnequalStagesTakeThe1F1BLongestPathPlusEachSlotsExchanges) {
  // Stage 0 holds 1 layer (forward u, backward 2u), stage 1 holds 3 (3u, 6u).
  // Stage 0 keeps ahead of stage 1, which computes its 8 micro-batches back
  // to back after stage 0's first forward; stage 0's last backward ends it:
  // u + 8 x 9u + 2u = 75u (a balanced pipeline: 9 x 6u = 54u). Every slot
  // exchanges as stage 1: 6 TP allreduces each way (371.65824 us) and one
  // PP message each way (51.94304 us): 9 x 847.20256 us = 7.62482304 ms.
  LlmTraining job = dense_case();
  job.stage_layers = {1, 3};
  const LlmIteration it = llm_iteration(job);
  EXPECT_EQ(it.layers_per_stage, 3u);
  EXPECT_EQ(it.tensor.per_forward, 6u);
  EXPECT_DOUBLE_EQ(it.stage_forward_compute_seconds[0], kLayerForward);
  EXPECT_DOUBLE_EQ(it.stage_backward_compute_seconds[1], 6 * kLayerForward);
  EXPECT_DOUBLE_EQ(it.pipeline_compute_seconds, 75 * kLayerForward);
  EXPECT_DOUBLE_EQ(it.pipeline_seconds, 75 * kLayerForward + 7.62482304e-3);
  EXPECT_DOUBLE_EQ(it.stretch, 1.0);
}

TEST(LlmIterationStages, EqualStageLayersKeepTheBalancedPipeline) {
  LlmTraining job = dense_case();
  job.stage_layers = {2, 2};
  EXPECT_DOUBLE_EQ(llm_iteration(job).pipeline_seconds, 23.94913231872e-3);
  EXPECT_DOUBLE_EQ(llm_iteration(job).iteration_seconds, llm_iteration(dense_case()).iteration_seconds);
}

TEST(LlmIterationStages, AStageAtHalfSpeedStretchesTheComputationOnly) {
  // Stage 1 at speed 0.5: forward 4u, backward 8u; stage 0 at full speed, 2u
  // and 4u, keeps ahead: 2u + 8 x 12u + 4u = 102u, over 54u at full speed.
  // The exchanges do not slow: 9 x 2 x (247.77216 + 51.94304) us = 5.3948736 ms.
  LlmTraining job = dense_case();
  job.stage_speeds = {1.0, 0.5};
  const LlmIteration it = llm_iteration(job);
  EXPECT_DOUBLE_EQ(it.pipeline_compute_seconds, 102 * kLayerForward);
  EXPECT_DOUBLE_EQ(it.stretch, 102.0 / 54);
  EXPECT_DOUBLE_EQ(it.pipeline_seconds, 102 * kLayerForward + 5.3948736e-3);
}

TEST(LlmIterationStages, StageLayersAreOnePositiveCountPerStageSummingToTheLayers) {
  LlmTraining job = dense_case();
  job.stage_layers = {1, 3};
  EXPECT_FALSE(find_llm_problem(job, 8).has_value());
  for (const std::vector<std::uint32_t>& bad :
       {std::vector<std::uint32_t>{4}, std::vector<std::uint32_t>{1, 2}, std::vector<std::uint32_t>{0, 4}}) {
    job.stage_layers = bad;
    const auto problem = find_llm_problem(job, 8);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->field, "stage_layers");
  }
  job.model.layers = 5;  // 5 layers over 2 stages: only with stage_layers
  job.stage_layers = {};
  EXPECT_EQ(find_llm_problem(job, 8)->field, "model.layers");
  job.stage_layers = {2, 3};
  EXPECT_FALSE(find_llm_problem(job, 8).has_value());
}

}  // namespace
}  // namespace gcsim
