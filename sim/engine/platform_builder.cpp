#include "sim/engine/platform_builder.hpp"

#include <simgrid/s4u.hpp>

namespace gcsim {
namespace sg4 = simgrid::s4u;
using Direction = sg4::LinkInRoute::Direction;

void configure_network_model(const NetworkModelSpec& network) {
  sg4::Engine::set_config("network/model:" + network.model);
  sg4::Engine::set_config("network/latency-factor", network.latency_factor);
  sg4::Engine::set_config("network/bandwidth-factor", network.bandwidth_factor);
  // A TCP window caps a flow at window / (2 * latency); with no window the cap
  // is lifted (SimGrid reads 0 as a zero cap, so a huge window stands for none).
  sg4::Engine::set_config("network/TCP-gamma", network.tcp_window_bytes > 0 ? network.tcp_window_bytes : 1e300);
  sg4::Engine::set_config("network/crosstraffic", network.crosstraffic);
  if (network.model == "CM02") {
    // No RTT-unfairness term: flows sharing a link share it equally.
    sg4::Engine::set_config("network/weight-S", 0.0);
  }
}

SimGridPlatform build_platform(const ClusterLayout& layout) {
  const ClusterSpec& spec = layout.spec();
  SimGridPlatform platform;
  platform.gpu_hosts.resize(layout.gpu_count(), nullptr);

  auto* fabric = sg4::create_full_zone(spec.name.empty() ? "cluster" : spec.name);

  // Rack uplinks: the rack's NIC capacity divided by the oversubscription.
  std::vector<sg4::Link*> uplinks;
  for (RackId r = 0; r < layout.rack_count(); ++r) {
    double capacity = 0;
    for (NodeId n : layout.nodes_of_rack(r)) capacity += layout.group_of_node(n).nic.bandwidth;
    auto* uplink = fabric->create_split_duplex_link("rack" + std::to_string(r) + "-uplink",
                                                    capacity / spec.fabric.oversubscription);
    uplink->set_latency(spec.fabric.uplink_latency);
    uplink->seal();
    uplinks.push_back(uplink);
  }

  std::vector<sg4::NetZone*> node_zones;
  std::vector<simgrid::kernel::routing::NetPoint*> nic_routers;
  std::vector<sg4::Link*> nics;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    const NodeInfo& node = layout.node(n);
    const NodeGroup& group = layout.group_of_node(n);
    const GpuType& type = layout.gpu_type_of(node.gpus.front());
    auto* zone = sg4::create_full_zone(node.name);
    zone->set_parent(fabric);
    auto* router = zone->create_router(node.name + "-nic");

    std::vector<sg4::Host*> hosts;
    std::vector<sg4::Link*> ports;
    for (GpuId g : node.gpus) {
      auto* host = zone->create_host(node.name + "-gpu" + std::to_string(layout.local_index(g)), type.flops);
      auto* port = zone->create_split_duplex_link(host->get_name() + "-port", group.intra.bandwidth);
      port->set_latency(group.intra.latency / 2);
      port->seal();
      host->seal();
      hosts.push_back(host);
      ports.push_back(port);
      platform.gpu_hosts[g] = host;
    }
    for (std::size_t a = 0; a < hosts.size(); ++a) {
      zone->add_route(hosts[a]->get_netpoint(), router, nullptr, nullptr, {{ports[a], Direction::UP}}, true);
      for (std::size_t b = a + 1; b < hosts.size(); ++b)
        zone->add_route(hosts[a]->get_netpoint(), hosts[b]->get_netpoint(), nullptr, nullptr,
                        {{ports[a], Direction::UP}, {ports[b], Direction::DOWN}}, true);
    }
    zone->seal();

    auto* nic = fabric->create_split_duplex_link(node.name + "-nic", group.nic.bandwidth);
    nic->set_latency(group.nic.latency);
    nic->seal();
    node_zones.push_back(zone);
    nic_routers.push_back(router);
    nics.push_back(nic);
  }

  for (NodeId a = 0; a < layout.node_count(); ++a) {
    for (NodeId b = a + 1; b < layout.node_count(); ++b) {
      const RackId ra = layout.rack_of_node(a), rb = layout.rack_of_node(b);
      std::vector<sg4::LinkInRoute> links{{nics[a], Direction::UP}};
      if (ra != rb) {
        links.emplace_back(uplinks[ra], Direction::UP);
        links.emplace_back(uplinks[rb], Direction::DOWN);
      }
      links.emplace_back(nics[b], Direction::DOWN);
      fabric->add_route(node_zones[a]->get_netpoint(), node_zones[b]->get_netpoint(), nic_routers[a], nic_routers[b],
                        links, true);
    }
  }
  fabric->seal();
  return platform;
}

}  // namespace gcsim
