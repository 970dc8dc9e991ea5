#include "sim/model/job_links.hpp"

#include <algorithm>
#include <array>
#include <map>

namespace gcsim {

JobLinks job_links(const ClusterLayout& layout, const std::vector<GpuId>& gpus) {
  const FabricLayout& cluster = layout.fabric();
  const FabricLinks& all = cluster.links();
  JobLinks links;
  links.pxn = cluster.pxn();
  // A reached node brings all its ports and NICs (a PXN relay may cross
  // another GPU's), a reached rack all its leaves, in the cluster's order.
  struct Reached {
    std::uint32_t node, first_port, first_nic;
  };
  std::map<NodeId, Reached> nodes;
  std::map<RackId, std::uint32_t> first_leaf;
  std::map<std::uint32_t, std::uint32_t> pods;
  for (GpuId g : gpus) {
    const FabricPlace& place = cluster.gpu_place(g);
    const NodeId node = place.node;
    auto [at, added] = nodes.emplace(
        node, Reached{static_cast<std::uint32_t>(nodes.size()), static_cast<std::uint32_t>(links.fabric.ports.size()),
                      static_cast<std::uint32_t>(links.fabric.nics.size())});
    if (added) {
      for (GpuId k : layout.node(node).gpus) links.fabric.ports.push_back(all.ports[k]);
      for (std::uint32_t k = 0; k < cluster.nic_count(node); ++k)
        links.fabric.nics.push_back(all.nics[cluster.first_nic(node) + k]);
      const RackId rack = layout.rack_of_node(node);
      if (first_leaf.emplace(rack, static_cast<std::uint32_t>(links.fabric.leaf_uplinks.size())).second)
        for (std::uint32_t k = 0; k < cluster.leaf_count(rack); ++k)
          links.fabric.leaf_uplinks.push_back(all.leaf_uplinks[cluster.first_leaf(rack) + k]);
      if (!all.pod_uplinks.empty() &&
          pods.emplace(place.pod, static_cast<std::uint32_t>(links.fabric.pod_uplinks.size())).second)
        links.fabric.pod_uplinks.push_back(all.pod_uplinks[place.pod]);
    }
    const Reached& reached = at->second;
    FabricPlace local = place;
    local.node = reached.node;
    local.first_port = reached.first_port;
    local.port = reached.first_port + (place.port - place.first_port);
    local.first_nic = reached.first_nic;
    local.nic = reached.first_nic + (place.nic - place.first_nic);
    local.first_leaf = first_leaf.at(layout.rack_of_node(node));
    local.pod = all.pod_uplinks.empty() ? 0 : pods.at(place.pod);
    links.node_of_gpu.push_back(local.node);
    links.places.push_back(local);
  }
  return links;
}

JobLinks packed_job_links(std::uint32_t gpus, const PackedFabric& fabric) {
  JobLinks links;
  links.pxn = fabric.pxn;
  const std::uint32_t per_node = std::max<std::uint32_t>(1, fabric.gpus_per_node);
  const std::uint32_t per_rack = std::max<std::uint32_t>(1, fabric.nodes_per_rack);
  const std::uint32_t nics = fabric.nic_per_gpu ? per_node : 1;
  const bool on_rails = fabric.rail_optimized && fabric.nic_per_gpu;
  const std::uint32_t leaves = on_rails ? per_node : 1;
  const std::uint32_t nodes = gpus == 0 ? 0 : (gpus - 1) / per_node + 1;
  const std::uint32_t racks = nodes == 0 ? 0 : (nodes - 1) / per_rack + 1;
  const std::uint32_t pods = fabric.racks_per_pod == 0 || racks == 0 ? 1 : (racks - 1) / fabric.racks_per_pod + 1;
  links.fabric.ports.assign(static_cast<std::size_t>(nodes) * per_node, fabric.port);
  links.fabric.nics.assign(static_cast<std::size_t>(nodes) * nics, fabric.nic);
  links.fabric.leaf_uplinks.assign(static_cast<std::size_t>(racks) * leaves, fabric.leaf_uplink);
  if (pods > 1) links.fabric.pod_uplinks.assign(pods, fabric.pod_uplink);
  for (std::uint32_t g = 0; g < gpus; ++g) {
    const std::uint32_t node = g / per_node, k = g % per_node, rack = node / per_rack;
    FabricPlace place;
    place.node = node;
    place.first_port = node * per_node;
    place.port = g;
    place.first_nic = node * nics;
    place.own_nic = fabric.nic_per_gpu;
    place.nic = place.first_nic + (fabric.nic_per_gpu ? k : 0);
    place.rails = on_rails ? per_node : 0;
    place.rail = on_rails ? k : 0;
    place.first_leaf = rack * leaves;
    place.pod = fabric.racks_per_pod == 0 ? 0 : rack / fabric.racks_per_pod;
    links.node_of_gpu.push_back(node);
    links.places.push_back(place);
  }
  return links;
}

JobLinks packed_job_links(std::uint32_t gpus, std::uint32_t gpus_per_node, std::uint32_t nodes_per_rack,
                          double port_bandwidth, double nic_bandwidth, double uplink_bandwidth) {
  PackedFabric fabric;
  fabric.gpus_per_node = gpus_per_node;
  fabric.nodes_per_rack = nodes_per_rack;
  fabric.port.bandwidth = port_bandwidth;
  fabric.nic.bandwidth = nic_bandwidth;
  fabric.leaf_uplink.bandwidth = uplink_bandwidth;
  return packed_job_links(gpus, fabric);
}

namespace {

constexpr std::array<FabricLinkKind, 4> kKinds = {FabricLinkKind::kPort, FabricLinkKind::kNic,
                                                  FabricLinkKind::kLeafUplink, FabricLinkKind::kPodUplink};

// Transfers crossing each link, per kind and direction (up, then down).
struct LinkLoads {
  std::array<std::vector<double>, 4> up, down;

