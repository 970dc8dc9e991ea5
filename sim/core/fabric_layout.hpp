// fabric_layout.hpp: the links of a cluster's network, numbered, and where
// every GPU and every node's CPU cores sit among them.
//
// Built once from the cluster layout (ClusterLayout::fabric()), in time and
// memory linear in the cluster:
//   ports:        one per GPU, numbered as the GPUs
//   NICs:         node by node, one per node, or one per GPU on a node of
//                 per-GPU NICs (NodeGroup::nic_per_gpu), in GPU order
//   leaves:       rack by rack, one per rack, or on a rail-optimized fabric as
//                 many as the rack's nodes have NICs (leaf r of a rack is rail r)
//   pod uplinks:  one per pod, only when the racks form several pods
// A leaf's uplink carries the bandwidth of the NICs plugged into it over the
// fabric's oversubscription (summed node by node), a pod's uplink its
// leaves' uplinks over pod_oversubscription. fabric_route.hpp says which of
// them a transfer crosses; the locality graph, the SimGrid platform and the
// cost models read the links from here, so they cannot disagree.
//
//   const FabricLayout& fabric = layout.fabric();
//   RouteFigures f = route_figures(fabric.route(fabric.gpu_place(a), fabric.gpu_place(b)), fabric.links());
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_spec.hpp"
#include "sim/core/fabric_route.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

class ClusterLayout;

class FabricLayout {
 public:
  FabricLayout() = default;
  /// Requires a layout whose nodes and racks are numbered (built by ClusterLayout).
  explicit FabricLayout(const ClusterLayout& layout);

  const FabricPlace& gpu_place(GpuId gpu) const { return gpu_places_[gpu]; }
  /// Where a node's CPU cores sit: at its switch, sending through its first NIC.
  const FabricPlace& cpu_place(NodeId node) const { return cpu_places_[node]; }
  FabricRoute route(const FabricPlace& from, const FabricPlace& to) const { return fabric_route(from, to, pxn_); }
  const FabricLinks& links() const { return links_; }
  bool pxn() const { return pxn_; }
  bool rail_optimized() const { return rail_optimized_; }

  std::uint32_t first_nic(NodeId node) const { return node_first_nic_[node]; }
  std::uint32_t nic_count(NodeId node) const { return node_first_nic_[node + 1] - node_first_nic_[node]; }
  /// The leaf a NIC plugs into.
  std::uint32_t leaf_of_nic(std::uint32_t nic) const { return nic_leaf_[nic]; }
  std::uint32_t first_leaf(RackId rack) const { return rack_first_leaf_[rack]; }
  std::uint32_t leaf_count(RackId rack) const { return rack_first_leaf_[rack + 1] - rack_first_leaf_[rack]; }
  std::uint32_t pod_of_rack(RackId rack) const { return rack_pod_[rack]; }
  /// Pods: 1 unless the racks form several, and only then are there pod uplinks.
  std::uint32_t pod_count() const { return pod_count_; }
  /// Whether no traffic can fill the uplinks of `kind` (a leaf's or a pod's):
  /// an uplink of an oversubscription of 1 carries as much as everything
  /// below it can send (a leaf's, its NICs; a pod's, its leaves' uplinks),
  /// and every transfer that crosses it went through those, so it is never
  /// what bounds a transfer, whoever else crosses it. False for ports and NICs.
  bool never_full(FabricLinkKind kind) const {
    return (kind == FabricLinkKind::kLeafUplink && leaf_uplinks_never_full_) ||
           (kind == FabricLinkKind::kPodUplink && pod_uplinks_never_full_);
  }

  /// A GPU's port: the group's intra-node bandwidth and half its intra-node
  /// latency, so a transfer between two GPUs of a node crosses two ports and
  /// pays the intra-node latency once.
  static LinkSpec port_link(const NodeGroup& group) { return LinkSpec{group.intra.bandwidth, group.intra.latency / 2}; }
  /// Each NIC of the group.
  static LinkSpec nic_link(const NodeGroup& group) { return group.nic; }

 private:
  FabricLinks links_;
  std::vector<FabricPlace> gpu_places_;
  std::vector<FabricPlace> cpu_places_;
  std::vector<std::uint32_t> node_first_nic_;   // by node, and one past the last
  std::vector<std::uint32_t> nic_leaf_;         // by NIC
  std::vector<std::uint32_t> rack_first_leaf_;  // by rack, and one past the last
  std::vector<std::uint32_t> rack_pod_;         // by rack
  std::uint32_t pod_count_ = 1;
  bool pxn_ = false;
  bool rail_optimized_ = false;
  bool leaf_uplinks_never_full_ = false;
  bool pod_uplinks_never_full_ = false;
};

}  // namespace gcsim
