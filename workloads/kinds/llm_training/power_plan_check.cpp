#include "workloads/kinds/llm_training/power_plan_check.hpp"

#include <algorithm>

#include "sim/core/gpu_power_states.hpp"

namespace gcsim {

void check_power_state_tables(const StagePowerPlan& plan, const std::vector<std::string>& gpu_types,
                              const ClusterCheck& cluster) {
  const ClusterSpec& spec = cluster.layout().spec();
  for (const NodeGroup& group : spec.node_groups) {
    const bool allowed =
        gpu_types.empty() || std::find(gpu_types.begin(), gpu_types.end(), group.gpu_type) != gpu_types.end();
    if (group.count == 0 || group.gpus_per_node == 0 || !allowed) continue;
    const auto type = std::find_if(spec.gpu_types.begin(), spec.gpu_types.end(),
                                   [&](const GpuType& t) { return t.name == group.gpu_type; });
    if (type == spec.gpu_types.end() || !power_states_of(*type).empty()) continue;
    cluster.fail(plan.limits_watts.empty() ? "llm_training.stage_power_plan" : "llm_training.stage_power_limits_watts",
                 "GPU type '" + group.gpu_type + "' of " + cluster.cluster_name() +
                     " has no power-state table (power_states) to pick each stage's state from; give one, or "
                     "restrict the job's gpu_type");
  }
}

}  // namespace gcsim
