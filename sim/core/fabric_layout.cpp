#include "sim/core/fabric_layout.hpp"

#include <algorithm>
#include <cassert>

#include "sim/core/cluster_layout.hpp"

namespace gcsim {
namespace {

// Whether the group's GPUs have NICs of their own (a CPU node has its one NIC).
bool own_nics(const NodeGroup& group) { return group.nic_per_gpu && group.gpus_per_node > 0; }

// The node's NICs: one per GPU on a node of per-GPU NICs, else one.
std::uint32_t nics_of(const NodeGroup& group) { return own_nics(group) ? group.gpus_per_node : 1; }

}  // namespace

FabricLayout::FabricLayout(const ClusterLayout& layout)
    : pxn_(layout.spec().fabric.pxn), rail_optimized_(layout.spec().fabric.rail_optimized) {
  const FabricSpec& fabric = layout.spec().fabric;
  assert(fabric.oversubscription >= 1.0 && fabric.pod_oversubscription >= 1.0 &&
         "a validated spec has oversubscriptions >= 1");

  // Leaves, rack by rack: one, or on a rail-optimized fabric one per rail of the rack's nodes.
  rack_first_leaf_.reserve(layout.rack_count() + 1);
  rack_pod_.reserve(layout.rack_count());
  std::uint32_t leaves = 0;
  for (RackId rack = 0; rack < layout.rack_count(); ++rack) {
    std::uint32_t rails = 1;
    if (rail_optimized_)
      for (NodeId node : layout.nodes_of_rack(rack)) rails = std::max(rails, nics_of(layout.group_of_node(node)));
    rack_first_leaf_.push_back(leaves);
    leaves += rails;
    rack_pod_.push_back(fabric.racks_per_pod == 0 ? 0 : rack / fabric.racks_per_pod);
  }
  rack_first_leaf_.push_back(leaves);
  pod_count_ = rack_pod_.empty() ? 1 : rack_pod_.back() + 1;

  // Ports, NICs and what each leaf's NICs carry, node by node.
  std::vector<double> leaf_downlink(leaves, 0.0);
  links_.ports.reserve(layout.gpu_count());
  node_first_nic_.reserve(layout.node_count() + 1);
  gpu_places_.reserve(layout.gpu_count());
  cpu_places_.reserve(layout.node_count());
  for (NodeId node = 0; node < layout.node_count(); ++node) {
    const NodeGroup& group = layout.group_of_node(node);
    const NodeInfo& info = layout.node(node);
    const std::uint32_t nics = nics_of(group);
    const bool own = own_nics(group);
    const bool on_rails = rail_optimized_ && own;

    FabricPlace place;
    place.node = node;
    place.first_leaf = rack_first_leaf_[info.rack];
    place.pod = rack_pod_[info.rack];
    place.first_port = info.gpus.empty() ? 0 : info.gpus.front();
    place.first_nic = static_cast<std::uint32_t>(links_.nics.size());
    place.rails = on_rails ? nics : 0;
    place.nic = place.first_nic;
    cpu_places_.push_back(place);  // no port; out through the first NIC, on the first rail

    node_first_nic_.push_back(place.first_nic);
    for (std::uint32_t k = 0; k < nics; ++k) {
      const std::uint32_t leaf = place.first_leaf + (on_rails ? k : 0);
      nic_leaf_.push_back(leaf);
      links_.nics.push_back(nic_link(group));
      leaf_downlink[leaf] += group.nic.bandwidth;
    }
    for (std::uint32_t k = 0; k < info.gpus.size(); ++k) {
      links_.ports.push_back(port_link(group));
      FabricPlace gpu = place;
      gpu.port = info.gpus[k];
      gpu.own_nic = own;
      gpu.nic = place.first_nic + (own ? k : 0);
      gpu.rail = on_rails ? k : 0;
      gpu_places_.push_back(gpu);
    }
  }
  node_first_nic_.push_back(static_cast<std::uint32_t>(links_.nics.size()));

  leaf_uplinks_never_full_ = fabric.oversubscription == 1.0;
  pod_uplinks_never_full_ = fabric.pod_oversubscription == 1.0;
  links_.leaf_uplinks.reserve(leaves);
  for (std::uint32_t leaf = 0; leaf < leaves; ++leaf)
    links_.leaf_uplinks.push_back(LinkSpec{leaf_downlink[leaf] / fabric.oversubscription, fabric.uplink_latency});
  if (pod_count_ > 1) {
    std::vector<double> pod_downlink(pod_count_, 0.0);
    for (RackId rack = 0; rack < layout.rack_count(); ++rack)
      for (std::uint32_t leaf = rack_first_leaf_[rack]; leaf < rack_first_leaf_[rack + 1]; ++leaf)
        pod_downlink[rack_pod_[rack]] += links_.leaf_uplinks[leaf].bandwidth;
    for (double downlink : pod_downlink)
      links_.pod_uplinks.push_back(LinkSpec{downlink / fabric.pod_oversubscription, fabric.pod_uplink_latency});
  }
}

}  // namespace gcsim
