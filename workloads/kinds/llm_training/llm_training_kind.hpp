// llm_training_kind.hpp: a large model's training under TP x PP x DP x EP
// with 1F1B, the "llm_training" field of a job entry
// (docs/workload-format.md), compiled into PhasedWork: the phases of one
// iteration over the job's ranks (llm_phases.hpp). It writes PhasedWork
// back as the "phased" field (phased_fields.hpp), which it also reads. Its
// TP groups must stay inside the nodes it may run on
// (tensor_group_check.hpp). A study's trial runs a share of the iterations.
//
//   "llm_training": {"model": {"parameters": 1.3e10, "layers": 40, "hidden_size": 5120,
//                              "sequence_length": 2048, "global_batch": 512},
//                    "parallel": {"tensor": 8, "data": 16}, "iterations": 50}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class LlmTrainingKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override {
    return {{"llm_training", "large-model training (TP x PP x DP x EP)"},
            {"phased", "iterations of phases over the job's ranks"}};
  }
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<PhasedWork>(work); }
  /// As "phased": an llm_training job is written as the phases it compiles into.
  void write(const JobSpec& job, nlohmann::json& entry) const override;
  std::string trial_refusal() const override { return ""; }
  /// The share of the iterations, rounded, at least one.
  JobWork trial_work(const JobWork& full, double share) const override;
  /// Its TP groups inside the nodes it may run on.
  void check_on(const JobSpec& job, const ClusterCheck& cluster) const override;
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_llm_training_kind();

}  // namespace gcsim
