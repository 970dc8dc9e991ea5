// power_plan_check.hpp: a job's stage power plan against the cluster it
// will run on. Each computation's state comes from its GPU type's power-state
// table (sim/core/stage_power_plan.hpp); gcsim refuses a plan on a job that
// may run on a GPU type with none, rather than run it at full power.
//
//   check_power_state_tables(*work.power_plan, job.gpu_types, cluster);  // throws naming the type
#pragma once

#include <string>
#include <vector>

#include "sim/core/phased_work.hpp"
#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

/// Fails (cluster.fail, field "llm_training.stage_power_limits_watts" or
/// "llm_training.stage_power_plan") when a GPU type of a node group the job
/// may run on (of `gpu_types`, any when empty) has no power-state table,
/// its own or bundled.
void check_power_state_tables(const StagePowerPlan& plan, const std::vector<std::string>& gpu_types,
                              const ClusterCheck& cluster);

}  // namespace gcsim
