#include "sim/core/fabric_route.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace gcsim {

FabricRoute fabric_route(const FabricPlace& from, const FabricPlace& to, bool pxn) {
  FabricRoute route;
  if (from.node == to.node) {
    // Inside a node: through its switch, ports alone (the same endpoint crosses nothing).
    if (from.port == to.port) return route;
    if (from.is_gpu()) route.push(FabricLinkKind::kPort, from.port, true);
    if (to.is_gpu()) route.push(FabricLinkKind::kPort, to.port, false);
    return route;
  }

  // The sender's side, up to its leaf.
  std::uint32_t nic = from.nic, rail = from.rail;
  if (pxn && from.is_gpu() && to.is_gpu() && from.rail != to.rail && to.rail < from.rails) {
    // Over NVLink to the sender node's GPU on the receiver's rail, out through its NIC.
    route.relayed = true;
    route.push(FabricLinkKind::kPort, from.port, true);
    route.push(FabricLinkKind::kPort, from.first_port + to.rail, false);
    nic = from.first_nic + to.rail;
    rail = to.rail;
  } else if (from.is_gpu() && !from.own_nic) {
    route.push(FabricLinkKind::kPort, from.port, true);
  }
  route.push(FabricLinkKind::kNic, nic, true);

  // Between the leaves: none when both NICs plug into one.
  const std::uint32_t from_leaf = from.first_leaf + rail, to_leaf = to.leaf();
  if (from_leaf != to_leaf) {
    route.push(FabricLinkKind::kLeafUplink, from_leaf, true);
    if (from.pod != to.pod) {
      route.push(FabricLinkKind::kPodUplink, from.pod, true);
      route.push(FabricLinkKind::kPodUplink, to.pod, false);
    }
    route.push(FabricLinkKind::kLeafUplink, to_leaf, false);
  }

  // The receiver's side, down from its leaf.
  route.push(FabricLinkKind::kNic, to.nic, false);
  if (to.is_gpu() && !to.own_nic) route.push(FabricLinkKind::kPort, to.port, false);
  assert(route.size <= FabricRoute::kMaxHops && "a route crosses at most kMaxHops links");
  return route;
}

double route_bottleneck(const FabricRoute& route, const FabricLinks& links) {
  double bottleneck = std::numeric_limits<double>::infinity();
  for (const FabricHop& hop : route) bottleneck = std::min(bottleneck, links.at(hop).bandwidth);
  return bottleneck;
}

RouteFigures route_figures(const FabricRoute& route, const FabricLinks& links) {
  RouteFigures figures;
  figures.hops = route.size;
  figures.bottleneck = route_bottleneck(route, links);
  figures.latency = route_latency(route, [&links](const FabricHop& hop) { return links.at(hop).latency; });
  return figures;
}

}  // namespace gcsim
