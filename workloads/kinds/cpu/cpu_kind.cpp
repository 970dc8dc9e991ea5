#include "workloads/kinds/cpu/cpu_kind.hpp"

#include <algorithm>
#include <set>

#include "workloads/kinds/job_fields.hpp"

namespace gcsim {
namespace {
const std::set<std::string> kCpuFields = {"seconds", "core_seconds"};
}  // namespace

std::uint32_t CpuKind::read_gpus(const JsonObject& entry) const {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(entry.optional_uint("gpus", 0), 1u << 31));
}

JobWork CpuKind::read(const JsonObject& entry, std::string_view field, const JobSpec& job, const std::string&) const {
  const JsonObject cpu = entry.required_object(field);
  cpu.reject_unknown_fields(kCpuFields);
  if (cpu.has("seconds") == cpu.has("core_seconds"))
    cpu.fail("seconds",
             "exactly one of 'seconds' (its run time) or 'core_seconds' (its work, done by its cpu_cores) "
             "is given");
  const std::uint32_t cores = job.cpu_cores;
  if (cores == 0) entry.fail("cpu_cores", "a CPU job ('cpu') runs on cores it holds: give cpu_cores of at least 1");
  CpuWork work;
  if (cpu.has("seconds")) {
    work.seconds = cpu.required_quantity("seconds", Quantity::kTime, true);
  } else {
    work.seconds = cpu.required_quantity("core_seconds", Quantity::kPlain, true) / cores;
  }
  within_horizon(cpu, cpu.has("seconds") ? "seconds" : "core_seconds", work.seconds, HorizonQuantity::kTime);
  return work;
}

void CpuKind::check(const JsonObject& entry, JobSpec& job) const {
  if (entry.has("gpus") && job.gpus != 0)
    entry.fail("gpus", "a CPU job ('cpu') holds no GPU: leave 'gpus' out or give 0, got " + std::to_string(job.gpus));
  for (const char* field :
       {"gpu_share", "gpu_memory", "gpu_memory_use", "gpu_types", "mixed_gpu_types", "checkpoint", "study"})
    if (entry.has(field))
      entry.fail(field, "a CPU job ('cpu') holds no GPU and starts over when its node fails: leave '" +
                            std::string(field) + "' out");
}

void CpuKind::write(const JobSpec& job, nlohmann::json& entry) const {
  entry["cpu"] = {{"seconds", std::get<CpuWork>(job.work).seconds}};
}

std::shared_ptr<const JobKind> make_cpu_kind() { return std::make_shared<CpuKind>(); }

}  // namespace gcsim
