// topology_placement.hpp: place a job where its allreduce ring is fastest
// (`topology`).
//
// A data-parallel job's ring allreduce runs at the pace of its slowest ring
// edge, so the placement scores a GPU set by the ring's bottleneck bandwidth:
// the smallest Locality::bottleneck_bandwidth between consecutive GPUs of
// the ring, the last back to the first (infinite for one GPU).
//
// Finding the best of all GPU sets is a combinatorial search; the placement
// instead scores a few candidates that cover the shapes a good ring takes,
// among the GPUs with at least the job's memory request, free now and not
// already promised in the same plan (`taken`):
// - each single node holding enough such GPUs: its first ones by local index;
// - each rack holding enough: the pack placement restricted to that rack
//   (best-fit node, else the fewest nodes of the rack);
// - the whole cluster: the pack placement (which prefers one rack, else the
//   fewest nodes anywhere).
// The winner has the highest ring bottleneck bandwidth; ties go to the fewest
// nodes, then the fewest racks, then the fewest usable GPUs left idle on the
// nodes it touches (best fit: large holes stay whole), then the earliest
// candidate in the order above (lowest node, lowest rack). So among nodes
// that can hold a job alone the one with the fastest interconnect wins
// (NVLink before PCIe), on equal nodes the fullest; a ring that crosses NICs
// wins only where it is faster than every such node. A larger job stays in
// one rack when some rack can hold it (every candidate then does), and among
// racks goes to the one with the faster NICs rather than to one needing fewer
// nodes; it crosses the spine, whose uplinks may be oversubscribed, only when
// no rack can hold it. A job that keeps to one GPU type and would get
// several is placed so among the GPUs of the fastest type that holds it
// alone (policies/kit/one_gpu_type.hpp).
// At most nodes + racks + 1 candidates, each scored with one locality query
// per GPU: a few hundred cached lookups for a 64-node, 512-GPU cluster.
// Limitation: a set that is none of these shapes (two nodes in two racks
// chosen for their fast NICs, say) is never considered.
// GPUs are returned in ring order: by node index, then local index, which is
// also the order the score is computed in.
//
//   TopologyPlacement topology;
//   auto gpus = topology.place(job, cluster, taken);  // nullopt if it does not fit now
#pragma once

#include "sim/core/policy.hpp"

namespace gcsim {

class TopologyPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "topology"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override;
};

/// The smallest bottleneck bandwidth between consecutive GPUs of `ring`, the
/// last back to the first; infinite for fewer than two GPUs.
double ring_bottleneck_bandwidth(const std::vector<GpuId>& ring, const Locality& locality);

}  // namespace gcsim
