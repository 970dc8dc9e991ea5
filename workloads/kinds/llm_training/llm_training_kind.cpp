#include "workloads/kinds/llm_training/llm_training_kind.hpp"

#include <algorithm>
#include <cmath>

#include "workloads/kinds/llm_training/llm_phases.hpp"
#include "workloads/kinds/llm_training/phased_fields.hpp"
#include "workloads/kinds/llm_training/power_plan_check.hpp"
#include "workloads/kinds/llm_training/tensor_group_check.hpp"

namespace gcsim {

JobWork LlmTrainingKind::read(const JsonObject& entry, std::string_view field, const JobSpec& job,
                              const std::string&) const {
  if (field == "phased") return read_phased(entry, job.gpus);
  return compile_llm_training(read_llm_training(entry, job.gpus));
}

void LlmTrainingKind::write(const JobSpec& job, nlohmann::json& entry) const {
  entry["phased"] = phased_json(std::get<PhasedWork>(job.work));
}

JobWork LlmTrainingKind::trial_work(const JobWork& full, double share) const {
  PhasedWork work = std::get<PhasedWork>(full);
  work.iterations = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::llround(static_cast<double>(work.iterations) * share)));
  return work;
}

void LlmTrainingKind::check_on(const JobSpec& job, const ClusterCheck& cluster) const {
  const PhasedWork& work = std::get<PhasedWork>(job.work);
  check_tensor_groups(tensor_parallel_degree(work), job.gpu_types, cluster);
  if (work.power_plan) check_power_state_tables(*work.power_plan, job.gpu_types, cluster);
}

std::shared_ptr<const JobKind> make_llm_training_kind() { return std::make_shared<LlmTrainingKind>(); }

}  // namespace gcsim
