#include "sim/core/tentative_cluster.hpp"

namespace gcsim {

TentativeCluster::TentativeCluster(const ClusterView& base)
    : base_(base),
      free_(base.layout().gpu_count()),
      free_per_node_(base.layout().node_count()),
      free_total_(base.free_gpu_count()) {
  for (GpuId g = 0; g < free_.size(); ++g) free_[g] = base.is_free(g);
  for (NodeId n = 0; n < free_per_node_.size(); ++n) free_per_node_[n] = base.free_gpus_on_node(n);
}

void TentativeCluster::set(GpuId gpu, bool free) {
  if (free_[gpu] == free) return;
  free_[gpu] = free;
  const NodeId node = base_.layout().node_of(gpu);
  if (free) {
    ++free_per_node_[node];
    ++free_total_;
  } else {
    --free_per_node_[node];
    --free_total_;
  }
}

void TentativeCluster::free(const std::vector<GpuId>& gpus) {
  for (GpuId g : gpus) set(g, true);
}

void TentativeCluster::take(const std::vector<GpuId>& gpus) {
  for (GpuId g : gpus) set(g, false);
}

}  // namespace gcsim
