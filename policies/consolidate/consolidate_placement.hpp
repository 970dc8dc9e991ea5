// consolidate_placement.hpp: an energy-aware placement that keeps jobs on
// the nodes already in use, so that the others stay idle long enough to
// sleep (a node group's sleep_after, docs/cluster-format.md).
//
// Only GPUs a job may take now are candidates (free, not promised in the
// plan, of enough memory, within the nodes' cores and memory:
// policies/kit/usable_gpus.hpp). Nodes are tried in this order: those some
// job holds a GPU of, fewest usable GPUs first (best fit), then idle nodes
// by index, lowest first, so that the same few nodes take the work and the
// highest-numbered ones idle longest.
// - If one node can host the whole job, the first such node in that order.
// - Otherwise nodes in that order, each as far as it goes, until the job is
//   covered (a job on one node only, `single_node`, waits instead): unlike
//   pack, which takes the emptiest nodes first to use the fewest, it fills
//   the nodes in use before waking an idle one, at the cost of a ring that
//   may cross more nodes.
// GPUs come in ring order: node by node (by index), by local index. A job
// asking a share of a GPU is placed as pack places it (its best fit already
// fills the nodes in use). A job that keeps to one GPU type gets one
// (policies/kit/one_gpu_type.hpp). It does not know which nodes sleep now.
//
// Cost: O(nodes log nodes) a job, plus the GPUs of the nodes with usable ones.
//
//   ConsolidatePlacement consolidate;
//   auto gpus = consolidate.place(job, cluster, taken);  // nullopt if it does not fit now
#pragma once

#include "sim/core/policy.hpp"

namespace gcsim {

class ConsolidatePlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "consolidate"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override;
};

}  // namespace gcsim
