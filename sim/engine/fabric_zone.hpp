// fabric_zone.hpp: a SimGrid 3.32 netzone that computes the route between two
// hosts from where they sit on the fabric instead of looking it up in a table.
//
// The whole cluster is one zone: every GPU host (and every node's CPU host)
// is a vertex of it, and the links (GPU ports, NICs, leaf uplinks, pod
// uplinks; sim/core/fabric_layout.hpp numbers them) are ordinary split-duplex
// SimGrid links, so SimGrid's solver still decides how flows crossing the
// same link share it. What the zone stores is linear in the cluster: each
// link once, and each host's place (FabricPlace). A route is built when
// SimGrid asks for it, by the one routing rule of sim/core/fabric_route.hpp:
//   same node:   port(a) up, port(b) down
//   same leaf:   [port(a) up], NIC(a) up, NIC(b) down, [port(b) down]
//   two leaves:  ... NIC(a) up, leaf uplink(a) up, [pod uplink(a) up, pod
//                uplink(b) down,] leaf uplink(b) down, NIC(b) down ...
// (a port is crossed to reach a NIC the node's GPUs share, not a GPU's own
// NIC), and with PXN a cross-rail transfer relays through the sender node's
// GPU on the receiver's rail. A host to itself crosses a loopback link. The
// latency is summed in route_latency()'s order.
//
// Add the links of each kind in their numbering's order and the hosts with
// their places in any order, then seal; SimGrid owns the zone (it deletes
// the root).
//
//   auto* zone = new FabricZone("cluster", /*pxn=*/false);   // the root zone
//   zone->add_link(FabricLinkKind::kLeafUplink, uplink);     // leaf 0
//   zone->add_link(FabricLinkKind::kPort, port);             // GPU 0's port
//   zone->add_host(host, fabric.gpu_place(0));
//   zone->add_link(FabricLinkKind::kNic, nic);               // NIC 0
//   zone->set_loopback(loopback);
//   zone->get_iface()->seal();
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>

#include "sim/core/fabric_route.hpp"

namespace gcsim {

class FabricZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  FabricZone(const std::string& name, bool pxn) : NetZoneImpl(name), pxn_(pxn) {}

  /// The next link of `kind` (links of a kind are numbered in the order added).
  void add_link(FabricLinkKind kind, const simgrid::s4u::SplitDuplexLink* link);
  /// A GPU's host or a node's CPU host (one without a port), sitting at
  /// `place`. `host` must have been created in this zone.
  void add_host(const simgrid::s4u::Host* host, const FabricPlace& place);
  /// The link a host's transfers to itself cross.
  void set_loopback(simgrid::s4u::Link* loopback) { loopback_ = hop(loopback); }

  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* route, double* latency) override;

 private:
  // One direction of a link, its kernel side looked up once: Link::get_impl()
  // is a dynamic cast, and a route is built for every transfer.
  struct Hop {
    simgrid::s4u::Link* link = nullptr;
    simgrid::kernel::resource::StandardLinkImpl* impl = nullptr;
    double latency = 0;  // the link's, kept: every transfer's route sums them
  };
  struct Duplex {
    Hop up;
    Hop down;
  };
  static Hop hop(simgrid::s4u::Link* link);
  const Hop& direction(const FabricHop& hop) const {  // inline: every hop of every flow's route
    const Duplex& link = links_[static_cast<std::size_t>(hop.kind)][hop.index];
    return hop.up ? link.up : link.down;
  }
  // The host a vertex stands for.
  const FabricPlace& place_of(const simgrid::kernel::routing::NetPoint* point) const;
  void do_seal() override;

  static constexpr std::uint32_t kNoHost = UINT32_MAX;
  bool pxn_;
  std::array<std::vector<Duplex>, 4> links_;  // by FabricLinkKind, then index
  std::vector<FabricPlace> places_;           // by host
  std::vector<std::uint32_t> vertex_host_;    // by vertex (NetPoint::id): its host, or kNoHost
  Hop loopback_;
};

}  // namespace gcsim
