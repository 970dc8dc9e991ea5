#include "sim/topology/cluster_graph.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <limits>

#include <boost/graph/breadth_first_search.hpp>

namespace gcsim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Records, for each vertex the search from the spine discovers, its parent,
// the link up to it and its depth.
class ParentRecorder : public boost::default_bfs_visitor {
 public:
  ParentRecorder(std::vector<std::size_t>& parent, std::vector<LinkSpec>& up_link, std::vector<std::uint32_t>& depth)
      : parent_(&parent), up_link_(&up_link), depth_(&depth) {}

  template <class EdgeDescriptor, class Graph>
  void tree_edge(EdgeDescriptor edge, const Graph& graph) const {
    const auto from = boost::source(edge, graph);
    const auto to = boost::target(edge, graph);
    const auto& link = graph[edge];
    (*parent_)[to] = from;
    (*up_link_)[to] = LinkSpec{link.bandwidth, link.latency};
    (*depth_)[to] = (*depth_)[from] + 1;
  }

 private:
  std::vector<std::size_t>* parent_;
  std::vector<LinkSpec>* up_link_;
  std::vector<std::uint32_t>* depth_;
};

}  // namespace

LinkSpec ClusterGraph::port_link(const NodeGroup& group) {
  return LinkSpec{group.intra.bandwidth, port_latency(group)};
}

LinkSpec ClusterGraph::nic_link(const NodeGroup& group) { return group.nic; }

LinkSpec ClusterGraph::rack_uplink(const ClusterLayout& layout, RackId rack) {
  double downlink = 0;
  for (NodeId node : layout.nodes_of_rack(rack)) downlink += layout.group_of_node(node).nic.bandwidth;
  const FabricSpec& fabric = layout.spec().fabric;
  return LinkSpec{downlink / fabric.oversubscription, fabric.uplink_latency};
}

ClusterGraph::ClusterGraph(const ClusterLayout& layout)
    : graph_(layout.gpu_count() + layout.node_count() + layout.rack_count() + 1),
      node_count_(layout.node_count()),
      rack_count_(layout.rack_count()) {
  assert(layout.spec().fabric.oversubscription >= 1.0 && "a validated spec has oversubscription >= 1");
  gpu_node_.reserve(layout.gpu_count());
  gpu_port_.reserve(layout.gpu_count());
  for (GpuId gpu = 0; gpu < layout.gpu_count(); ++gpu) {
    gpu_node_.push_back(layout.node_of(gpu));
    gpu_port_.push_back(port_link(layout.group_of_node(layout.node_of(gpu))));
  }

  for (GpuId gpu = 0; gpu < gpu_count(); ++gpu) {
    graph_[gpu_vertex(gpu)] = Vertex{VertexKind::kGpu, gpu};
    const LinkSpec& port = gpu_port_[gpu];
    boost::add_edge(gpu_vertex(gpu), node_switch_vertex(gpu_node_[gpu]),
                    Edge{LinkKind::kPort, port.bandwidth, port.latency}, graph_);
  }
  for (NodeId node = 0; node < node_count_; ++node) {
    graph_[node_switch_vertex(node)] = Vertex{VertexKind::kNodeSwitch, node};
    const LinkSpec nic = nic_link(layout.group_of_node(node));
    boost::add_edge(node_switch_vertex(node), rack_switch_vertex(layout.rack_of_node(node)),
                    Edge{LinkKind::kNic, nic.bandwidth, nic.latency}, graph_);
  }
  for (RackId rack = 0; rack < rack_count_; ++rack) {
    graph_[rack_switch_vertex(rack)] = Vertex{VertexKind::kRackSwitch, rack};
    const LinkSpec uplink = rack_uplink(layout, rack);
    boost::add_edge(rack_switch_vertex(rack), spine_vertex(), Edge{LinkKind::kUplink, uplink.bandwidth, uplink.latency},
                    graph_);
  }
  graph_[spine_vertex()] = Vertex{VertexKind::kSpine, 0};
  assert(boost::num_edges(graph_) + 1 == boost::num_vertices(graph_) &&
         "the cluster graph is a tree, so every pair of GPUs has exactly one path");
  parent_.assign(vertex_count(), spine_vertex());
  up_link_.assign(vertex_count(), LinkSpec{});
  depth_.assign(vertex_count(), 0);
  boost::breadth_first_search(graph_, spine_vertex(), boost::visitor(ParentRecorder(parent_, up_link_, depth_)));
  for (NodeId node = 0; node < node_count_; ++node)
    assert(depth_[node_switch_vertex(node)] <= kMaxSwitchDepth &&
           "node switches lie within kMaxSwitchDepth of the spine");
}

ClusterGraph::SwitchPath ClusterGraph::switch_path(NodeId from, NodeId to) const {
  // The figures accumulate link by link in the order the path runs from
  // `from`, as a search from it would: up to where the two climbs meet, then
  // down to `to` (its climb, reversed).
  SwitchPath path{0, kInfinity, 0.0};
  const auto cross = [&path](const LinkSpec& link) {
    ++path.hops;
    path.bottleneck = std::min(path.bottleneck, link.bandwidth);
    path.latency += link.latency;
  };
  VertexId up = node_switch_vertex(from), down = node_switch_vertex(to);
  // The links down to `to`, gathered climbing from it: no more than its depth.
  std::array<const LinkSpec*, kMaxSwitchDepth> descent{};
  std::size_t descended = 0;
  while (depth_[down] > depth_[up]) {
    descent[descended++] = &up_link_[down];
    down = parent_[down];
  }
  while (depth_[up] > depth_[down]) {
    cross(up_link_[up]);
    up = parent_[up];
  }
  while (up != down) {
    cross(up_link_[up]);
    up = parent_[up];
    descent[descended++] = &up_link_[down];
    down = parent_[down];
  }
  while (descended > 0) cross(*descent[--descended]);
  return path;
}

std::size_t ClusterGraph::hops(GpuId a, GpuId b) const {
  assert(a < gpu_count() && b < gpu_count() && "GPU ids lie within the cluster");
  if (a == b) return 0;
  return 2 + switch_path(gpu_node_[a], gpu_node_[b]).hops;
}

double ClusterGraph::bottleneck_bandwidth(GpuId a, GpuId b) const {
  assert(a < gpu_count() && b < gpu_count() && "GPU ids lie within the cluster");
  if (a == b) return kInfinity;
  const double ports = std::min(gpu_port_[a].bandwidth, gpu_port_[b].bandwidth);
  return std::min(ports, switch_path(gpu_node_[a], gpu_node_[b]).bottleneck);
}

double ClusterGraph::path_latency(GpuId a, GpuId b) const {
  assert(a < gpu_count() && b < gpu_count() && "GPU ids lie within the cluster");
  if (a == b) return 0;
  return gpu_port_[a].latency + switch_path(gpu_node_[a], gpu_node_[b]).latency + gpu_port_[b].latency;
}

}  // namespace gcsim
