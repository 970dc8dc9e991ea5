#include "sim/topology/cluster_graph.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

#include <boost/graph/breadth_first_search.hpp>

namespace gcsim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Per-vertex figures of the search tree's path from the source.
struct PathFigures {
  std::vector<std::uint32_t> hops;
  std::vector<double> bottleneck;
  std::vector<double> latency;
};

// Extends the source's path by one link each time the search discovers a
// vertex. The graph is a tree, so the search tree's path is the only path.
class PathRecorder : public boost::default_bfs_visitor {
 public:
  explicit PathRecorder(PathFigures& figures) : figures_(&figures) {}

  template <class EdgeDescriptor, class Graph>
  void tree_edge(EdgeDescriptor edge, const Graph& graph) const {
    const auto from = boost::source(edge, graph);
    const auto to = boost::target(edge, graph);
    const auto& link = graph[edge];
    figures_->hops[to] = figures_->hops[from] + 1;
    figures_->bottleneck[to] = std::min(figures_->bottleneck[from], link.bandwidth);
    figures_->latency[to] = figures_->latency[from] + link.latency;
  }

 private:
  PathFigures* figures_;
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
      rack_count_(layout.rack_count()),
      paths_(layout.node_count()) {
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
}

const std::vector<ClusterGraph::SwitchPath>& ClusterGraph::paths_from_node(NodeId node) const {
  std::vector<SwitchPath>& paths = paths_[node];
  if (!paths.empty()) return paths;

  const std::size_t vertices = vertex_count();
  PathFigures figures{std::vector<std::uint32_t>(vertices, 0), std::vector<double>(vertices, kInfinity),
                      std::vector<double>(vertices, 0.0)};
  boost::breadth_first_search(graph_, node_switch_vertex(node), boost::visitor(PathRecorder(figures)));

  paths.resize(node_count_);
  for (NodeId to = 0; to < node_count_; ++to) {
    const VertexId v = node_switch_vertex(to);
    paths[to] = SwitchPath{figures.hops[v], figures.bottleneck[v], figures.latency[v]};
  }
  return paths;
}

const ClusterGraph::SwitchPath& ClusterGraph::switch_path(NodeId from, NodeId to) const {
  return paths_from_node(from)[to];
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
