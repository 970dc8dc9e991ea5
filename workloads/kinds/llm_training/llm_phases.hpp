// llm_phases.hpp: a large model's training iteration compiled into the
// phases the engine runs (PhasedWork, sim/core/phased_work.hpp), from the
// closed form's terms (sim/model/llm_iteration.hpp).
//
// Ranks are numbered tp + t (dp + d pp) ("tp-dp-pp", the default: a TP
// group is t consecutive ranks, so with t dividing a node's GPUs it sits in
// one node) or tp + t (pp + p dp) ("tp-pp-dp"). With S = m + p - 1 1F1B
// slots of one micro-batch's forward and backward, F_f and F_b a micro-batch's
// forward and backward FLOPs on one GPU of a stage (measured layer times
// become seconds x the FLOP/s they were measured at), one iteration is, in
// this order, each phase present only when it does something:
//   compute      S (F_f + F_b) - c FLOPs, c = dp_overlap x F_b
//   TP           ring steps among {t, 1}: b s h x bytes / t each, S x (allreduces
//                of a micro-batch, forward and backward) x 2(t-1) steps
//   EP           all-to-alls among {e, t} (tp-pp-dp: {e, t p}): b s k h x bytes / e
//                to each other rank, S x (all-to-alls of a micro-batch)
//   PP forward   to the next stage among {p, t d} ({p, t}): b s h x bytes, S of them
//   PP backward  to the previous stage, the same
//   DP beside    c FLOPs while the gradients go: the dense ones in ring steps
//                among {d, t} ({d, t p}) of G/d, 2(d-1) of them (an allreduce)
//                or d-1 (ZeRO's reduce-scatter); the experts' likewise among
//                the d/e replicas of each expert, {d/e, t e} ({d/e, t p e})
//   DP after     ZeRO only: the all-gathers, d-1 steps (and d/e-1 of the experts')
// (without a gradient exchange, c stays in the computing phase). With
// stage_layers the computing phase is the 1F1B DAG's longest path over the
// stages' FLOPs (sim/core/one_f_one_b.hpp), the slots exchange as the stage
// with the most layers, and c is dp_overlap x the first stage's backward.
// A stage power plan (stage_power_limits_watts, stage_power_plan) goes
// with the work as PhasedWork::power_plan: the stages' FLOPs, the PP
// groups and the limits or the slack, which the placement's costs and the
// energy meter resolve against the GPUs' power-state tables. The
// phases' durations alone add up to llm_iteration's iteration_seconds:
// the pipeline's S (t_f + t_b), then the gradients less min(overlappable,
// c's seconds) hidden beside c. The engine runs the phases with the
// placement's links and other jobs' traffic; the bubble's idle slots
// count as computation, as in the closed form.
//
//   const PhasedWork work = compile_llm_training(read_llm_training(entry, 256));
#pragma once

#include <cstdint>

#include "sim/core/phased_work.hpp"
#include "workloads/kinds/llm_training/llm_training_job.hpp"

namespace gcsim {

/// The groups of ranks of each kind of exchange.
struct LlmRankGroups {
  RankGroups tensor;       // {t, 1}
  RankGroups data;         // the d replicas of a rank
  RankGroups pipeline;     // the p stages
  RankGroups expert;       // e consecutive replicas
  RankGroups expert_data;  // the d/e replicas holding the same experts
};

/// The groups of `degrees` with ranks in `order`.
LlmRankGroups llm_rank_groups(const ParallelDegrees& degrees, RankOrder order);

/// One iteration of `job` as phases (above), its iterations the job's.
/// `job` is one read_llm_training() accepts.
PhasedWork compile_llm_training(const LlmTrainingJob& job);

/// The TP degree of phased work: the largest group of a ring among
/// consecutive ranks ({n, 1}) that takes more steps an iteration than one
/// allreduce's 2(n-1), which only a TP group does (a gradient exchange takes
/// at most 2(n-1)); 1 without one. Such a group must stay inside a node.
std::uint32_t tensor_parallel_degree(const PhasedWork& work);

}  // namespace gcsim
