// notebook_kind.hpp: an interactive notebook, the "notebook" field of a job
// entry (docs/workload-format.md), as NotebookWork: its GPUs held from its
// start, busy only in its bursts. Its activity is listed or drawn from a
// pattern (notebook_activity.hpp). With an idle timeout the entry makes one
// job per hold, "id", "id#2", ..., each after the one before. Preempted, its
// session starts over: it keeps no checkpoints.
//
//   "notebook": {"length": "8h", "busy_fraction": 0.1, "burst": "5min", "seed": 7, "idle_timeout": "1h"}
#pragma once

#include <memory>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

class NotebookKind final : public JobKind {
 public:
  std::vector<KindField> fields() const override { return {{"notebook", "an interactive session"}}; }
  JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
               const std::string& base_dir) const override;
  void check(const JsonObject& entry, JobSpec& job) const override;
  /// One job per hold when the notebook gives an idle timeout.
  void expand(JobSpec job, const JsonObject& entry, JobSink& jobs) const override;
  bool writes(const JobWork& work) const override { return std::holds_alternative<NotebookWork>(work); }
  void write(const JobSpec& job, nlohmann::json& entry) const override;
};

/// The kind, for builtin_kinds().
std::shared_ptr<const JobKind> make_notebook_kind();

}  // namespace gcsim
