// pack_placement.hpp: place a job on as few nodes as possible, then as few
// racks as possible.
//
// Only GPUs with at least the job's requested memory are candidates, and
// only GPUs free now and not already promised in the same plan.
// - If one node can host the whole job, the fullest such node is chosen (best
//   fit: keeps large holes for large jobs); ties go to the lowest node index.
// - Otherwise nodes are taken largest free count first, which needs the fewest
//   nodes; the last node is the smallest one that still covers the remainder.
//   This is done inside each rack, and the rack needing the fewest nodes wins;
//   only when no rack can host the job alone is the whole cluster used.
// GPUs are returned in ring order: node by node, by local index, so a ring
// crosses each node boundary once in each direction. A job that keeps to one
// GPU type and would get several goes on the fastest type that holds it
// alone (policies/kit/one_gpu_type.hpp).
//
// Cost: a job that only GPUs limit (no cores, host memory or GPU types, and
// every GPU type holds its memory) and fits on one node costs O(log nodes +
// its GPUs), from the view's index of nodes by free count; any other job
// O(nodes) over the free counts, plus the GPUs of the nodes chosen (and of
// every node with a free GPU when GPUs are promised in the plan).
//
//   PackPlacement pack;
//   auto gpus = pack.place(job, cluster, taken);  // nullopt if it does not fit now
#pragma once

#include "sim/core/policy.hpp"

namespace gcsim {

class PackPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "pack"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override;
};

}  // namespace gcsim
