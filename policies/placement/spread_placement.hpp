// spread_placement.hpp: place a job's GPUs one per node, over as many nodes
// as possible (`spread`).
//
// For jobs that communicate little (measured-duration jobs, inference,
// hyper-parameter sweeps) the NIC, the host's CPU cores, memory and PCIe
// lanes are shared by every GPU of a node; spreading a job gives each of its
// GPUs the largest share of them. For jobs that allreduce large gradients it
// is the worst choice: every ring edge crosses a NIC.
//
// Definition. Candidates are the nodes whose GPU type has at least the job's
// memory request, and on them the GPUs free now and not already promised in
// the same plan (`taken`), each node's by local index. Nodes are ordered by
// their number of such GPUs, most first (the least loaded nodes: fewest other
// jobs on their NIC), ties by node index. GPUs are then dealt round-robin in
// that order: the first usable GPU of every node, then the second of every
// node that has one, and so on, until the job has all it needs. So a job of
// at most as many GPUs as there are candidate nodes gets one GPU on each of
// the nodes with the most free GPUs, and a larger one is balanced over all of
// them. nullopt when fewer usable GPUs exist than the job needs. A job that
// keeps to one GPU type and would get several is dealt the GPUs of the
// fastest type that holds it alone (policies/kit/one_gpu_type.hpp).
// GPUs are returned in ring order: by node index (so by rack, racks holding
// consecutive nodes), then local index.
//
//   SpreadPlacement spread;
//   auto gpus = spread.place(job, cluster, taken);  // nullopt if it does not fit now
#pragma once

#include "sim/core/policy.hpp"

namespace gcsim {

class SpreadPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "spread"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override;
};

}  // namespace gcsim
