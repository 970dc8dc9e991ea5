// cpu_kind.hpp: a CPU-only job (data preparation, a feature pipeline), the
// "cpu" field of a job entry (docs/workload-format.md), as CpuWork. It holds
// its cpu_cores and memory on one node and no GPU: "gpus" may only be 0, and
// the fields about GPUs, checkpoints and studies are refused. Its run is
// given as seconds, or as core-seconds its cores do at one a second each.
//
//   {"id": "etl", "cpu_cores": 16, "memory": "64GiB", "cpu": {"core_seconds": 57600}}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class CpuKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"cpu", "a CPU-only job"}}; }
  /// "gpus" may be left out, and 0 when given (check() refuses any other).
  std::uint32_t read_gpus(const JsonObject& entry) const override;
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  void check(const JsonObject& entry, JobSpec& job) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<CpuWork>(work); }
  void write(const JobSpec& job, nlohmann::json& entry) const override;
  std::string trial_refusal() const override {
    return "a study's trials train or run for a duration on GPUs; a CPU job is a job of its own";
  }
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_cpu_kind();

}  // namespace gcsim