  LinkLoads(const JobLinks& links, const std::vector<Transfer>& transfers) : LinkLoads(links) {
    add(links, transfers, 1.0);
  }
  explicit LinkLoads(const JobLinks& links) {
    for (FabricLinkKind kind : kKinds) {
      up[static_cast<std::size_t>(kind)].assign(links.fabric.of(kind).size(), 0.0);
      down[static_cast<std::size_t>(kind)].assign(links.fabric.of(kind).size(), 0.0);
    }
  }

  // Each of `transfers` carries `size` (1: a count of transfers).
  void add(const JobLinks& links, const std::vector<Transfer>& transfers, double size) {
    for (const Transfer& t : transfers) {
      if (t.from == t.to) continue;  // a local copy
      for (const FabricHop& hop : links.route(t.from, t.to))
        (hop.up ? up : down)[static_cast<std::size_t>(hop.kind)][hop.index] += size;
    }
  }

  // Calls visit(load, bandwidth) for every link some transfer crosses.
  template <class Visit>
  void each_loaded(const JobLinks& links, Visit visit) const {
    for (FabricLinkKind kind : kKinds) {
      const std::vector<LinkSpec>& specs = links.fabric.of(kind);
      for (const auto* load : {&up[static_cast<std::size_t>(kind)], &down[static_cast<std::size_t>(kind)]})
        for (std::size_t i = 0; i < load->size(); ++i)
          if ((*load)[i] > 0) visit((*load)[i], specs[i].bandwidth);
    }
  }
};

}  // namespace

double busiest_link_seconds_per_byte(const JobLinks& links, const std::vector<Transfer>& transfers) {
  double slowest = 0;
  LinkLoads(links, transfers).each_loaded(links, [&slowest](double load, double bandwidth) {
    slowest = std::max(slowest, load / bandwidth);
  });
  return slowest;
}

double busiest_link_seconds(const JobLinks& links, const std::vector<const std::vector<Transfer>*>& sets,
                            const std::vector<double>& bytes) {
  LinkLoads loads(links);
  for (std::size_t set = 0; set < sets.size(); ++set) loads.add(links, *sets[set], bytes[set]);
  double slowest = 0;
  loads.each_loaded(links,
                    [&slowest](double load, double bandwidth) { slowest = std::max(slowest, load / bandwidth); });
  return slowest;
}

double shared_bandwidth(const JobLinks& links, const std::vector<Transfer>& transfers) {
  double narrowest = kNever;
  LinkLoads(links, transfers).each_loaded(links, [&narrowest](double load, double bandwidth) {
    narrowest = std::min(narrowest, bandwidth / load);
  });
  return narrowest;
}

std::vector<Transfer> ring_transfers(std::uint32_t gpus) {
  std::vector<Transfer> ring;
  if (gpus < 2) return ring;
  ring.reserve(gpus);
  for (std::uint32_t g = 0; g < gpus; ++g) ring.push_back({g, (g + 1) % gpus});
  return ring;
}

}  // namespace gcsim
