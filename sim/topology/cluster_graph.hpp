// cluster_graph.hpp: the cluster as an undirected Boost graph of GPUs,
// switches and links, answering the Locality questions.
//
// Vertices: one per GPU, one switch per node (NVSwitch or PCIe switch), one
// leaf switch per rack (per rack and rail on a rail-optimized fabric), one
// spine per pod and, when the racks form several pods, the core. Edges are
// the full-duplex links of sim/core/fabric_layout.hpp, each carrying its
// kind, its index among the links of that kind, its bandwidth (bytes/s, each
// way) and its latency (seconds):
//
//   GPU --port--> node switch --NIC--> leaf --uplink--> spine [--pod uplink--> core]
//   GPU --NIC--> leaf of its rail        (a GPU with its own NIC)
//
// A query follows the route the SimGrid platform gives a flow
// (sim/core/fabric_route.hpp), link by link; on a fabric of one NIC per node
// in one pod that is the graph's one path:
//
//   same GPU      0 links
//   same node     2 links: port a, port b
//   same rack     4 links: port a, NIC a, NIC b, port b
//   other rack    6 links: port a, NIC a, uplink of a's rack,
//                          uplink of b's rack, NIC b, port b
//
// and on a rail-optimized fabric GPU i of node A to GPU i of node B of the
// same rail group crosses 2 links (NIC a, NIC b: one leaf), to another rail
// 4 (NIC a, a's leaf uplink, b's leaf uplink, NIC b: across the spine).
//
//   ClusterLayout layout(read_cluster_file("scenarios/clusters/rack-32gpu.json"));
//   ClusterGraph graph(layout);
//   graph.hops(0, 8);                  // 4: GPUs 0 and 8 sit on different nodes
//   graph.bottleneck_bandwidth(0, 8);  // 12.5e9: the 100Gbps NICs
//
// A query costs O(1): the route is worked out from where the two GPUs sit,
// with no search and no cache, so memory stays O(GPUs) and the const queries
// are safe from several threads.
#pragma once

#include <cstddef>
#include <cstdint>

#include <boost/graph/adjacency_list.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/fabric_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/locality.hpp"

namespace gcsim {

class ClusterGraph final : public Locality {
 public:
  enum class VertexKind { kGpu, kNodeSwitch, kRackSwitch, kSpine, kCore };
  enum class LinkKind { kPort, kNic, kUplink, kPodUplink };

  struct Vertex {
    VertexKind kind = VertexKind::kGpu;
    std::uint32_t index = 0;  // GpuId, NodeId, leaf or pod; 0 for the core
  };
  struct Edge {
    LinkKind kind = LinkKind::kPort;
    double bandwidth = 0;     // bytes/s, each way
    double latency = 0;       // seconds
    std::uint32_t index = 0;  // the link among those of its kind (FabricLayout's numbering)
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Edge>;
  using VertexId = Graph::vertex_descriptor;

  /// Requires a layout built from a validated spec (see read_cluster_file).
  explicit ClusterGraph(const ClusterLayout& layout);

  std::size_t hops(GpuId a, GpuId b) const override;
  double bottleneck_bandwidth(GpuId a, GpuId b) const override;
  double path_latency(GpuId a, GpuId b) const override;
  PathFigures path_figures(GpuId a, GpuId b) const override;
  /// The links from GPU a to GPU b, in the order a transfer crosses them.
  FabricRoute route(GpuId a, GpuId b) const;

  const Graph& graph() const { return graph_; }
  /// GPUs + nodes + leaves + pods, and the core when there are several pods.
  std::size_t vertex_count() const { return boost::num_vertices(graph_); }
  std::size_t gpu_count() const { return fabric_.links().ports.size(); }

  // Vertex numbering: GPUs first, then node switches, leaves, spines, the core.
  VertexId gpu_vertex(GpuId gpu) const { return gpu; }
  VertexId node_switch_vertex(NodeId node) const { return gpu_count() + node; }
  VertexId leaf_vertex(std::uint32_t leaf) const { return gpu_count() + node_count_ + leaf; }
  /// The rack's first (on a fabric without rails, its only) leaf switch.
  VertexId rack_switch_vertex(RackId rack) const { return leaf_vertex(fabric_.first_leaf(rack)); }
  VertexId spine_vertex(std::uint32_t pod = 0) const { return leaf_vertex(leaf_count_) + pod; }
  /// Only when there are several pods.
  VertexId core_vertex() const { return spine_vertex(fabric_.pod_count()); }
  /// The edge kind of a fabric link kind.
  static LinkKind link_kind(FabricLinkKind kind);

  /// A GPU's link to its node's switch (FabricLayout::port_link).
  static LinkSpec port_link(const NodeGroup& group) { return FabricLayout::port_link(group); }
  /// Half the group's intra-node latency; the latency of port_link.
  static double port_latency(const NodeGroup& group) { return port_link(group).latency; }
  /// Each of the group's NICs (FabricLayout::nic_link).
  static LinkSpec nic_link(const NodeGroup& group) { return FabricLayout::nic_link(group); }

 private:
  FabricLayout fabric_;  // a copy: the graph answers without the layout it was built from
  std::size_t node_count_ = 0;
  std::size_t leaf_count_ = 0;
  Graph graph_;
};

}  // namespace gcsim
