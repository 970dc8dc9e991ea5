#include "sim/engine/fabric_zone.hpp"

#include <array>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/asserts.h>

namespace gcsim {
namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;
using simgrid::kernel::routing::Route;

FabricZone::Hop FabricZone::hop(sg4::Link* link) { return {link, link->get_impl()}; }

FabricZone::Duplex FabricZone::duplex(const sg4::SplitDuplexLink* link) {
  return {hop(link->get_link_up()), hop(link->get_link_down())};
}

std::uint32_t FabricZone::add_rack(const sg4::SplitDuplexLink* uplink) {
  uplinks_.push_back(duplex(uplink));
  return static_cast<std::uint32_t>(uplinks_.size() - 1);
}

std::uint32_t FabricZone::add_node(const sg4::SplitDuplexLink* nic, std::uint32_t rack) {
  nics_.push_back(duplex(nic));
  node_rack_.push_back(rack);
  return static_cast<std::uint32_t>(nics_.size() - 1);
}

void FabricZone::add_gpu(const sg4::Host* host, const sg4::SplitDuplexLink* port, std::uint32_t node) {
  add_endpoint(host, duplex(port), node);
}

void FabricZone::add_cpu(const sg4::Host* host, std::uint32_t node) { add_endpoint(host, Duplex{}, node); }

void FabricZone::add_endpoint(const sg4::Host* host, const Duplex& port, std::uint32_t node) {
  const NetPoint* point = host->get_netpoint();
  xbt_assert(point->get_englobing_zone() == this, "a host of zone %s was created in another zone", get_cname());
  if (vertex_endpoint_.size() <= point->id()) vertex_endpoint_.resize(point->id() + 1, kNoEndpoint);
  vertex_endpoint_[point->id()] = static_cast<std::uint32_t>(ports_.size());
  ports_.push_back(port);
  endpoint_node_.push_back(node);
}

void FabricZone::do_seal() {
  for (std::uint32_t node : endpoint_node_)
    xbt_assert(node < nics_.size(), "zone %s: a host belongs to node %u, which has no NIC", get_cname(), node);
  for (std::uint32_t rack : node_rack_)
    xbt_assert(rack < uplinks_.size(), "zone %s: a node belongs to rack %u, which has no uplink", get_cname(), rack);
  xbt_assert(loopback_.link != nullptr, "zone %s: sealed without a loopback link", get_cname());
}

std::uint32_t FabricZone::endpoint_of(const NetPoint* point) const {
  const std::uint32_t endpoint = point->id() < vertex_endpoint_.size() ? vertex_endpoint_[point->id()] : kNoEndpoint;
  xbt_assert(endpoint != kNoEndpoint && point->get_englobing_zone() == this,
             "zone %s routes between its GPUs and CPU hosts only, not %s", get_cname(), point->get_cname());
  return endpoint;
}

void FabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* route, double* latency) {
  if (src == dst) {
    route->link_list_.push_back(loopback_.impl);
    if (latency) *latency += loopback_.link->get_latency();
    return;
  }
  const std::uint32_t a = endpoint_of(src), b = endpoint_of(dst);
  const std::uint32_t node_a = endpoint_node_[a], node_b = endpoint_node_[b];
  // A CPU host has no port: its side of the route starts or ends at the node's switch.
  const bool port_a = ports_[a].up.link != nullptr, port_b = ports_[b].down.link != nullptr;

  std::array<Hop, 6> path{};
  std::size_t hops = 0;
  if (port_a) path[hops++] = ports_[a].up;
  if (node_a != node_b) {
    const std::uint32_t rack_a = node_rack_[node_a], rack_b = node_rack_[node_b];
    path[hops++] = nics_[node_a].up;
    if (rack_a != rack_b) {
      path[hops++] = uplinks_[rack_a].up;
      path[hops++] = uplinks_[rack_b].down;
    }
    path[hops++] = nics_[node_b].down;
  }
  if (port_b) path[hops++] = ports_[b].down;

  route->link_list_.reserve(route->link_list_.size() + hops);
  for (std::size_t i = 0; i < hops; ++i) route->link_list_.push_back(path[i].impl);
  if (latency) {
    // Summed in the order SimGrid's recursive routing gives a fabric zone with
    // one child zone per node: the links between the nodes first, then the
    // source port, then the destination port. Floating-point addition depends
    // on the order, and this one keeps every latency, hence every simulated
    // time, bit-for-bit what such a hierarchy of zones gives.
    const std::size_t first = port_a ? 1 : 0, last = port_b ? hops - 1 : hops;
    for (std::size_t i = first; i < last; ++i) *latency += path[i].link->get_latency();
    if (port_a) *latency += path[0].link->get_latency();
    if (port_b) *latency += path[hops - 1].link->get_latency();
  }
}

}  // namespace gcsim
