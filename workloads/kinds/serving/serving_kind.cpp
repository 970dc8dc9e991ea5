#include "workloads/kinds/serving/serving_kind.hpp"

#include <memory>

#include "workloads/kinds/job_fields.hpp"
#include "workloads/kinds/serving/serving_deployment.hpp"

namespace gcsim {

std::uint32_t ServingKind::read_gpus(const JsonObject& entry) const {
  return entry.has("gpus") && entry.raw("gpus") == 0 ? 0 : read_gpu_count(entry);
}

JobWork ServingKind::read(const JsonObject& entry, std::string_view, const JobSpec&,
                          const std::string& base_dir) const {
  return ServingWork{std::make_shared<const ServingSpec>(read_serving(entry, base_dir)), 0};
}

void ServingKind::check(const JsonObject& entry, JobSpec& job) const {
  if (job.gpus == 0) {
    if (job.cpu_cores == 0)
      entry.fail("cpu_cores",
                 "a deployment serving from CPUs (\"gpus\": 0) runs each replica on cores it holds: give "
                 "cpu_cores of at least 1");
    for (const char* field : {"gpu_share", "gpu_memory", "gpu_types", "mixed_gpu_types"})
      if (entry.has(field))
        entry.fail(field,
                   "a deployment serving from CPUs (\"gpus\": 0) holds no GPU: leave '" + std::string(field) + "' out");
  }
  if (job.checkpoint.keeps_work())
    entry.fail("checkpoint", "a serving replica keeps no checkpoints: it holds no progress to lose");
  if (!job.gpu_memory_use().empty())
    entry.fail("gpu_memory_use", "a serving replica uses its gpu_memory throughout; give no profile");
}

void ServingKind::expand(JobSpec job, const JsonObject&, JobSink& jobs) const {
  const ServingWork work = std::get<ServingWork>(job.work);
  JobSpec replica = job;
  replica.relations.reset();
  jobs.add(std::move(job));
  for (std::uint32_t k = 1; k < work.deployment->slots(); ++k) {
    replica.id = work.deployment->id + "#" + std::to_string(k + 1);
    replica.work = ServingWork{work.deployment, k};
    jobs.add(replica);
  }
}

bool ServingKind::written(const JobSpec& job) const { return std::get<ServingWork>(job.work).slot == 0; }

void ServingKind::write(const JobSpec& job, nlohmann::json& entry) const {
  entry["serving"] = serving_json(*std::get<ServingWork>(job.work).deployment);
}

std::shared_ptr<const JobKind> make_serving_kind() { return std::make_shared<ServingKind>(); }

}  // namespace gcsim
