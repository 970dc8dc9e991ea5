// llm_iteration.hpp: the closed-form time of one training iteration of a
// transformer under tensor (t), pipeline (p), data (d) and expert (e)
// parallelism with the 1F1B schedule, each term apart.
//
// Notation (docs/simulation-model.md, Large-model training): B global batch
// and b micro-batch (sequences), s sequence length, h hidden size, l layers,
// V vocabulary, P parameters, E experts per MoE layer routing each token to
// k of them, bytes per element (2 for bf16); t x p x d GPUs; e divides d.
// Per micro-batch and stage, on one GPU:
// - Compute (Megatron-LM, Narayanan et al. SC'21): a layer's forward is
//   24 b s h^2 + 4 b s^2 h FLOPs (attention 8 b s h^2 + 4 b s^2 h, MLP
//   16 b s h^2; an MoE layer runs k MLPs), the logit layer's 2 b s h V; the
//   backward twice the forward, plus the layers' forward again with
//   recomputation. Over an iteration this is 72 B s l h^2 (1 + s/6h + V/12lh),
//   96 B s l h^2 (1 + s/6h + V/16lh) with recomputation (the logit layer is
//   not recomputed). A stage holds l/p layers, the logit layer is spread
//   over the stages, and the t GPUs of a TP group split every FLOP:
//   forward = (layers' forward / t) + 2 b s h V / (p t). Or 2 P' b s / (p t)
//   forward and twice that backward (6 P' per token, 8 P' with
//   recomputation; P' the parameters a token meets), or measured per-layer
//   times. Seconds = FLOPs / the GPU's achieved FLOP/s.
// - TP: 2 allreduces of b s h elements among t per layer in the forward,
//   2 in the backward, 2 more with recomputation (Shoeybi et al. 2019).
// - PP: one point-to-point message of b s h elements to the next stage in
//   the forward, one to the previous in the backward; none for p = 1.
// - EP: per MoE layer an all-to-all dispatch and an all-to-all combine in the
//   forward, the same two in the backward (again with recomputation), of
//   b s k h elements per GPU: its micro-batch's b s tokens, each sent to its
//   k experts; spread evenly over E experts, (e-1)/e of them leave the GPU.
// - t_f and t_b: a stage's compute plus its TP, EP and PP time, one after
//   the other (no overlap of communication and compute in a micro-batch).
// - 1F1B: m = B / (b d) micro-batches; the pipeline takes
//   (m + p - 1)(t_f + t_b) and idles (p - 1)/(m + p - 1) of it (the bubble).
// - DP: each GPU holds P/(t p) parameters (the experts' P_E = (MoE layers)
//   x E x 8 h^2, each expert an MLP h -> 4h -> h, split further over e): the
//   dense gradients are allreduced among d, the experts' among d/e, or
//   reduce-scattered and all-gathered (ZeRO). Gradients become ready, bucket
//   by bucket, during the last micro-batch's backward: the exchange starts
//   when dp_overlap of that backward's computation is left and runs beside
//   it, so hidden = min(overlappable, dp_overlap x t_b's compute), where the
//   overlappable part is the allreduces, or only the reduce-scatters (the
//   all-gather of updated parameters follows the optimizer step). Only the
//   computation counts: the backward's TP, EP and PP exchanges go before
//   the gradients'. This is what a simulation of the iteration as phases
//   runs (workloads/kinds/llm_training/: a phase computing dp_overlap of the
//   backward while the gradients go), so the two agree.
// - Iteration = (m + p - 1)(t_f + t_b) + (DP seconds - hidden).
// - Unbalanced stages (stage_layers: stage s holds l_s layers) and stages
//   slowed by a power plan (stage_speeds v_s): stage s's compute per
//   micro-batch scales with l_s (the logit layer stays spread evenly, 1/p
//   on each; the parameter rule's FLOPs are 2 P' b s l_s / (l t)) and is
//   divided by v_s. The pipeline's computation is the longest path of the
//   1F1B DAG over the stages' compute (sim/core/one_f_one_b.hpp); the TP,
//   EP and PP exchanges stay out of the DAG: every one of the m + p - 1
//   slots exchanges as the stage with the most layers does (its TP
//   allreduces and EP all-to-alls per layer, and the PP messages), which
//   a cap does not slow. The pipeline is that longest path plus (m + p - 1)
//   x the slot's exchanges; with equal stages at full speed, exactly
//   (m + p - 1)(t_f + t_b). t_f, t_b and the per-stage figures above are
//   the stage with the most layers'. The DP exchange keeps P/(t p) per GPU
//   and runs beside dp_overlap of the first stage's last backward (the
//   pipeline's last op), stretched as the whole computation is
//   (stretch: the longest path at the stages' speeds over it at full speed).
// Every group exchanges over its links' slowest edge (collective_cost.hpp),
// alone. Left out: interleaved and zero-bubble schedules, overlap of TP, PP
// or EP with compute, Megatron's scatter/gather of PP messages over the TP
// group, sequence parallelism, the embedding and logit layer's own place
// on the end stages (give them as extra layers in stage_layers), uneven
// expert load and capacity padding, the optimizer step, activation memory.
//
//   LlmTraining job;
//   job.model.parameters = 1.75e11; job.model.layers = 96; ...; job.parallel = {8, 8, 4, 1};
//   if (auto problem = find_llm_problem(job, 256, 8)) throw InputError(file, where, problem->field, problem->problem);
//   const LlmIteration it = llm_iteration(job);  // it.iteration_seconds, it.bubble_fraction, it.tensor, ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/model/collective_cost.hpp"

