// fabric_route.hpp: the links a transfer crosses between two endpoints of
// the cluster's network (a GPU, or a node's CPU cores), as one rule that the
// locality graph, the SimGrid platform and the cost models all apply.
//
// The links (sim/core/fabric_layout.hpp numbers them; docs/cluster-format.md
// draws them):
//   port:        a GPU to its node's switch (NVLink or PCIe)
//   NIC:         a node's one NIC from its switch, or a GPU's own NIC (a
//                rail-optimized node), to a leaf switch
//   leaf uplink: a leaf switch to its pod's spine
//   pod uplink:  a pod's spine to the core (only with several pods)
// Every link is full duplex; "up" is the direction away from the GPU.
//
// A route from a to b (a != b):
//   same node:       a's port up, b's port down (a CPU host has no port)
//   other node:      a's side:  its own NIC up; or, behind a shared NIC, its port
//                               up and the node's NIC up
//                    between:   nothing when both NICs plug into one leaf; else
//                               a's leaf uplink up, [a's pod uplink up, b's pod
//                               uplink down when the pods differ], b's leaf uplink down
//                    b's side:  its own NIC down; or the node's NIC down and its port down
// With PXN, a GPU sending to a GPU of another node on another rail first
// crosses NVLink to its node's GPU on the receiver's rail (a's port up, that
// GPU's port down) and leaves through that GPU's NIC: on a rail-optimized
// fabric the transfer then meets b in one leaf, or crosses the spine between
// two racks only.
//
//   const FabricRoute route = fabric_route(layout.fabric().gpu_place(a), layout.fabric().gpu_place(b), pxn);
//   for (std::size_t i = 0; i < route.size; ++i) load[route.hops[i]] += bytes;
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/core/cluster_spec.hpp"

namespace gcsim {

enum class FabricLinkKind : std::uint8_t { kPort, kNic, kLeafUplink, kPodUplink };

/// One link of a route, by its kind and index among the links of that kind,
/// and the direction it is crossed in (up: away from the sending GPU's side
/// of the link, towards the core).
struct FabricHop {
  // No member initializers: a route's array of hops is left uninitialized
  // beyond its size, which keeps a locality query a few nanoseconds.
  FabricLinkKind kind;
  std::uint32_t index;
  bool up;
  bool operator==(const FabricHop& other) const { return kind == other.kind && index == other.index && up == other.up; }
};

/// Where an endpoint sits: the links its transfers may cross, as indices
/// into the link tables of a numbering (FabricLinks).
struct FabricPlace {
  static constexpr std::uint32_t kNoPort = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t node = 0;
  std::uint32_t port = kNoPort;  // the GPU's port; kNoPort for a node's CPU host
  std::uint32_t nic = 0;         // the NIC its transfers to other nodes cross
  bool own_nic = false;          // that NIC is the GPU's own: no port is crossed to reach it
  std::uint32_t rail = 0;        // the leaf of the rack that NIC plugs into
  std::uint32_t first_leaf = 0;  // the rack's first leaf: rail r plugs into leaf first_leaf + r
  std::uint32_t pod = 0;
  // The node's per-GPU NICs, for PXN: NIC first_nic + r belongs to the GPU
  // of port first_port + r and sits on rail r; `rails` is 0 on a node whose
  // GPUs share one NIC.
  std::uint32_t first_port = 0;
  std::uint32_t first_nic = 0;
  std::uint32_t rails = 0;

  std::uint32_t leaf() const { return first_leaf + rail; }
  bool is_gpu() const { return port != kNoPort; }
};

/// The links of a route in the order a transfer crosses them.
struct FabricRoute {
  // PXN relay: port, port, NIC, leaf uplink, pod uplink, pod uplink, leaf uplink, NIC, port.
  static constexpr std::size_t kMaxHops = 9;
  std::array<FabricHop, kMaxHops> hops;  // the first `size` are the route's
  std::size_t size = 0;
  bool relayed = false;  // through another GPU of the sender's node (PXN)

  void push(FabricLinkKind kind, std::uint32_t index, bool up) { hops[size++] = FabricHop{kind, index, up}; }
  const FabricHop* begin() const { return hops.data(); }
  const FabricHop* end() const { return hops.data() + size; }
};

/// The route from `from` to `to` (two places of one numbering); empty when
/// they are the same endpoint. `pxn` relays cross-rail transfers between
/// GPUs of different nodes as the header says.
FabricRoute fabric_route(const FabricPlace& from, const FabricPlace& to, bool pxn);

/// The links of a numbering, by kind: each entry's bandwidth (bytes/s, each
/// way) and latency.
struct FabricLinks {
  std::vector<LinkSpec> ports, nics, leaf_uplinks, pod_uplinks;

  // Inline: every hop of every route asks it.
  const std::vector<LinkSpec>& of(FabricLinkKind kind) const {
    switch (kind) {
      case FabricLinkKind::kPort:
        return ports;
      case FabricLinkKind::kNic:
        return nics;
      case FabricLinkKind::kLeafUplink:
        return leaf_uplinks;
      case FabricLinkKind::kPodUplink:
        return pod_uplinks;
    }
    return ports;
  }
  std::vector<LinkSpec>& of(FabricLinkKind kind) {
    return const_cast<std::vector<LinkSpec>&>(static_cast<const FabricLinks&>(*this).of(kind));
  }
  const LinkSpec& at(const FabricHop& hop) const { return of(hop.kind)[hop.index]; }
};

/// The sum of a route's latencies in one fixed order: the links between the
/// two endpoints' own ports in route order, then the sender's port, then the
/// receiver's port. It is the order SimGrid's recursive routing gives a
/// hierarchy of one zone per node, so every simulated time stays bit for bit
/// what such a platform gives; the locality graph sums in the same order.
template <class LatencyOf>
double route_latency(const FabricRoute& route, LatencyOf latency_of) {
  if (route.size == 0) return 0;
  const bool sender_port = route.hops[0].kind == FabricLinkKind::kPort && route.hops[0].up;
  const FabricHop& last = route.hops[route.size - 1];
  const bool receiver_port = last.kind == FabricLinkKind::kPort && !last.up;
  const std::size_t first = sender_port ? 1 : 0, end = receiver_port ? route.size - 1 : route.size;
  double latency = 0;
  for (std::size_t i = first; i < end; ++i) latency += latency_of(route.hops[i]);
  if (sender_port) latency += latency_of(route.hops[0]);
  if (receiver_port) latency += latency_of(last);
  return latency;
}

/// What a route costs: its links, its narrowest bandwidth (infinity for an
/// empty route) and its summed latency (route_latency).
struct RouteFigures {
  std::size_t hops = 0;
  double bottleneck = std::numeric_limits<double>::infinity();
  double latency = 0;
};
RouteFigures route_figures(const FabricRoute& route, const FabricLinks& links);
/// The narrowest bandwidth on a route (infinity for an empty route).
double route_bottleneck(const FabricRoute& route, const FabricLinks& links);

}  // namespace gcsim
