#include "sim/core/cluster_view.hpp"

namespace gcsim {

NodeId ClusterView::fullest_node_with_free(std::size_t need) const {
  const std::vector<std::size_t>& free = free_gpus_per_node();
  NodeId best = kNoNode;
  for (NodeId n = 0; n < free.size(); ++n)
    if (free[n] >= need && (best == kNoNode || free[n] < free[best])) best = n;
  return best;
}

}  // namespace gcsim
