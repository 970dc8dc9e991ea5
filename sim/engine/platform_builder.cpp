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
    // No term per link bandwidth in a flow's weight. CM02 still weighs each
    // flow by its route's latency: flows of equal latency share a link
    // equally, a flow of twice the latency gets half the share.
    sg4::Engine::set_config("network/weight-S", 0.0);
  }
}

namespace {

sg4::SplitDuplexLink* create_duplex(FabricZone& zone, const std::string& name, const LinkSpec& spec) {
  auto* duplex = zone.get_iface()->create_split_duplex_link(name, spec.bandwidth);
  duplex->set_latency(spec.latency);
  duplex->seal();
  return duplex;
}

}  // namespace

SimGridPlatform build_platform(const ClusterLayout& layout, bool cpu_hosts) {
  const ClusterSpec& spec = layout.spec();
  const FabricLayout& fabric = layout.fabric();
  const FabricLinks& links = fabric.links();
  SimGridPlatform platform;
  platform.gpu_hosts.resize(layout.gpu_count(), nullptr);

  // The root zone; SimGrid's engine owns it and deletes it with the platform.
  auto* zone = new FabricZone(spec.name.empty() ? "cluster" : spec.name, fabric.pxn());
  const auto add = [zone](FabricLinkKind kind, const std::string& name, const LinkSpec& link) {
    zone->add_link(kind, create_duplex(*zone, name, link));
  };

  // Leaf uplinks, rack by rack (a leaf per rail on a rail-optimized fabric),
  // then the pods' uplinks to the core.
  for (RackId r = 0; r < layout.rack_count(); ++r) {
    const std::string rack = "rack" + std::to_string(r);
    for (std::uint32_t k = 0; k < fabric.leaf_count(r); ++k)
      add(FabricLinkKind::kLeafUplink,
          fabric.rail_optimized() ? rack + "-rail" + std::to_string(k) + "-uplink" : rack + "-uplink",
          links.leaf_uplinks[fabric.first_leaf(r) + k]);
  }
  for (std::uint32_t p = 0; p < links.pod_uplinks.size(); ++p)
    add(FabricLinkKind::kPodUplink, "pod" + std::to_string(p) + "-uplink", links.pod_uplinks[p]);

  // A fixed creation order (uplinks, then node by node its GPUs' hosts and
  // ports and its NICs): SimGrid gives a link its solver constraint when it is
  // created and a host when it is sealed, and the solver visits constraints in
  // that order.
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    const NodeInfo& node = layout.node(n);
    for (GpuId g : node.gpus) {  // none on a CPU node
      const std::string name = node.name + "-gpu" + std::to_string(layout.local_index(g));
      auto* host = zone->get_iface()->create_host(name, layout.gpu_type_of(g).flops);
      add(FabricLinkKind::kPort, name + "-port", links.ports[g]);
      zone->add_host(host, fabric.gpu_place(g));
      host->seal();
      platform.gpu_hosts[g] = host;
    }
    const std::uint32_t nics = fabric.nic_count(n);
    for (std::uint32_t k = 0; k < nics; ++k)
      add(FabricLinkKind::kNic, nics == 1 ? node.name + "-nic" : node.name + "-gpu" + std::to_string(k) + "-nic",
          links.nics[fabric.first_nic(n) + k]);
  }

  // Created last: a platform without them builds, and solves, as before. A
  // cluster of no GPU has them always: the scheduler stands on one.
  if (cpu_hosts || layout.gpu_count() == 0) {
    platform.cpu_hosts.resize(layout.node_count(), nullptr);
    for (NodeId n = 0; n < layout.node_count(); ++n) {
      // Every node has a core at least: the cluster reader requires it.
      const double cores = layout.group_of_node(n).cpu_cores;
      assert(cores > 0 && "a node has CPU cores");
      platform.cpu_hosts[n] = zone->get_iface()->create_host(layout.node(n).name + "-cpu", cores);
      platform.cpu_hosts[n]->seal();
      zone->add_host(platform.cpu_hosts[n], fabric.cpu_place(n));
    }
  }

  // A GPU sending to itself: the same loopback SimGrid gives the hosts of a
  // zone routed by table (a shared fat pipe with SimGrid's loopback settings).
  auto* loopback =
      zone->get_iface()->create_link("loopback", simgrid::config::get_value<double>("network/loopback-bw"));
  loopback->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  loopback->set_latency(simgrid::config::get_value<double>("network/loopback-lat"));
  loopback->seal();
  zone->set_loopback(loopback);

  zone->get_iface()->seal();
  return platform;
}

}  // namespace gcsim
