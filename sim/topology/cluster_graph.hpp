// cluster_graph.hpp: the cluster as an undirected Boost graph of GPUs,
// switches and links, answering the Locality questions.
//
// Vertices: one per GPU, one switch per node (NVSwitch or PCIe switch), one
// top-of-rack switch per rack and one spine. Edges are full-duplex links
// carrying a bandwidth (bytes/s, each way) and a latency (seconds):
//
//   GPU --port--> node switch --NIC--> top-of-rack --uplink--> spine
//
//   port:   the node group's intra-node bandwidth, half its intra-node latency
//           (so GPU -> switch -> GPU costs exactly the intra-node latency)
//   NIC:    the node group's NIC bandwidth and latency
//   uplink: the sum of the rack's NIC bandwidths / oversubscription, and the
//           fabric's uplink latency
//
// The graph is a tree, so each pair of GPUs has one path, and it is exactly
// the route the SimGrid platform gives a flow (the engine builds its links
// with port_link, nic_link and rack_uplink below):
//
//   same GPU      0 links
//   same node     2 links: port a, port b
//   same rack     4 links: port a, NIC a, NIC b, port b
//   other rack    6 links: port a, NIC a, uplink of a's rack,
//                          uplink of b's rack, NIC b, port b
//
//   ClusterLayout layout(read_cluster_file("scenarios/clusters/rack-32gpu.json"));
//   ClusterGraph graph(layout);
//   graph.hops(0, 8);                  // 4: GPUs 0 and 8 sit on different nodes
//   graph.bottleneck_bandwidth(0, 8);  // 12.5e9: the 100Gbps NICs
//
// One breadth-first search from the spine, at construction, hangs the tree
// from it; a query climbs from both ends to where they meet, O(depth) (four
// links at most in a two-tier fabric), with no cache: memory stays O(GPUs)
// and the const queries are safe from several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/locality.hpp"

namespace gcsim {

class ClusterGraph final : public Locality {
 public:
  enum class VertexKind { kGpu, kNodeSwitch, kRackSwitch, kSpine };
  enum class LinkKind { kPort, kNic, kUplink };

  struct Vertex {
    VertexKind kind = VertexKind::kGpu;
    std::uint32_t index = 0;  // GpuId, NodeId or RackId; 0 for the spine
  };
  struct Edge {
    LinkKind kind = LinkKind::kPort;
    double bandwidth = 0;  // bytes/s, each way
    double latency = 0;    // seconds
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex, Edge>;
  using VertexId = Graph::vertex_descriptor;

  /// Requires a layout built from a validated spec (see read_cluster_file).
  explicit ClusterGraph(const ClusterLayout& layout);

  std::size_t hops(GpuId a, GpuId b) const override;
  double bottleneck_bandwidth(GpuId a, GpuId b) const override;
  double path_latency(GpuId a, GpuId b) const override;

  const Graph& graph() const { return graph_; }
  /// GPUs + nodes + racks + 1 (the spine).
  std::size_t vertex_count() const { return boost::num_vertices(graph_); }
  std::size_t gpu_count() const { return gpu_node_.size(); }

  // Vertex numbering: GPUs first, then node switches, rack switches, the spine.
  VertexId gpu_vertex(GpuId gpu) const { return gpu; }
  VertexId node_switch_vertex(NodeId node) const { return gpu_count() + node; }
  VertexId rack_switch_vertex(RackId rack) const { return gpu_count() + node_count_ + rack; }
  VertexId spine_vertex() const { return gpu_count() + node_count_ + rack_count_; }

  /// A GPU's link to its node's switch: the intra-node bandwidth and half the
  /// intra-node latency, so that a GPU-to-GPU transfer inside a node crosses
  /// two ports and pays the intra-node latency once.
  static LinkSpec port_link(const NodeGroup& group);
  /// Half the group's intra-node latency; the latency of port_link.
  static double port_latency(const NodeGroup& group) { return group.intra.latency / 2; }
  /// A node's link to its top-of-rack switch: the group's NIC.
  static LinkSpec nic_link(const NodeGroup& group);
  /// A rack's link to the spine: the sum of its nodes' NIC bandwidths divided
  /// by the fabric's oversubscription, with the fabric's uplink latency.
  static LinkSpec rack_uplink(const ClusterLayout& layout, RackId rack);

 private:
  // What a path from a source node's switch to another node's switch costs.
  struct SwitchPath {
    std::uint32_t hops = 0;
    double bottleneck = 0;
    double latency = 0;
  };

  SwitchPath switch_path(NodeId from, NodeId to) const;
  // Node switch, rack switch, spine: a node switch is two links below the spine.
  static constexpr std::size_t kMaxSwitchDepth = 2;

  Graph graph_;
  std::size_t node_count_ = 0;
  std::size_t rack_count_ = 0;
  std::vector<NodeId> gpu_node_;
  std::vector<LinkSpec> gpu_port_;
  // The tree hung from the spine: each vertex's parent, the link to it and
  // its depth, found by one search at construction. A path between two node
  // switches climbs from both to where they meet (a few links in a fabric of
  // any size), so it costs O(depth) and nothing is kept per pair of nodes.
  std::vector<VertexId> parent_;
  std::vector<LinkSpec> up_link_;
  std::vector<std::uint32_t> depth_;
};

}  // namespace gcsim
