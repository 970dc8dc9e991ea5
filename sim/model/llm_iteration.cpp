#include "sim/model/llm_iteration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "sim/core/number_text.hpp"
#include "sim/core/one_f_one_b.hpp"

namespace gcsim {
namespace {

// Weights of an MLP h -> 4h -> h (biases aside): one expert.
double mlp_parameters(double h) { return 8 * h * h; }

// One layer's forward FLOPs for one micro-batch (Megatron-LM): attention
// 8 b s h^2 + 4 b s^2 h, and its MLP 16 b s h^2 once per expert a token meets.
double layer_forward_flops(const TransformerShape& m, double mlps_per_token) {
  const double b = m.micro_batch, s = m.sequence_length, h = m.hidden_size;
  return 8 * b * s * h * h + 4 * b * s * s * h + mlps_per_token * 16 * b * s * h * h;
}

double logit_forward_flops(const TransformerShape& m) {
  return 2.0 * m.micro_batch * m.sequence_length * m.hidden_size * m.vocabulary_size;
}

// A micro-batch's activations at a layer boundary: b s h elements.
double activation_bytes(const TransformerShape& m) {
  return static_cast<double>(m.micro_batch) * m.sequence_length * m.hidden_size * m.bytes_per_element;
}

ExchangeTerm exchange(Collective collective, std::uint32_t ranks, double buffer_bytes, const GroupLink& link,
                      std::uint32_t per_forward, std::uint32_t per_backward) {
  ExchangeTerm term;
  term.collective = collective;
  term.ranks = ranks;
  term.buffer_bytes = buffer_bytes;
  if (ranks < 2) return term;  // a group of one exchanges nothing
  term.per_forward = per_forward;
  term.per_backward = per_backward;
  term.each = collective_cost(collective, ranks, buffer_bytes, link);
  return term;
}

// The exchange of `bytes` of gradients per GPU among `ranks` replicas:
// adds its time, the part that may overlap the backward, and the bytes sent.
void add_gradient_exchange(GradientExchange how, std::uint32_t ranks, double bytes, const GroupLink& link,
                           DataParallelTerm& term) {
  if (how == GradientExchange::kAllreduce) {
    const CollectiveCost allreduce = collective_cost(Collective::kAllreduce, ranks, bytes, link);
    term.seconds += allreduce.seconds;
    term.overlappable_seconds += allreduce.seconds;
    term.bytes_sent_per_gpu += allreduce.bytes_sent_per_rank;
    return;
  }
  const CollectiveCost scatter = collective_cost(Collective::kReduceScatter, ranks, bytes, link);
  const CollectiveCost gather = collective_cost(Collective::kAllGather, ranks, bytes, link);
  term.seconds += scatter.seconds + gather.seconds;
  term.overlappable_seconds += scatter.seconds;
  term.bytes_sent_per_gpu += scatter.bytes_sent_per_rank + gather.bytes_sent_per_rank;
}

bool positive_finite(double x) { return std::isfinite(x) && x > 0; }

struct StageCompute {
  double forward_flops = 0, backward_flops = 0;  // 0 with measured layer times
  double forward_seconds = 0, backward_seconds = 0;
};

// One micro-batch's compute on one GPU of a stage of `dense` + `moe`
// layers; `staged`: the stage's share of the parameter rule's FLOPs is its
// layers over l (none: 1/p, as every stage of a balanced pipeline).
StageCompute stage_compute(const LlmTraining& training, std::uint32_t dense, std::uint32_t moe,
                           std::optional<std::uint32_t> staged) {
  const TransformerShape& model = training.model;
  const LlmCompute& compute = training.compute;
  const double t = training.parallel.tensor, p = training.parallel.pipeline;
  const std::uint32_t recomputed = compute.recomputation ? 1 : 0;
  const std::uint32_t layers_here = dense + moe;
  StageCompute c;
  switch (compute.rule) {
    case ComputeRule::kMegatronFlops: {
      const double layers = (dense * layer_forward_flops(model, 1) + moe * layer_forward_flops(model, model.top_k)) / t;
      c.forward_flops = layers + logit_forward_flops(model) / (p * t);
      c.backward_flops = 2 * c.forward_flops + recomputed * layers;
      break;
    }
    case ComputeRule::kParameterFlops: {
      const double model_flops =
          2 * active_parameters(model) * model.micro_batch * static_cast<double>(model.sequence_length);
      c.forward_flops =
          staged ? model_flops * *staged / (static_cast<double>(model.layers) * t) : model_flops / (p * t);
      c.backward_flops = (2 + recomputed) * c.forward_flops;
      break;
    }
    case ComputeRule::kLayerTimes:
      c.forward_seconds = layers_here * compute.layer_forward_seconds;
      c.backward_seconds = layers_here * (compute.layer_backward_seconds + recomputed * compute.layer_forward_seconds);
      break;
  }
  if (compute.rule != ComputeRule::kLayerTimes) {
    c.forward_seconds = c.forward_flops / compute.gpu_flops;
    c.backward_seconds = c.backward_flops / compute.gpu_flops;
  }
  return c;
}

}  // namespace

std::uint32_t moe_layers_of(const TransformerShape& model, std::uint32_t layers) {
  if (model.experts == 0 || model.moe_layer_interval == 0) return 0;
  return layers / model.moe_layer_interval;
}

std::uint32_t moe_layer_count(const TransformerShape& model) { return moe_layers_of(model, model.layers); }

double expert_parameters(const TransformerShape& model) {
  return static_cast<double>(moe_layer_count(model)) * model.experts * mlp_parameters(model.hidden_size);
}

double active_parameters(const TransformerShape& model) {
  return model.parameters - expert_parameters(model) +
         static_cast<double>(moe_layer_count(model)) * model.top_k * mlp_parameters(model.hidden_size);
}

double megatron_iteration_flops(const TransformerShape& model, bool recomputation) {
  const double moe = moe_layer_count(model), dense = model.layers - moe;
  const double layers = dense * layer_forward_flops(model, 1) + moe * layer_forward_flops(model, model.top_k);
  const double micro_batches_of_b = static_cast<double>(model.global_batch) / model.micro_batch;
  return micro_batches_of_b * ((recomputation ? 4 : 3) * layers + 3 * logit_forward_flops(model));
}

double pipeline_bubble_fraction(std::uint32_t micro_batches, std::uint32_t stages) {
  if (stages < 2) return 0;
  return static_cast<double>(stages - 1) / (static_cast<double>(micro_batches) + stages - 1);
}

LlmIteration llm_iteration(const LlmTraining& training) {
  const TransformerShape& model = training.model;
  const ParallelDegrees& par = training.parallel;
  const LlmCompute& compute = training.compute;
  const double t = par.tensor, p = par.pipeline;
  LlmIteration it;
  it.micro_batches = static_cast<std::uint32_t>(model.global_batch / (std::uint64_t{model.micro_batch} * par.data));
  const bool staged = !training.stage_layers.empty() || !training.stage_speeds.empty();
  it.layers_per_stage = model.layers / par.pipeline;
  it.moe_layers_per_stage = moe_layer_count(model) / par.pipeline;
  if (staged) {
    it.stage_layer_counts = training.stage_layers.empty()
                                ? std::vector<std::uint32_t>(par.pipeline, it.layers_per_stage)
                                : training.stage_layers;
    it.layers_per_stage = *std::max_element(it.stage_layer_counts.begin(), it.stage_layer_counts.end());
    it.moe_layers_per_stage = moe_layers_of(model, it.layers_per_stage);
  }
  const std::uint32_t dense_per_stage = it.layers_per_stage - it.moe_layers_per_stage;
  const std::uint32_t recomputed = compute.recomputation ? 1 : 0;

  // Compute: per micro-batch, one stage, one GPU of its TP group.
  const StageCompute heaviest =
      stage_compute(training, dense_per_stage, it.moe_layers_per_stage,
                    staged ? std::optional<std::uint32_t>(it.layers_per_stage) : std::nullopt);
  for (const std::uint32_t layers : it.stage_layer_counts) {
    const std::uint32_t moe = moe_layers_of(model, layers);
    const StageCompute stage = stage_compute(training, layers - moe, moe, layers);
    it.stage_forward_flops.push_back(stage.forward_flops);
    it.stage_backward_flops.push_back(stage.backward_flops);
    it.stage_forward_compute_seconds.push_back(stage.forward_seconds);
    it.stage_backward_compute_seconds.push_back(stage.backward_seconds);
  }
  it.forward_flops = heaviest.forward_flops;
  it.backward_flops = heaviest.backward_flops;
  it.forward_compute_seconds = heaviest.forward_seconds;
  it.backward_compute_seconds = heaviest.backward_seconds;

  // Communication in a micro-batch's slot on one stage.
  const double activations = activation_bytes(model);
  const std::uint32_t tp_allreduces = 2 * it.layers_per_stage;
  it.tensor = exchange(Collective::kAllreduce, par.tensor, activations, training.links.tensor, tp_allreduces,
                       (1 + recomputed) * tp_allreduces);
  it.pipeline =
      exchange(Collective::kPointToPoint, par.pipeline < 2 ? 1 : 2, activations, training.links.pipeline, 1, 1);
  const std::uint32_t all_to_alls = 2 * it.moe_layers_per_stage;
  it.expert = exchange(Collective::kAllToAll, par.expert, activations * model.top_k, training.links.expert, all_to_alls,
                       (1 + recomputed) * all_to_alls);

  it.stage_forward_seconds = it.forward_compute_seconds + it.tensor.forward_seconds() + it.expert.forward_seconds() +
                             it.pipeline.forward_seconds();
  it.stage_backward_seconds = it.backward_compute_seconds + it.tensor.backward_seconds() +
                              it.expert.backward_seconds() + it.pipeline.backward_seconds();
  it.pipeline_seconds = (static_cast<double>(it.micro_batches) + par.pipeline - 1) *
                        (it.stage_forward_seconds + it.stage_backward_seconds);
  it.pipeline_compute_seconds = (static_cast<double>(it.micro_batches) + par.pipeline - 1) *
                                (it.forward_compute_seconds + it.backward_compute_seconds);
  if (staged) {
    // The stages' computation along the 1F1B DAG's longest path, each at its speed; the slots' exchanges after.
    std::vector<double> forward, backward;
    for (std::size_t s = 0; s < it.stage_layer_counts.size(); ++s) {
      const double speed = training.stage_speeds.empty() ? 1.0 : training.stage_speeds[s];
      forward.push_back(it.stage_forward_compute_seconds[s] / speed);
      backward.push_back(it.stage_backward_compute_seconds[s] / speed);
    }
    const double full =
        one_f_one_b_seconds(it.stage_forward_compute_seconds, it.stage_backward_compute_seconds, it.micro_batches);
    it.pipeline_compute_seconds = one_f_one_b_seconds(forward, backward, it.micro_batches);
    it.stretch = full > 0 ? it.pipeline_compute_seconds / full : 1.0;
    const double exchanges =
        it.stage_forward_seconds + it.stage_backward_seconds - it.forward_compute_seconds - it.backward_compute_seconds;
    it.pipeline_seconds =
        it.pipeline_compute_seconds + (static_cast<double>(it.micro_batches) + par.pipeline - 1) * exchanges;
  }
  it.bubble_fraction = pipeline_bubble_fraction(it.micro_batches, par.pipeline);

  // Gradients at the end of the iteration.
  DataParallelTerm& dp = it.data;
  dp.dense_gradient_bytes = (model.parameters - expert_parameters(model)) / (t * p) * model.bytes_per_element;
  dp.expert_gradient_bytes = expert_parameters(model) / (t * p * par.expert) * model.bytes_per_element;
  add_gradient_exchange(training.gradients, par.data, dp.dense_gradient_bytes, training.links.data, dp);
  if (dp.expert_gradient_bytes > 0)
    add_gradient_exchange(training.gradients, par.data / par.expert, dp.expert_gradient_bytes, training.links.data, dp);
  // The exchange runs beside dp_overlap of the last micro-batch's backward computation.
  const double last_backward =
      staged ? it.stage_backward_compute_seconds.front() * it.stretch : it.backward_compute_seconds;
  dp.hidden_seconds = std::min(dp.overlappable_seconds, training.dp_overlap * last_backward);
  dp.exposed_seconds = dp.seconds - dp.hidden_seconds;

  it.iteration_seconds = it.pipeline_seconds + dp.exposed_seconds;
  return it;
}

// stage_layers: one positive count per stage, summing to the model's layers.
std::optional<LlmInputProblem> find_stage_layers_problem(const LlmTraining& training) {
  const std::vector<std::uint32_t>& layers = training.stage_layers;
  using P = LlmInputProblem;
  if (layers.size() != training.parallel.pipeline)
    return P{"stage_layers", "expected one count per pipeline stage, " + std::to_string(training.parallel.pipeline) +
                                 " (parallel.pipeline), got " + std::to_string(layers.size())};
  for (std::size_t s = 0; s < layers.size(); ++s)
    if (layers[s] == 0)
      return P{"stage_layers", "stage " + std::to_string(s) + " holds no layer: each holds at least 1"};
  const std::uint64_t sum = std::accumulate(layers.begin(), layers.end(), std::uint64_t{0});
  if (sum != training.model.layers)
    return P{"stage_layers", "the stages hold " + std::to_string(sum) + " layers in all, but model.layers is " +
                                 std::to_string(training.model.layers)};
  return std::nullopt;
}

std::optional<LlmInputProblem> find_tensor_group_problem(std::uint32_t tensor, std::uint32_t gpus_per_node) {
  if (tensor <= gpus_per_node && gpus_per_node % tensor == 0) return std::nullopt;
  return LlmInputProblem{"parallel.tensor", std::to_string(tensor) + " does not divide the " +
                                                std::to_string(gpus_per_node) +
                                                " GPUs of a node: a TP group must stay inside one node"};
}

std::optional<LlmInputProblem> find_llm_problem(const LlmTraining& training, std::uint32_t gpus) {
  const TransformerShape& m = training.model;
  const ParallelDegrees& par = training.parallel;
  const LlmCompute& compute = training.compute;
  using P = LlmInputProblem;
  if (!positive_finite(m.parameters)) return P{"model.parameters", "must be a number of parameters > 0"};
  if (m.layers == 0) return P{"model.layers", "must be at least 1"};
  if (m.hidden_size == 0) return P{"model.hidden_size", "must be at least 1"};
  if (m.sequence_length == 0) return P{"model.sequence_length", "must be at least 1"};
  if (m.global_batch == 0) return P{"model.global_batch", "must be at least 1 sequence"};
  if (m.micro_batch == 0) return P{"model.micro_batch", "must be at least 1 sequence"};
  if (!positive_finite(m.bytes_per_element)) return P{"model.bytes_per_element", "must be > 0 (2 for bf16)"};
  if (par.tensor == 0) return P{"parallel.tensor", "must be at least 1"};
  if (par.pipeline == 0) return P{"parallel.pipeline", "must be at least 1"};
  if (par.data == 0) return P{"parallel.data", "must be at least 1"};
  if (par.expert == 0) return P{"parallel.expert", "must be at least 1"};

  const std::uint64_t product = std::uint64_t{par.tensor} * par.pipeline * par.data;
  if (product != gpus)
    return P{"gpus", "parallel.tensor x parallel.pipeline x parallel.data = " + std::to_string(par.tensor) + " x " +
                         std::to_string(par.pipeline) + " x " + std::to_string(par.data) + " = " +
                         std::to_string(product) + " GPUs, but the job has " + std::to_string(gpus)};
  if (!training.stage_layers.empty()) {
    if (auto problem = find_stage_layers_problem(training)) return problem;
  } else if (m.layers % par.pipeline != 0) {
    return P{"model.layers", std::to_string(m.layers) + " layers do not split evenly over " +
                                 std::to_string(par.pipeline) + " pipeline stages (or give stage_layers)"};
  }
  const std::uint64_t batch_step = std::uint64_t{m.micro_batch} * par.data;
  if (m.global_batch % batch_step != 0)
    return P{"model.global_batch", std::to_string(m.global_batch) +
                                       " sequences are not a whole number of micro-batches (" +
                                       std::to_string(m.micro_batch) + ") on each of the " + std::to_string(par.data) +
                                       " data-parallel replicas"};

  if (m.experts == 0) {
    if (par.expert > 1) return P{"parallel.expert", "needs experts: only a mixture-of-experts model has an EP group"};
  } else {
    if (m.top_k == 0 || m.top_k > m.experts)
      return P{"model.top_k", "must be between 1 and the " + std::to_string(m.experts) + " experts"};
    if (m.experts % par.expert != 0)
      return P{"model.experts", std::to_string(m.experts) + " experts do not split evenly over parallel.expert = " +
                                    std::to_string(par.expert) + " GPUs"};
    if (par.data % par.expert != 0)
      return P{"parallel.expert", std::to_string(par.expert) + " does not divide parallel.data = " +
                                      std::to_string(par.data) + ": EP groups are formed among the replicas"};
    const std::vector<std::uint32_t> stages =
        training.stage_layers.empty() ? std::vector<std::uint32_t>{m.layers / par.pipeline} : training.stage_layers;
    for (const std::uint32_t per_stage : stages)
      if (m.moe_layer_interval == 0 || per_stage % m.moe_layer_interval != 0)
        return P{"model.moe_layer_interval",
                 "must divide the " + std::to_string(per_stage) +
                     " layers of a stage, so that the MoE layers fall alike in every stage"};
    if (m.parameters < expert_parameters(m))
      return P{"model.parameters", exact_number(m.parameters) + " is fewer than the experts' own " +
                                       exact_number(expert_parameters(m)) +
                                       " (MoE layers x experts x 8 hidden_size^2)"};
  }

  if (compute.rule == ComputeRule::kLayerTimes) {
    if (!positive_finite(compute.layer_forward_seconds))
      return P{"compute.layer_forward_seconds", "must be a time > 0"};
    if (!positive_finite(compute.layer_backward_seconds))
      return P{"compute.layer_backward_seconds", "must be a time > 0"};
  }
  if (!(training.dp_overlap >= 0 && training.dp_overlap <= 1)) return P{"dp_overlap", "must be between 0 and 1"};
  return std::nullopt;
}

std::optional<LlmInputProblem> find_llm_problem(const LlmTraining& training, std::uint32_t gpus,
                                                std::uint32_t gpus_per_node) {
  if (auto problem = find_llm_problem(training, gpus)) return problem;
  if (training.compute.rule != ComputeRule::kLayerTimes && !positive_finite(training.compute.gpu_flops))
    return LlmInputProblem{"compute.gpu_flops", "must be a FLOP rate > 0"};
  return find_tensor_group_problem(training.parallel.tensor, gpus_per_node);
}

}  // namespace gcsim
