// tensor_group_check.hpp: a job's TP groups against the cluster it will run
// on. A TP group allreduces several times in every layer of every
// micro-batch, over NVLink inside a node; gcsim refuses a job whose TP
// groups no node it may run on can hold (find_tensor_group_problem: the
// group fits the node and divides its GPUs), rather than let it cross nodes.
//
//   check_tensor_groups(8, job.gpu_types, cluster);  // throws naming llm_training.parallel.tensor
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/kinds/job_kind.hpp"

namespace gcsim {

/// Fails (cluster.fail, field "llm_training.parallel.tensor") when no node
/// group of GPU nodes the job may run on (of `gpu_types`, any when empty)
/// holds whole TP groups of `tensor` GPUs; nothing for tensor = 1.
void check_tensor_groups(std::uint32_t tensor, const std::vector<std::string>& gpu_types, const ClusterCheck& cluster);

}  // namespace gcsim
