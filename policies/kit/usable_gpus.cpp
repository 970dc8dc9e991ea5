#include "policies/kit/usable_gpus.hpp"

namespace gcsim {

std::vector<std::vector<GpuId>> usable_gpus_by_node(const JobSpec& job, const ClusterView& cluster,
                                                    const std::vector<bool>& taken) {
  const ClusterLayout& layout = cluster.layout();
  auto is_taken = [&](GpuId g) { return g < taken.size() && taken[g]; };
  std::vector<std::vector<GpuId>> usable(layout.node_count());
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    if (cluster.free_gpus_on_node(n) == 0) continue;
    const std::vector<GpuId>& gpus = layout.node(n).gpus;
    if (layout.gpu_type_of(gpus.front()).memory_bytes < job.gpu_memory_bytes) continue;
    const std::size_t room = cluster.host_room(job, n);  // by cores, memory and GPU type
    for (GpuId g : gpus)
      if (usable[n].size() < room && cluster.is_free(g) && !is_taken(g)) usable[n].push_back(g);
  }
  return usable;
}

}  // namespace gcsim
