#include "sim/engine/fabric_zone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/asserts.h>

namespace gcsim {
namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;
using simgrid::kernel::routing::Route;

FabricZone::Hop FabricZone::hop(sg4::Link* link) { return {link, link->get_impl(), link->get_latency()}; }

void FabricZone::add_link(FabricLinkKind kind, const sg4::SplitDuplexLink* link) {
  links_[static_cast<std::size_t>(kind)].push_back({hop(link->get_link_up()), hop(link->get_link_down())});
}

void FabricZone::add_host(const sg4::Host* host, const FabricPlace& place) {
  const NetPoint* point = host->get_netpoint();
  xbt_assert(point->get_englobing_zone() == this, "a host of zone %s was created in another zone", get_cname());
  if (vertex_host_.size() <= point->id()) vertex_host_.resize(point->id() + 1, kNoHost);
  vertex_host_[point->id()] = static_cast<std::uint32_t>(places_.size());
  places_.push_back(place);
}

void FabricZone::do_seal() {
  const auto count = [this](FabricLinkKind kind) { return links_[static_cast<std::size_t>(kind)].size(); };
  for (const FabricPlace& place : places_) {
    xbt_assert(!place.is_gpu() || place.port < count(FabricLinkKind::kPort), "zone %s: a GPU has no port %u",
               get_cname(), place.port);
    xbt_assert(place.nic < count(FabricLinkKind::kNic) && place.first_nic + place.rails <= count(FabricLinkKind::kNic),
               "zone %s: a host's NIC %u was not added", get_cname(), place.nic);
    xbt_assert(place.first_leaf + std::max(place.rail + 1, place.rails) <= count(FabricLinkKind::kLeafUplink),
               "zone %s: a host's leaf %u has no uplink", get_cname(), place.leaf());
    xbt_assert(count(FabricLinkKind::kPodUplink) == 0 || place.pod < count(FabricLinkKind::kPodUplink),
               "zone %s: a host's pod %u has no uplink", get_cname(), place.pod);
  }
  xbt_assert(loopback_.link != nullptr, "zone %s: sealed without a loopback link", get_cname());
}

const FabricPlace& FabricZone::place_of(const NetPoint* point) const {
  const std::uint32_t host = point->id() < vertex_host_.size() ? vertex_host_[point->id()] : kNoHost;
  xbt_assert(host != kNoHost && point->get_englobing_zone() == this,
             "zone %s routes between its GPUs and CPU hosts only, not %s", get_cname(), point->get_cname());
  return places_[host];
}

void FabricZone::get_local_route(const NetPoint* src, const NetPoint* dst, Route* route, double* latency) {
  if (src == dst) {
    route->link_list_.push_back(loopback_.impl);
    if (latency) *latency += loopback_.latency;
    return;
  }
  const FabricRoute path = fabric_route(place_of(src), place_of(dst), pxn_);
  route->link_list_.reserve(route->link_list_.size() + path.size);
  for (const FabricHop& hop : path) route->link_list_.push_back(direction(hop).impl);
  if (latency) *latency += route_latency(path, [this](const FabricHop& hop) { return direction(hop).latency; });
}

}  // namespace gcsim
