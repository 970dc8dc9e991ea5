// usable_gpus.hpp: the GPUs a job may take now, node by node, as placements
// that weigh nodes and racks against each other see them.
//
//   const std::vector<std::vector<GpuId>> usable = usable_gpus_by_node(job, cluster, taken);
//   for (NodeId n = 0; n < usable.size(); ++n) in_rack[layout.rack_of_node(n)] += usable[n].size();
#pragma once

#include <vector>

#include "sim/core/cluster_view.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// Per node (by NodeId), its GPUs `job` may take, in the node's order: free,
/// not `taken` (indexed by GpuId; shorter than the cluster means the rest
/// are not taken), of enough memory, and no more than the node's cores,
/// memory and GPU type leave room for (ClusterView::host_room).
std::vector<std::vector<GpuId>> usable_gpus_by_node(const JobSpec& job, const ClusterView& cluster,
                                                    const std::vector<bool>& taken);

}  // namespace gcsim
