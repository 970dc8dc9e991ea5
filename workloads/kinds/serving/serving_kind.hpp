// serving_kind.hpp: a model deployment, the "serving" field of a job entry
// (docs/workload-format.md; serving_deployment.hpp reads the field), as
// ServingWork: one job per replica slot it may run at once, "id", "id#2",
// ...; the first carries its submit time and dependencies, the engine's
// serving controller submits the others as it scales. A deployment may serve
// from CPUs ("gpus": 0): each replica then holds its cpu_cores and memory on
// one node. Replicas keep no checkpoints and use their gpu_memory throughout.
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class ServingKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"serving", "a model deployment"}}; }
  /// "gpus": 0 serves from CPUs; otherwise at least 1.
  std::uint32_t read_gpus(const JsonObject& entry) const override;
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  void check(const JsonObject& entry, JobSpec& job) const override;
  /// One job per replica slot.
  void expand(JobSpec job, const JsonObject& entry, JobSink& jobs) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<ServingWork>(work); }
  /// The first replica alone: the others are made from its entry.
  bool written(const JobSpec& job) const override;
  void write(const JobSpec& job, nlohmann::json& entry) const override;
  std::string trial_refusal() const override {
    return "a study's trials train or run for a duration; a deployment is a job of its own";
  }
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_serving_kind();

}  // namespace gcsim
