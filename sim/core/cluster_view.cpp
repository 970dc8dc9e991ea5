#include "sim/core/cluster_view.hpp"

namespace gcsim {

NodeId ClusterView::fullest_node_with_free(std::size_t need) const {
  const std::vector<std::size_t>& free = free_gpus_per_node();
  NodeId best = kNoNode;
  for (NodeId n = 0; n < free.size(); ++n)
    if (free[n] >= need && (best == kNoNode || free[n] < free[best])) best = n;
  return best;
}

void ClusterView::visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const {
  for (GpuId g = 0; g < layout().gpu_count(); ++g)
    if (!is_free(g) && free_share(g) > kGpuShareTolerance) visit(g);
}

void ClusterView::visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const {
  for (GpuId g : layout().node(node).gpus)
    if (g >= from && is_free(g) && !visit(g)) return;
}

}  // namespace gcsim
