// network_placement.hpp: place a large model's training so that the ranks
// that talk most share the cheapest links (`network`).
//
// A job's ranks are its GPUs in the order a placement returns them
// (sim/core/phased_work.hpp); the placement chooses both the GPUs and which
// rank goes where. For a job of phased work (an llm_training job: TP
// groups, PP chains, DP rings, EP all-to-alls as RankGroups {size, stride})
// it reads the groups from the work itself, so whatever the degrees and the
// rank order ("tp-dp-pp" or "tp-pp-dp"):
// 1. Units. The ranks go in units of u consecutive ranks, each unit on one
//    node: u is the largest group of consecutive ranks (stride 1) of any
//    exchange that divides the job's GPUs and every node's GPU count (the
//    TP group; 1 without one). A node holds as many units as it has usable
//    GPUs (free, with the job's memory, not taken, room for its cores and
//    memory) over u; a unit takes the node's next u of them by local index,
//    so on whole nodes rank r sits on the GPU of local index r mod (node
//    size), on that index's rail.
// 2. The heavy groups. Among the exchanges whose groups span units (stride
//    a multiple of u), the one of the most bytes an iteration (bytes x
//    messages x transfers; ties: the smaller stride) names the groups that
//    are kept under one leaf: with a rank order "tp-dp-pp" and gradients
//    larger than the activations, the DP rings. Its groups of units are
//    listed one after the other, each unit's other digits in order (so
//    consecutive groups are neighbours in the other dimensions, the PP
//    chains).
// 3. Where. If one node holds every unit: the node with the fewest usable
//    units that does (best fit; ties: lowest index). Else if one rack (a
//    leaf, or on a rail-optimized fabric a rail group: its rails' leaves)
//    holds every unit: the rack with the fewest usable units that does.
//    Else the racks in order of how many whole heavy groups they hold, then
//    of usable units, then index; each heavy group goes whole to the first
//    rack in that order with room for it, and a group no rack has room for
//    is split over the racks in that order. Inside a rack the units fill
//    its nodes in order of usable units (most first; ties: lowest index),
//    so a group takes as few nodes as it can.
// So a DP ring crosses only NICs and its rail's leaf where pack would send
// it over the spine, and a TP group never leaves its node. Jobs of other
// work (or of one GPU, or a fraction of one) are placed as `topology` places
// them (topology_placement.hpp). A job that keeps to one GPU type is placed
// on one (policies/kit/one_gpu_type.hpp). Deterministic: every tie is
// broken by index.
// Cost: O(GPUs + exchanges + racks log racks) per placement.
// Limitations: racks are chosen by their room, not by their pod (on a
// fabric of several pods, a job that needs several racks may cross the pod
// uplinks where another choice of racks would not); only the heaviest
// exchange's groups are kept whole; a unit on a partly used node takes the
// GPUs it finds, whatever their rails.
//
//   NetworkPlacement network;
//   auto gpus = network.place(job, cluster, taken);  // ranks in order; nullopt if it does not fit now
#pragma once

#include "sim/core/policy.hpp"

namespace gcsim {

class NetworkPlacement final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "network"; }
  std::optional<std::vector<GpuId>> place(const JobSpec& job, const ClusterView& cluster,
                                          const std::vector<bool>& taken) const override;
};

/// The groups the placement keeps together (steps 1 and 2 of the file
/// comment), for a job of `ranks` ranks of `work` on nodes whose GPU counts
/// are all multiples of `node_gpus_divisor`.
struct RankUnits {
  std::uint32_t unit = 1;  // consecutive ranks on one node
  RankGroups heavy{1, 1};  // the heavy groups, in units: {size, stride}
  double heavy_bytes = 0;  // their bytes an iteration, all groups together
};
RankUnits rank_units(const PhasedWork& work, std::uint32_t ranks, std::uint32_t node_gpus_divisor);

}  // namespace gcsim
