#include "workloads/kinds/llm_training/llm_phases.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "sim/core/one_f_one_b.hpp"

namespace gcsim {
namespace {

// The ring steps of one gradient exchange of `bytes` per GPU among `groups`:
// `steps_per_rank` x (n-1) steps of bytes/n; none for a group of one.
void add_gradient_steps(std::vector<PhaseExchange>& exchanges, RankGroups groups, double bytes,
                        std::uint32_t steps_per_rank) {
  if (groups.size < 2) return;
  exchanges.push_back(
      {Exchange::kRingStep, groups, bytes / groups.size, std::uint64_t{steps_per_rank} * (groups.size - 1)});
}

}  // namespace

LlmRankGroups llm_rank_groups(const ParallelDegrees& degrees, RankOrder order) {
  const std::uint32_t t = degrees.tensor, p = degrees.pipeline, d = degrees.data, e = degrees.expert;
  const bool data_before_pipeline = order == RankOrder::kTensorDataPipeline;
  const std::uint32_t data_stride = data_before_pipeline ? t : t * p;
  LlmRankGroups groups;
  groups.tensor = {t, 1};
  groups.data = {d, data_stride};
  groups.pipeline = {p, data_before_pipeline ? t * d : t};
  groups.expert = {e, data_stride};
  groups.expert_data = {d / e, data_stride * e};
  return groups;
}

PhasedWork compile_llm_training(const LlmTrainingJob& job) {
  const LlmTraining& training = job.training;
  const ParallelDegrees& degrees = training.parallel;
  const LlmIteration it = llm_iteration(training);
  const LlmRankGroups groups = llm_rank_groups(degrees, job.rank_order);
  const std::uint64_t slots = std::uint64_t{it.micro_batches} + degrees.pipeline - 1;

  // One micro-batch's FLOPs on one GPU of a stage.
  double forward = it.forward_flops, backward = it.backward_flops;
  std::vector<double> stage_forward = it.stage_forward_flops, stage_backward = it.stage_backward_flops;
  if (training.compute.rule == ComputeRule::kLayerTimes) {
    forward = it.forward_compute_seconds * training.compute.gpu_flops;
    backward = it.backward_compute_seconds * training.compute.gpu_flops;
    for (std::size_t s = 0; s < stage_forward.size(); ++s) {
      stage_forward[s] = it.stage_forward_compute_seconds[s] * training.compute.gpu_flops;
      stage_backward[s] = it.stage_backward_compute_seconds[s] * training.compute.gpu_flops;
    }
  }

  PhasedWork work;
  work.iterations = job.iterations;
  if (training.stage_layers.empty()) {
    work.phases.push_back({static_cast<double>(slots) * (forward + backward), {}});
  } else {
    // Unequal stages: the 1F1B DAG's longest path, on every GPU (the bubble counts as computation).
    work.phases.push_back({one_f_one_b_seconds(stage_forward, stage_backward, it.micro_batches), {}});
    backward = stage_backward.front();  // the pipeline's last op, which the gradients' exchange runs beside
  }
  if (!job.stage_power_limits_watts.empty() || job.perseus) {
    if (stage_forward.empty()) {  // equal stages
      stage_forward.assign(degrees.pipeline, forward);
      stage_backward.assign(degrees.pipeline, backward);
    }
    work.power_plan = std::make_shared<const StagePowerPlan>(
        StagePowerPlan{groups.pipeline, it.micro_batches, stage_forward, stage_backward, job.stage_power_limits_watts,
                       job.perseus ? job.stage_power_slack : 0.0});
  }

  if (it.tensor.per_forward + it.tensor.per_backward > 0) {
    const std::uint64_t allreduces = slots * (it.tensor.per_forward + it.tensor.per_backward);
    work.phases.push_back({0,
                           {{Exchange::kRingStep, groups.tensor, it.tensor.buffer_bytes / degrees.tensor,
                             allreduces * 2 * (degrees.tensor - 1)}}});
  }
  if (it.expert.per_forward + it.expert.per_backward > 0) {
    const std::uint64_t all_to_alls = slots * (it.expert.per_forward + it.expert.per_backward);
    work.phases.push_back(
        {0, {{Exchange::kAllToAll, groups.expert, it.expert.buffer_bytes / degrees.expert, all_to_alls}}});
  }
  if (degrees.pipeline > 1) {
    // One phase each way: the closed form counts them one after the other.
    for (const Exchange way : {Exchange::kChainNext, Exchange::kChainPrev})
      work.phases.push_back({0, {{way, groups.pipeline, it.pipeline.buffer_bytes, slots}}});
  }

  // The gradients: an allreduce is 2(n-1) ring steps, ZeRO's reduce-scatter
  // and all-gather n-1 each, the all-gather after the rest.
  const bool zero = training.gradients == GradientExchange::kReduceScatterAllGather;
  WorkPhase beside{training.dp_overlap * backward, {}};
  add_gradient_steps(beside.exchanges, groups.data, it.data.dense_gradient_bytes, zero ? 1 : 2);
  if (it.data.expert_gradient_bytes > 0)
    add_gradient_steps(beside.exchanges, groups.expert_data, it.data.expert_gradient_bytes, zero ? 1 : 2);
  if (beside.exchanges.empty()) return work;  // nothing to compute beside: c stays in the computing phase
  work.phases.front().flops -= beside.flops;
  const std::vector<PhaseExchange> gradients = beside.exchanges;
  work.phases.push_back(std::move(beside));
  if (zero) work.phases.push_back({0, gradients});  // the all-gathers, as many steps as the reduce-scatters
  return work;
}

std::uint32_t tensor_parallel_degree(const PhasedWork& work) {
  std::uint32_t degree = 1;
  for (const WorkPhase& phase : work.phases)
    for (const PhaseExchange& exchange : phase.exchanges)
      if (exchange.exchange == Exchange::kRingStep && exchange.groups.stride == 1 && exchange.groups.size > 1 &&
          exchange.messages > 2 * std::uint64_t{exchange.groups.size - 1})
        degree = std::max(degree, exchange.groups.size);
  return degree;
}

}  // namespace gcsim
