#include "sim/model/solo_transfers.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace gcsim {
namespace {

std::uint64_t directed_link(const FabricHop& hop) {
  return (static_cast<std::uint64_t>(hop.index) << 3) | (static_cast<std::uint64_t>(hop.kind) << 1) |
         static_cast<std::uint64_t>(hop.up);
}

// The GPU whose port or own NIC `hop` is; none for a link of no GPU's: a
// node's shared NIC, an uplink, and, where the nodes' CPU hosts are on the
// network, the NIC a node's CPU host goes out through (its first), which the
// CPU jobs' transfers cross too. A NIC
// crossed up is in the sender's node (its own, or with PXN the relaying
// GPU's), one crossed down the receiver's own.
std::optional<GpuId> owner(const FabricHop& hop, const FabricPlace& from, const FabricPlace& to,
                           const ClusterLayout& layout, bool cpu_hosts_send) {
  if (hop.kind == FabricLinkKind::kPort) return hop.index;
  if (hop.kind != FabricLinkKind::kNic) return std::nullopt;
  const FabricPlace& side = hop.up ? from : to;
  if (!side.own_nic || (cpu_hosts_send && hop.index == side.first_nic)) return std::nullopt;
  return layout.node(side.node).gpus[hop.index - side.first_nic];
}

// What a solo transfer's end depends on: its bytes, and its links' figures in order.
struct SoloShape {
  double bytes = 0;
  std::vector<LinkSpec> links;
  bool operator==(const SoloShape& other) const {
    return bytes == other.bytes && std::equal(links.begin(), links.end(), other.links.begin(), other.links.end(),
                                              [](const LinkSpec& a, const LinkSpec& b) {
                                                return a.bandwidth == b.bandwidth && a.latency == b.latency;
                                              });
  }
};

}  // namespace

std::vector<std::vector<std::uint32_t>> solo_stand_ins(const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                                                       double gpu_share, const std::vector<ExchangeFlows>& exchanges,
                                                       bool cpu_hosts_send) {
  std::vector<std::vector<std::uint32_t>> stands_for;
  stands_for.reserve(exchanges.size());
  for (const ExchangeFlows& exchange : exchanges) stands_for.emplace_back(exchange.transfers.size(), 1);
  const FabricLayout& fabric = layout.fabric();
  if (gpu_share < 1 || layout.spec().network.crosstraffic) return stands_for;

  // A GPU's links are the job's when it holds the GPU; with PXN, when it
  // holds every GPU of the node, since any of them may relay through them.
  std::unordered_map<NodeId, std::uint32_t> held_in_node;
  for (GpuId g : gpus) ++held_in_node[layout.node_of(g)];
  std::unordered_set<GpuId> held(gpus.begin(), gpus.end());
  const auto the_jobs = [&](GpuId g) {
    if (!fabric.pxn()) return held.count(g) > 0;
    const NodeId node = layout.node_of(g);
    return held_in_node[node] == layout.node(node).gpus.size() && held.count(g) > 0;
  };

  // Each transfer's route, found once; and how many transfers cross each link each way.
  std::vector<std::vector<FabricRoute>> routes(exchanges.size());
  std::unordered_map<std::uint64_t, std::uint32_t> crossings;
  for (std::size_t e = 0; e < exchanges.size(); ++e) {
    if (!(exchanges[e].bytes > 0)) continue;  // started by no step
    for (const Transfer& t : exchanges[e].transfers) {
      const FabricRoute& route =
          routes[e].emplace_back(fabric.route(fabric.gpu_place(gpus[t.from]), fabric.gpu_place(gpus[t.to])));
      for (const FabricHop& hop : route) ++crossings[directed_link(hop)];
    }
  }

  std::vector<SoloShape> shapes;                              // one per group of solo transfers
  std::vector<std::pair<std::size_t, std::size_t>> stand_in;  // each group's (exchange, transfer)
  for (std::size_t e = 0; e < exchanges.size(); ++e) {
    const ExchangeFlows& exchange = exchanges[e];
    if (!(exchange.bytes > 0)) continue;
    for (std::size_t k = 0; k < exchange.transfers.size(); ++k) {
      const Transfer& t = exchange.transfers[k];
      const FabricPlace& from = fabric.gpu_place(gpus[t.from]);
      const FabricPlace& to = fabric.gpu_place(gpus[t.to]);
      const FabricRoute& route = routes[e][k];
      SoloShape shape{exchange.bytes, {}};
      bool solo = route.size > 0;
      for (const FabricHop& hop : route) {
        if (fabric.never_full(hop.kind)) {  // shared, but never what bounds a transfer
          shape.links.push_back(fabric.links().at(hop));
          continue;
        }
        const std::optional<GpuId> gpu = owner(hop, from, to, layout, cpu_hosts_send);
        if (!gpu || !the_jobs(*gpu) || crossings.at(directed_link(hop)) != 1) {
          solo = false;
          break;
        }
        shape.links.push_back(fabric.links().at(hop));
      }
      if (!solo) continue;
      const auto same = std::find(shapes.begin(), shapes.end(), shape);
      if (same == shapes.end()) {
        shapes.push_back(std::move(shape));
        stand_in.emplace_back(e, k);
        continue;
      }
      const auto [first_exchange, first_transfer] = stand_in[static_cast<std::size_t>(same - shapes.begin())];
      ++stands_for[first_exchange][first_transfer];
      stands_for[e][k] = 0;
    }
  }
  return stands_for;
}

}  // namespace gcsim
