#include "workloads/kinds/job_kind.hpp"

#include <stdexcept>

#include "sim/core/input_error.hpp"
#include "workloads/kinds/job_fields.hpp"

namespace gcsim {

void ClusterCheck::fail(const std::string& field, const std::string& problem) const {
  throw InputError(file_label_, where_, field, problem);
}

std::string gpu_type_names(const ClusterSpec& cluster) {
  std::string list;
  for (const GpuType& type : cluster.gpu_types) list += (list.empty() ? "" : ", ") + type.name;
  return list.empty() ? "none" : list;
}

std::string ClusterCheck::gpu_type_names() const { return gcsim::gpu_type_names(layout_.spec()); }

std::uint32_t JobKind::read_gpus(const JsonObject& entry) const { return read_gpu_count(entry); }

void JobKind::check(const JsonObject&, JobSpec&) const {}

void JobKind::expand(JobSpec job, const JsonObject&, JobSink& jobs) const { jobs.add(std::move(job)); }

bool JobKind::written(const JobSpec&) const { return true; }

std::string JobKind::trial_refusal() const {
  return "a study's trials train or run for a duration; this kind of job is a job of its own";
}

JobWork JobKind::trial_work(const JobWork&, double) const {
  throw std::logic_error("trial_work called on a kind whose trial_refusal() is not empty");
}

void JobKind::check_on(const JobSpec&, const ClusterCheck&) const {}

}  // namespace gcsim
