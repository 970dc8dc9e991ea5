#include "workloads/kinds/llm_training/tensor_group_check.hpp"

#include <algorithm>

#include "sim/model/llm_iteration.hpp"

namespace gcsim {

void check_tensor_groups(std::uint32_t tensor, const std::vector<std::string>& gpu_types, const ClusterCheck& cluster) {
  if (tensor <= 1) return;
  std::string nodes;  // "'dgx' nodes of 8 GPUs, ..."
  for (const NodeGroup& group : cluster.layout().spec().node_groups) {
    const bool allowed =
        gpu_types.empty() || std::find(gpu_types.begin(), gpu_types.end(), group.gpu_type) != gpu_types.end();
    if (group.count == 0 || group.gpus_per_node == 0 || !allowed) continue;
    if (!find_tensor_group_problem(tensor, group.gpus_per_node)) return;
    nodes += (nodes.empty() ? "" : ", ") +
             ("'" + group.name + "' nodes of " + std::to_string(group.gpus_per_node) + " GPUs");
  }
  cluster.fail("llm_training.parallel.tensor",
               std::to_string(tensor) +
                   " GPUs a TP group: it must stay inside one node, its size dividing the "
                   "node's GPUs, and no node of " +
                   cluster.cluster_name() + " the job may run on holds one (" +
                   (nodes.empty() ? std::string("it may run on none") : nodes) + ")");
}

}  // namespace gcsim
