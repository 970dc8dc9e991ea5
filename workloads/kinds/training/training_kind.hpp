// training_kind.hpp: data-parallel training, the "training" field of a job
// entry (docs/workload-format.md), as TrainingWork: per-GPU FLOPs and
// gradient bytes per iteration, the iterations, how the gradients are
// exchanged (a ring, a hierarchical allreduce or parameter servers, in
// fusion buffers), the input pipeline, and the FLOPs measured per GPU type.
// A study's trial runs a share of the iterations.
//
//   "training": {"flops_per_iteration": 1.2e13, "gradient_bytes": "100MB", "iterations": 1000,
//                "allreduce": "hierarchical", "fusion_buffer": "25MB"}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class TrainingKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"training", "data-parallel training"}}; }
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<TrainingWork>(work); }
  void write(const JobSpec& job, nlohmann::json& entry) const override;
  std::string trial_refusal() const override { return ""; }
  /// The share of the iterations, rounded, at least one.
  JobWork trial_work(const JobWork& full, double share) const override;
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_training_kind();

}  // namespace gcsim
