// job_kind.hpp: what a kind of job answers to the native workload format.
//
// A job kind (data-parallel training, a run measured on a GPU type, a DAG of
// tasks, a notebook, a serving deployment, a CPU job) is one folder of
// workloads/kinds/. It reads its field of a job entry into the work the
// simulator runs, one of the forms of JobWork (sim/core/job_spec.hpp: the
// simulator knows forms, never kinds); checks what the rest of the entry may
// say for it; expands the entry into the jobs it makes (a deployment's
// replicas, a notebook's holds); writes its form back; makes a study's trial
// of a share of its work; and checks a job against the cluster it will run
// on. The format's frame (workloads/native_workload.cpp) reads the fields
// every job has and reaches a kind through this interface alone; the kinds
// are listed once, in builtin_kinds.cpp (docs/architecture.md, "Where a new
// thing goes").
//
//   class SleepKind final : public JobKind { ... };   // "sleep": {"seconds": 60}
//   KindRegistry kinds = builtin_kinds();
//   kinds.add(std::make_shared<SleepKind>());
//   std::vector<JobSpec> jobs = read_native_workload(in, "w.json", kinds);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/io/json_input.hpp"

namespace gcsim {

/// A field of a job entry that gives work of a kind, and what it means in
/// the message for an entry that gives none: {"training", "data-parallel
/// training"}. Both are string literals: the registry keeps the views.
struct KindField {
  std::string_view name;
  std::string_view meaning;
};

/// Where the jobs an entry makes go, in the order of the workload.
class JobSink {
 public:
  virtual ~JobSink() = default;
  /// Adds a job; returns its index in the workload (JobSpec::after names jobs by it).
  virtual JobIndex add(JobSpec job) = 0;
};

/// A job of the workload against the cluster it will run on: fail() throws
/// the InputError that names the workload file, the job and the field.
class ClusterCheck {
 public:
  /// Holds the references it is given, for the time of one check.
  ClusterCheck(const ClusterLayout& layout, const std::string& file_label, const std::string& where,
               const std::string& cluster_name)
      : layout_(layout), file_label_(file_label), where_(where), cluster_name_(cluster_name) {}
  const ClusterLayout& layout() const { return layout_; }
  /// "cluster 'x' (file.json)": how messages name the cluster.
  const std::string& cluster_name() const { return cluster_name_; }
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const;
  /// The cluster's GPU type names, "A100, V100", or "none".
  std::string gpu_type_names() const;

 private:
  const ClusterLayout& layout_;
  const std::string& file_label_;
  const std::string& where_;
  const std::string& cluster_name_;
};

/// The cluster's GPU type names, "A100, V100", or "none".
std::string gpu_type_names(const ClusterSpec& cluster);

class JobKind {
 public:
  virtual ~JobKind() = default;

  /// The fields of a job entry that give work of this kind (most kinds have
  /// one; a DAG is given as "dag" or as the shorthand "frame_chain"). An
  /// entry gives exactly one field of all the kinds'.
  virtual std::vector<KindField> fields() const = 0;

  /// The job's GPU count from an entry of this kind. By default "gpus",
  /// required, at least 1; a kind that may hold no GPU reads it its own way.
  virtual std::uint32_t read_gpus(const JsonObject& entry) const;

  /// Reads the work from the entry's `field` (one of fields()). `job` holds
  /// the fields every job has, read already (its cpu_cores, ...); `base_dir`
  /// is the workload file's folder, which paths in the entry are relative to.
  virtual JobWork read(const JsonObject& entry, std::string_view field, const JobSpec& job,
                       const std::string& base_dir) const = 0;

  /// Checks the rest of the entry for this kind and completes the job (a
  /// DAG's GPUs are its GPU workers; a CPU job refuses the GPU fields).
  virtual void check(const JsonObject& entry, JobSpec& job) const;

  /// Adds the jobs the entry makes to `jobs`: the job itself by default.
  virtual void expand(JobSpec job, const JsonObject& entry, JobSink& jobs) const;

  /// Whether this kind writes `work` back: each form has one kind that writes it.
  virtual bool writes(const JobWork& work) const = 0;
  /// Whether the job has an entry of its own (a deployment's later replicas
  /// are made from its first one's entry, and are not written).
  virtual bool written(const JobSpec& job) const;
  /// Writes the job's work into its entry: entry[field] = ... .
  virtual void write(const JobSpec& job, nlohmann::json& entry) const = 0;

  /// Why a study's trials cannot be of this kind (the message for its field
  /// in a study), or "" when they can.
  virtual std::string trial_refusal() const;
  /// The work of a study's trial that runs `share` (in (0, 1]) of `full`;
  /// called only when trial_refusal() is "".
  virtual JobWork trial_work(const JobWork& full, double share) const;

  /// Checks the job against the cluster beyond what every job is checked
  /// for (its GPUs, cores and memory fit): a measured run's GPU type is the
  /// cluster's.
  virtual void check_on(const JobSpec& job, const ClusterCheck& cluster) const;
};

}  // namespace gcsim