namespace gcsim {

/// The transformer and its batch, as Megatron-LM counts them.
struct TransformerShape {
  double parameters = 0;              // P, every expert's included
  std::uint32_t layers = 0;           // l
  std::uint32_t hidden_size = 0;      // h
  std::uint32_t sequence_length = 0;  // s
  std::uint32_t vocabulary_size = 0;  // V; 0 leaves the logit layer out
  std::uint32_t global_batch = 0;     // B, sequences per iteration
  std::uint32_t micro_batch = 1;      // b
  double bytes_per_element = 2;       // of activations and gradients (2: bf16)
  // Mixture of experts: none when experts is 0.
  std::uint32_t experts = 0;             // E per MoE layer
  std::uint32_t top_k = 1;               // experts each token is routed to
  std::uint32_t moe_layer_interval = 1;  // layers n, 2n, 3n, ... are MoE (1: all, 2: every other)
};

/// t, p, d, e. The job has t x p x d GPUs; the EP groups are formed among the d replicas.
struct ParallelDegrees {
  std::uint32_t tensor = 1;
  std::uint32_t pipeline = 1;
  std::uint32_t data = 1;
  std::uint32_t expert = 1;
};

/// How a micro-batch's compute is counted.
enum class ComputeRule {
  kMegatronFlops,   // per layer, as in Megatron-LM (the default)
  kParameterFlops,  // 6 FLOPs per parameter and token, 8 with recomputation
  kLayerTimes,      // measured seconds per layer
};

struct LlmCompute {
  ComputeRule rule = ComputeRule::kMegatronFlops;
  bool recomputation = false;         // full activation recomputation
  double gpu_flops = 0;               // FLOP/s one GPU achieves (the FLOP rules)
  double layer_forward_seconds = 0;   // kLayerTimes: one layer, one micro-batch, one GPU of its TP group
  double layer_backward_seconds = 0;  // the same layer's backward, recomputation aside
};

/// How the data-parallel replicas exchange their gradients.
enum class GradientExchange { kAllreduce, kReduceScatterAllGather /* ZeRO, FSDP */ };

/// Each group's slowest edge.
struct LlmLinks {
  GroupLink tensor;    // among a TP group (inside a node)
  GroupLink pipeline;  // between neighbouring stages
  GroupLink data;      // among the d replicas (and the d/e replicas of an expert)
  GroupLink expert;    // among an EP group
};

struct LlmTraining {
  TransformerShape model;
  ParallelDegrees parallel;
  LlmCompute compute;
  GradientExchange gradients = GradientExchange::kAllreduce;
  double dp_overlap = 0;  // in [0, 1]: the share of the last backward's computation the DP exchange runs beside
  LlmLinks links;
  /// Per stage, its layers (p positive counts summing to l); empty: l/p each.
  std::vector<std::uint32_t> stage_layers;
  /// Per stage, the speed its GPUs compute at under a power plan, in (0, 1]; empty: full speed.
  std::vector<double> stage_speeds;
};

/// One kind of exchange in a micro-batch's forward and backward on one stage.
struct ExchangeTerm {
  Collective collective = Collective::kAllreduce;
  std::uint32_t ranks = 1;        // the group's size
  double buffer_bytes = 0;        // S of one collective, per rank
  std::uint32_t per_forward = 0;  // collectives in one micro-batch's forward on one stage (0 for a group of one)
  std::uint32_t per_backward = 0;
  CollectiveCost each;  // one of them
  double forward_seconds() const { return per_forward * each.seconds; }
  double backward_seconds() const { return per_backward * each.seconds; }
};

/// The gradient exchange at the end of an iteration, per GPU.
struct DataParallelTerm {
  double dense_gradient_bytes = 0;   // (P - P_E)/(t p) x bytes, among the d replicas
  double expert_gradient_bytes = 0;  // P_E/(t p e) x bytes, among the d/e replicas of its experts
  double seconds = 0;                // the whole exchange
  double bytes_sent_per_gpu = 0;
  double overlappable_seconds = 0;  // the part that may run during the last backward
  double hidden_seconds = 0;        // min(overlappable, dp_overlap x backward_compute_seconds)
  double exposed_seconds = 0;       // seconds - hidden
};

/// One iteration, term by term; compute, TP, PP and EP per micro-batch and stage on one GPU.
struct LlmIteration {
  std::uint32_t micro_batches = 0;  // m
  std::uint32_t layers_per_stage = 0;
  std::uint32_t moe_layers_per_stage = 0;
  double forward_flops = 0;  // 0 with measured layer times
  double backward_flops = 0;
  double forward_compute_seconds = 0;
  double backward_compute_seconds = 0;
  ExchangeTerm tensor;                // allreduces among t
  ExchangeTerm pipeline;              // point to point between stages
  ExchangeTerm expert;                // all-to-alls among e
  double stage_forward_seconds = 0;   // t_f
  double stage_backward_seconds = 0;  // t_b
  double pipeline_seconds = 0;        // (m + p - 1)(t_f + t_b); with stage_layers or stage_speeds, the 1F1B DAG's
  // Per stage at full speed, with stage_layers or stage_speeds (empty otherwise):
  // its layers, one micro-batch's FLOPs and compute seconds on one GPU.
  std::vector<std::uint32_t> stage_layer_counts;
  std::vector<double> stage_forward_flops, stage_backward_flops;
  std::vector<double> stage_forward_compute_seconds, stage_backward_compute_seconds;
  double pipeline_compute_seconds = 0;  // the DAG's longest path over the stages' computation, at their speeds
  double stretch = 1;                   // pipeline_compute_seconds over the same at full speed
  double bubble_fraction = 0;           // (p - 1)/(m + p - 1)
  DataParallelTerm data;
  double iteration_seconds = 0;
};

/// The iteration of `training`, which find_llm_problem() accepts.
LlmIteration llm_iteration(const LlmTraining& training);

/// A problem with an input, naming the field it is about as a job's
/// `llm_training` entry spells it ("model.layers", "parallel.tensor",
/// "dp_overlap"; "gpus" is the job's own field).
struct LlmInputProblem {
  std::string field;
  std::string problem;
};
/// The first problem with the job itself on `gpus` GPUs: its model, degrees,
/// measured layer times and overlap; none when it is valid. Leaves out what
/// depends on the GPUs it gets (their FLOP/s, the GPUs of their nodes).
std::optional<LlmInputProblem> find_llm_problem(const LlmTraining& training, std::uint32_t gpus);
/// The first problem with `training` on `gpus` GPUs of nodes of
/// `gpus_per_node`: the job's, then no FLOP rate for a FLOP rule
/// (compute.gpu_flops), then its TP groups on those nodes.
std::optional<LlmInputProblem> find_llm_problem(const LlmTraining& training, std::uint32_t gpus,
                                                std::uint32_t gpus_per_node);
/// A TP group of `tensor` GPUs on nodes of `gpus_per_node`: it must fit in
/// one node and divide its GPUs, so that no group straddles two (parallel.tensor).
std::optional<LlmInputProblem> find_tensor_group_problem(std::uint32_t tensor, std::uint32_t gpus_per_node);

/// The MoE layers among l: l / moe_layer_interval; 0 without experts.
std::uint32_t moe_layer_count(const TransformerShape& model);
/// The MoE layers among a stage's `layers`: layers / moe_layer_interval; 0 without experts.
std::uint32_t moe_layers_of(const TransformerShape& model, std::uint32_t layers);

/// A problem with stage_layers (given): one positive count per stage, summing to model.layers.
std::optional<LlmInputProblem> find_stage_layers_problem(const LlmTraining& training);

/// P_E: the experts' parameters, (MoE layers) x E x 8 h^2.
double expert_parameters(const TransformerShape& model);

/// P': the parameters one token meets, P - P_E + (MoE layers) x k x 8 h^2.
double active_parameters(const TransformerShape& model);

/// Megatron-LM's FLOPs of a whole iteration on all GPUs (72 or 96 B s l h^2 (...) for a dense model).
double megatron_iteration_flops(const TransformerShape& model, bool recomputation);

/// 1F1B's idle share of the pipeline: (p - 1)/(m + p - 1).
double pipeline_bubble_fraction(std::uint32_t micro_batches, std::uint32_t stages);

}  // namespace gcsim
