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
  const NetPoint* point = host->get_netpoint();
  xbt_assert(point->get_englobing_zone() == this, "a GPU host of zone %s was created in another zone", get_cname());
  if (vertex_gpu_.size() <= point->id()) vertex_gpu_.resize(point->id() + 1, kNoGpu);
  vertex_gpu_[point->id()] = static_cast<std::uint32_t>(ports_.size());
  ports_.push_back(duplex(port));
  gpu_node_.push_back(node);
}

void FabricZone::do_seal() {
  for (std::uint32_t node : gpu_node_)
    xbt_assert(node < nics_.size(), "zone %s: a GPU belongs to node %u, which has no NIC", get_cname(), node);
  for (std::uint32_t rack : node_rack_)
    xbt_assert(rack < uplinks_.size(), "zone %s: a node belongs to rack %u, which has no uplink", get_cname(), rack);
  xbt_assert(loopback_.link != nullptr, "zone %s: sealed without a loopback link", get_cname());
}

std::uint32_t FabricZone::gpu_of(const NetPoint* point) const {
  const std::uint32_t gpu = point->id() < vertex_gpu_.size() ? vertex_gpu_[point->id()] : kNoGpu;
  xbt_assert(gpu != kNoGpu && point->get_englobing_zone() == this, "zone %s routes between its GPUs only, not %s",
             get_cname(), point->get_cname());
  return gpu;
}

void FabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* route, double* latency) {
  if (src == dst) {
    route->link_list_.push_back(loopback_.impl);
    if (latency) *latency += loopback_.link->get_latency();
    return;
  }
  const std::uint32_t a = gpu_of(src), b = gpu_of(dst);
  const std::uint32_t node_a = gpu_node_[a], node_b = gpu_node_[b];

  std::array<Hop, 6> path{};
  std::size_t hops = 0;
  path[hops++] = ports_[a].up;
  if (node_a != node_b) {
    const std::uint32_t rack_a = node_rack_[node_a], rack_b = node_rack_[node_b];
    path[hops++] = nics_[node_a].up;
    if (rack_a != rack_b) {
      path[hops++] = uplinks_[rack_a].up;
      path[hops++] = uplinks_[rack_b].down;
    }
    path[hops++] = nics_[node_b].down;
  }
  path[hops++] = ports_[b].down;

  route->link_list_.reserve(route->link_list_.size() + hops);
  for (std::size_t i = 0; i < hops; ++i) route->link_list_.push_back(path[i].impl);
  if (latency) {
    // Summed in the order SimGrid's recursive routing gives a fabric zone with
    // one child zone per node: the links between the nodes first, then the
    // source port, then the destination port. Floating-point addition depends
    // on the order, and this one keeps every latency, hence every simulated
    // time, bit-for-bit what such a hierarchy of zones gives.
    for (std::size_t i = 1; i + 1 < hops; ++i) *latency += path[i].link->get_latency();
    *latency += path[0].link->get_latency();
    *latency += path[hops - 1].link->get_latency();
  }
}

}  // namespace gcsim
