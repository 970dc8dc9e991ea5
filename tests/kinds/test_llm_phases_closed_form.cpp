// The phases an LLM training job compiles into (llm_phases.hpp), each alone
// on given links, last what the closed form (sim/model/llm_iteration.hpp)
// says an iteration lasts: the engine's phases and the closed form agree.
//
// A phase alone lasts the longer of its computation (its FLOPs at the GPU's
// FLOP/s) and its exchanges, one after the other on the ranks' links (a
// phase's exchanges leave every rank through its links together): an
// exchange is `messages` x (latency + the bytes a rank sends per message /
// bandwidth), a rank sending `bytes` per ring or chain step and (n - 1) x
// `bytes` per all-to-all, one piece to each other rank of its group.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "workloads/kinds/llm_training/llm_phases.hpp"

namespace gcsim {
namespace {

bool same(RankGroups a, RankGroups b) { return a.size == b.size && a.stride == b.stride; }

// The links of the group an exchange runs among.
GroupLink link_of(const PhaseExchange& exchange, const LlmRankGroups& groups, const LlmLinks& links) {
  switch (exchange.exchange) {
    case Exchange::kAllToAll:
      return links.expert;
    case Exchange::kChainNext:
    case Exchange::kChainPrev:
      return links.pipeline;
    case Exchange::kBroadcast:
      ADD_FAILURE() << "an LLM iteration broadcasts nothing";
      return links.pipeline;
    case Exchange::kRingStep:
      break;
  }
  if (same(exchange.groups, groups.tensor) && exchange.groups.size > 1 && !same(exchange.groups, groups.data))
    return links.tensor;
  EXPECT_TRUE(same(exchange.groups, groups.data) || same(exchange.groups, groups.expert_data));
  return links.data;
}

double exchange_seconds(const PhaseExchange& exchange, const GroupLink& link) {
  const double pieces = exchange.exchange == Exchange::kAllToAll ? exchange.groups.size - 1.0 : 1.0;
  return static_cast<double>(exchange.messages) * (link.latency + pieces * exchange.bytes / link.bandwidth);
}

double iteration_alone(const PhasedWork& work, const LlmTrainingJob& job, double gpu_flops) {
  const LlmRankGroups groups = llm_rank_groups(job.training.parallel, job.rank_order);
  double total = 0;
  for (const WorkPhase& phase : work.phases) {
    double exchanges = 0;
    for (const PhaseExchange& exchange : phase.exchanges)
      exchanges += exchange_seconds(exchange, link_of(exchange, groups, job.training.links));
    total += std::max(phase.flops / gpu_flops, exchanges);
  }
  return total;
}

struct ClosedFormCase {
  std::string name;
  void (*change)(LlmTrainingJob&);
};

std::ostream& operator<<(std::ostream& out, const ClosedFormCase& c) { return out << c.name; }

// The dense case of tests/unit/test_llm_iteration.cpp, on links that differ by group.
LlmTrainingJob dense_case() {
  LlmTrainingJob job;
  TransformerShape& model = job.training.model;
  model.parameters = 50331648;
  model.layers = 4;
  model.hidden_size = 1024;
  model.sequence_length = 2048;
  model.global_batch = 16;
  model.bytes_per_element = 2;
  job.training.parallel = {2, 2, 2, 1};
  job.training.compute.gpu_flops = 1e14;
  job.training.links = {{2e-6, 1.5e11}, {7e-6, 2.5e10}, {1e-5, 1.25e10}, {4e-6, 5e10}};
  return job;
}

void make_moe(LlmTrainingJob& job) {
  job.training.model.parameters = 100663296;
  job.training.model.experts = 4;
  job.training.model.top_k = 2;
  job.training.model.moe_layer_interval = 2;
  job.training.parallel = {1, 2, 4, 2};
}

const ClosedFormCase kCases[] = {
    {"Dense", [](LlmTrainingJob&) {}},
    {"DenseOverlapLimitedByTheCompute", [](LlmTrainingJob& j) { j.training.dp_overlap = 0.01; }},
    {"DenseOverlapLimitedByTheExchange",
     [](LlmTrainingJob& j) {
       j.training.links.data = {1e-5, 1e11};
       j.training.dp_overlap = 1;
     }},
    {"DenseZero",
     [](LlmTrainingJob& j) {
       j.training.gradients = GradientExchange::kReduceScatterAllGather;
       j.training.dp_overlap = 0.3;
     }},
    {"DenseSlowDataLinks",
     [](LlmTrainingJob& j) {
       j.training.links.data = {1e-5, 1e9};
       j.training.dp_overlap = 0.7;
     }},
    {"Recomputation",
     [](LlmTrainingJob& j) {
       j.training.compute.recomputation = true;
       j.training.dp_overlap = 0.5;
     }},
    {"Vocabulary", [](LlmTrainingJob& j) { j.training.model.vocabulary_size = 51200; }},
    {"ParameterFlops",
     [](LlmTrainingJob& j) {
       j.training.compute.rule = ComputeRule::kParameterFlops;
       j.training.dp_overlap = 0.2;
     }},
    {"LayerTimes",
     [](LlmTrainingJob& j) {
       j.training.compute = {ComputeRule::kLayerTimes, true, 3e14, 1.5e-3, 2.5e-3};
       j.training.dp_overlap = 0.05;
     }},
    {"PipelineFirstRanks",
     [](LlmTrainingJob& j) {
       j.rank_order = RankOrder::kTensorPipelineData;
       j.training.dp_overlap = 0.4;
     }},
    {"WideTensorAndData",
     [](LlmTrainingJob& j) {
       j.training.parallel = {4, 1, 4, 1};
       j.training.model.global_batch = 64;
       j.training.model.micro_batch = 2;
       j.training.dp_overlap = 0.6;
     }},
    {"OneGpu",
     [](LlmTrainingJob& j) {
       j.training.parallel = {1, 1, 1, 1};
     }},
    {"MixtureOfExperts", make_moe},
    {"MixtureOfExpertsZeroOverlapped",
     [](LlmTrainingJob& j) {
       make_moe(j);
       j.training.gradients = GradientExchange::kReduceScatterAllGather;
       j.training.dp_overlap = 0.25;
     }},
    {"MixtureOfExpertsWithTensorGroups",
     [](LlmTrainingJob& j) {
       make_moe(j);
       j.training.parallel = {2, 1, 4, 4};
       j.training.compute.recomputation = true;
       j.training.dp_overlap = 1;
     }},
    {"MixtureOfExpertsPipelineFirst",
     [](LlmTrainingJob& j) {
       make_moe(j);
       j.rank_order = RankOrder::kTensorPipelineData;
       j.training.dp_overlap = 0.5;
     }},
};

class PhasesAlone : public ::testing::TestWithParam<ClosedFormCase> {};

TEST_P(PhasesAlone, LastTheClosedFormsIteration) {
  LlmTrainingJob job = dense_case();
  GetParam().change(job);
  ASSERT_FALSE(
      find_llm_problem(job.training,
                       job.training.parallel.tensor * job.training.parallel.pipeline * job.training.parallel.data, 8)
          .has_value());
  const LlmIteration it = llm_iteration(job.training);
  const double alone = iteration_alone(compile_llm_training(job), job, job.training.compute.gpu_flops);
  EXPECT_NEAR(alone, it.iteration_seconds, 1e-9 * it.iteration_seconds)
      << "pipeline " << it.pipeline_seconds << " s, DP " << it.data.seconds << " s, hidden " << it.data.hidden_seconds
      << " s";
}

INSTANTIATE_TEST_SUITE_P(EachCase, PhasesAlone, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<ClosedFormCase>& info) { return info.param.name; });

LlmTrainingJob case_named(const std::string& name) {
  LlmTrainingJob job = dense_case();
  for (const ClosedFormCase& c : kCases)
    if (c.name == name) c.change(job);
  return job;
}

// The cases above include each side of the overlap rule: the exchange is
// what hides in one, the computation beside it in another.
TEST(PhasesAlone, CasesHideTheWholeExchangeAndOnlyPartOfIt) {
  const LlmIteration a = llm_iteration(case_named("DenseOverlapLimitedByTheExchange").training);
  EXPECT_GT(a.data.overlappable_seconds, 0);
  EXPECT_DOUBLE_EQ(a.data.hidden_seconds, a.data.overlappable_seconds);
  const LlmIteration b = llm_iteration(case_named("DenseOverlapLimitedByTheCompute").training);
  EXPECT_DOUBLE_EQ(b.data.hidden_seconds, 0.01 * b.backward_compute_seconds);
  EXPECT_LT(b.data.hidden_seconds, b.data.overlappable_seconds);
}

}  // namespace
}  // namespace gcsim
