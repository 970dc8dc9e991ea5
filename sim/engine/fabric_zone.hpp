// fabric_zone.hpp: a SimGrid 3.32 netzone that computes the route between two
// GPUs from where they sit (node, rack) instead of looking it up in a table.
//
// The whole cluster is one zone: every GPU host is a vertex of it, and the
// links (GPU ports, node NICs, rack uplinks) are ordinary split-duplex SimGrid
// links, so SimGrid's solver still decides how flows crossing the same link
// share it. What the zone stores is linear in the cluster: a port and a node
// per GPU, a NIC and a rack per node, an uplink per rack. A route is built
// when SimGrid asks for it:
//   same node:  port(a) up, port(b) down
//   same rack:  port(a) up, NIC(a) up, NIC(b) down, port(b) down
//   two racks:  port(a) up, NIC(a) up, uplink(rack a) up, uplink(rack b) down, NIC(b) down, port(b) down
// and a GPU to itself crosses a loopback link. A node's CPU host (its cores,
// where CPU workers stand) is a vertex too, one without a port: its data
// leaves and enters the node through the NIC alone, and reaches a GPU of its
// own node through that GPU's port alone.
//
// Fill it rack, GPU, node in any order, but give each GPU the node index its
// node will get, then seal it; SimGrid owns the zone (it deletes the root).
//
//   auto* zone = new FabricZone("cluster");   // the root zone
//   zone->add_rack(uplink);
//   zone->add_gpu(host, port, /*node=*/0);
//   zone->add_node(nic, /*rack=*/0);
//   zone->add_cpu(cpu_host, /*node=*/0);      // optional
//   zone->set_loopback(loopback);
//   zone->get_iface()->seal();
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>

namespace gcsim {

class FabricZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  explicit FabricZone(const std::string& name) : NetZoneImpl(name) {}

  /// Returns the rack's index (racks are numbered in the order they are added).
  std::uint32_t add_rack(const simgrid::s4u::SplitDuplexLink* uplink);
  /// Returns the node's index.
  std::uint32_t add_node(const simgrid::s4u::SplitDuplexLink* nic, std::uint32_t rack);
  /// `host` must have been created in this zone.
  void add_gpu(const simgrid::s4u::Host* host, const simgrid::s4u::SplitDuplexLink* port, std::uint32_t node);
  /// A node's CPU host: routed through the node's NIC, with no port of its
  /// own. `host` must have been created in this zone.
  void add_cpu(const simgrid::s4u::Host* host, std::uint32_t node);
  /// The link a GPU's transfers to itself cross.
  void set_loopback(simgrid::s4u::Link* loopback) { loopback_ = hop(loopback); }

  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* route, double* latency) override;

 private:
  // One direction of a link, its kernel side looked up once: Link::get_impl()
  // is a dynamic cast, and a route is built for every transfer.
  struct Hop {
    simgrid::s4u::Link* link = nullptr;
    simgrid::kernel::resource::StandardLinkImpl* impl = nullptr;
  };
  struct Duplex {
    Hop up;
    Hop down;
  };
  static Hop hop(simgrid::s4u::Link* link);
  static Duplex duplex(const simgrid::s4u::SplitDuplexLink* link);
  // The endpoint (a GPU, or a node's CPU host) a vertex stands for.
  std::uint32_t endpoint_of(const simgrid::kernel::routing::NetPoint* point) const;
  void add_endpoint(const simgrid::s4u::Host* host, const Duplex& port, std::uint32_t node);
  void do_seal() override;

  static constexpr std::uint32_t kNoEndpoint = UINT32_MAX;
  std::vector<Duplex> uplinks_;                 // by rack
  std::vector<Duplex> nics_;                    // by node
  std::vector<std::uint32_t> node_rack_;        // by node
  std::vector<Duplex> ports_;                   // by endpoint; no links for a CPU host
  std::vector<std::uint32_t> endpoint_node_;    // by endpoint
  std::vector<std::uint32_t> vertex_endpoint_;  // by vertex (NetPoint::id): its endpoint, or kNoEndpoint
  Hop loopback_;
};

}  // namespace gcsim
