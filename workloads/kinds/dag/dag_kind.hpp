// dag_kind.hpp: a DAG of tasks run by pools of workers (a render farm, any
// dependency chain), the "dag" field of a job entry or its shorthand
// "frame_chain" (frame_chain.hpp), as DagWork (docs/workload-format.md).
// The job holds one GPU per GPU worker and one core per CPU worker: "gpus"
// may be left out, and must agree when given; a DAG whose pools are all CPU
// pools holds no GPU. It starts over when preempted.
//
//   "dag": {"pools": [{"name": "render", "workers": 2}],
//           "tasks": [{"id": "a", "pool": "render", "seconds": 10},
//                     {"id": "b", "pool": "render", "seconds": 5, "after": [{"task": "a", "bytes": "1GB"}]}]}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class DagKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override {
    return {{"dag", "tasks run by pools of workers"}, {"frame_chain", "a render farm's frame chain"}};
  }
  /// "gpus" may be left out (check() sets it from the pools) or 0 (all pools are CPU pools).
  std::uint32_t read_gpus(const JsonObject& entry) const override;
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  void check(const JsonObject& entry, JobSpec& job) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<DagWork>(work); }
  /// As "dag": a frame chain is written as the DAG it makes.
  void write(const JobSpec& job, nlohmann::json& entry) const override;
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_dag_kind();

}  // namespace gcsim
