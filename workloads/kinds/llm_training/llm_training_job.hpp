// llm_training_job.hpp: a large model's training as a job entry describes
// it, the "llm_training" field (docs/workload-format.md): the transformer
// and its batch, the TP x PP x DP x EP degrees, the compute rule,
// recomputation, the gradient exchange and its overlap, the iterations and
// the order of the ranks, unequal stages and the stages' power plan. read_llm_training() checks every value, naming
// the field; llm_phases.hpp compiles the result into the phases the engine
// runs.
//
//   "llm_training": {"model": {"parameters": 7e10, "layers": 80, "hidden_size": 8192, "sequence_length": 4096,
//                              "vocabulary_size": 32000, "global_batch": 1024},
//                    "parallel": {"tensor": 8, "pipeline": 4, "data": 8},
//                    "gradients": "zero", "dp_overlap": 0.5, "iterations": 20,
//                    "stage_layers": [22, 18, 18, 22], "stage_power_plan": "perseus", "stage_power_slack": 0.05}
//   const LlmTrainingJob job = read_llm_training(entry, 256);  // entry: the job's JsonObject
#pragma once

#include <cstdint>
#include <vector>

#include "sim/io/json_input.hpp"
#include "sim/model/llm_iteration.hpp"

namespace gcsim {

/// How a job's ranks (its GPUs in placement order) are numbered by their
/// TP, DP and PP indices, the first named varying fastest.
enum class RankOrder {
  kTensorDataPipeline,  // "tp-dp-pp": rank = tp + t (dp + d pp)
  kTensorPipelineData,  // "tp-pp-dp": rank = tp + t (pp + p dp)
};

/// "tp-dp-pp" or "tp-pp-dp", as the entry spells it.
const char* rank_order_name(RankOrder order);

struct LlmTrainingJob {
  /// The model, degrees, compute rule, gradient exchange and overlap; its
  /// links are not the job's (the engine's placement gives them). With
  /// measured layer times, compute.gpu_flops is the FLOP/s of the GPU they
  /// were measured on; with a FLOP rule it is unused (0).
  LlmTraining training;
  std::uint64_t iterations = 1;
  RankOrder rank_order = RankOrder::kTensorDataPipeline;
  /// The stages' power plan: each stage's limit (stage_power_limits_watts),
  /// or Perseus's rule with its slack (stage_power_plan "perseus",
  /// stage_power_slack); neither: the GPUs run as the cluster caps them.
  std::vector<double> stage_power_limits_watts;
  bool perseus = false;
  double stage_power_slack = 0;
};

/// Reads the "llm_training" field of the job entry `entry` of `gpus` GPUs.
/// Every problem is an InputError naming the file, the job and the field
/// ("llm_training.model: field 'layers'"; the entry's own "gpus" when
/// tensor x pipeline x data misses them); what depends on the cluster (a TP
/// group inside a node) is checked against it later.
LlmTrainingJob read_llm_training(const JsonObject& entry, std::uint32_t gpus);

}  // namespace gcsim
