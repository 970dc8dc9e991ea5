#include "sim/engine/platform_builder.hpp"

#include <cassert>

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include "sim/engine/fabric_zone.hpp"

namespace gcsim {
namespace sg4 = simgrid::s4u;

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

namespace {

sg4::SplitDuplexLink* create_duplex(FabricZone& zone, const std::string& name, double bandwidth, double latency) {
  auto* duplex = zone.get_iface()->create_split_duplex_link(name, bandwidth);
  duplex->set_latency(latency);
  duplex->seal();
  return duplex;
}

}  // namespace

SimGridPlatform build_platform(const ClusterLayout& layout, bool cpu_hosts) {
  const ClusterSpec& spec = layout.spec();
  SimGridPlatform platform;
  platform.gpu_hosts.resize(layout.gpu_count(), nullptr);

  // The root zone; SimGrid's engine owns it and deletes it with the platform.
  auto* fabric = new FabricZone(spec.name.empty() ? "cluster" : spec.name);

  // Rack uplinks: the rack's NIC capacity divided by the oversubscription.
  for (RackId r = 0; r < layout.rack_count(); ++r) {
    double capacity = 0;
    for (NodeId n : layout.nodes_of_rack(r)) capacity += layout.group_of_node(n).nic.bandwidth;
    fabric->add_rack(create_duplex(*fabric, "rack" + std::to_string(r) + "-uplink",
                                   capacity / spec.fabric.oversubscription, spec.fabric.uplink_latency));
  }

  // A fixed creation order (uplinks, then node by node its GPUs' hosts and
  // ports and its NIC): SimGrid gives a link its solver constraint when it is
  // created and a host when it is sealed, and the solver visits constraints in
  // that order.
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    const NodeInfo& node = layout.node(n);
    const NodeGroup& group = layout.group_of_node(n);
    for (GpuId g : node.gpus) {  // none on a CPU node
      auto* host = fabric->get_iface()->create_host(node.name + "-gpu" + std::to_string(layout.local_index(g)),
                                                    layout.gpu_type_of(g).flops);
      fabric->add_gpu(
          host, create_duplex(*fabric, host->get_name() + "-port", group.intra.bandwidth, group.intra.latency / 2), n);
      host->seal();
      platform.gpu_hosts[g] = host;
    }
    fabric->add_node(create_duplex(*fabric, node.name + "-nic", group.nic.bandwidth, group.nic.latency),
                     layout.rack_of_node(n));
  }

  // Created last: a platform without them builds, and solves, as before. A
  // cluster of no GPU has them always: the scheduler stands on one.
  if (cpu_hosts || layout.gpu_count() == 0) {
    platform.cpu_hosts.resize(layout.node_count(), nullptr);
    for (NodeId n = 0; n < layout.node_count(); ++n) {
      // Every node has a core at least: the cluster reader requires it.
      const double cores = layout.group_of_node(n).cpu_cores;
      assert(cores > 0 && "a node has CPU cores");
      platform.cpu_hosts[n] = fabric->get_iface()->create_host(layout.node(n).name + "-cpu", cores);
      platform.cpu_hosts[n]->seal();
      fabric->add_cpu(platform.cpu_hosts[n], n);
    }
  }

  // A GPU sending to itself: the same loopback SimGrid gives the hosts of a
  // zone routed by table (a shared fat pipe with SimGrid's loopback settings).
  auto* loopback =
      fabric->get_iface()->create_link("loopback", simgrid::config::get_value<double>("network/loopback-bw"));
  loopback->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  loopback->set_latency(simgrid::config::get_value<double>("network/loopback-lat"));
  loopback->seal();
  fabric->set_loopback(loopback);

  fabric->get_iface()->seal();
  return platform;
}

}  // namespace gcsim
