// measured_kind.hpp: a run time measured on a GPU type, the "duration"
// field of a job entry (docs/workload-format.md), as MeasuredWork. The
// GPU type must be one of the cluster's; a study's trial runs a share of
// the seconds.
//
//   "duration": {"seconds": 3600, "gpu_type": "V100", "rescale": false}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class MeasuredKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"duration", "run time measured on a GPU type"}}; }
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<MeasuredWork>(work); }
  void write(const JobSpec& job, nlohmann::json& entry) const override;
  std::string trial_refusal() const override { return ""; }
  JobWork trial_work(const JobWork& full, double share) const override;
  void check_on(const JobSpec& job, const ClusterCheck& cluster) const override;
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_measured_kind();

}  // namespace gcsim
