#include "policies/capacity/cluster_after_preemptions.hpp"

namespace gcsim {

ClusterAfterPreemptions::ClusterAfterPreemptions(const ClusterView& base)
    : base_(base),
      freed_(base.layout().gpu_count(), false),
      free_per_node_(base.layout().node_count()),
      free_total_(base.free_gpu_count()) {
  for (NodeId n = 0; n < free_per_node_.size(); ++n) free_per_node_[n] = base.free_gpus_on_node(n);
}

void ClusterAfterPreemptions::release(const std::vector<GpuId>& gpus) {
  for (GpuId g : gpus) {
    if (freed_[g] || base_.is_free(g)) continue;
    freed_[g] = true;
    ++free_per_node_[base_.layout().node_of(g)];
    ++free_total_;
  }
}

}  // namespace gcsim
