#include "sim/topology/cluster_graph.hpp"

#include <cassert>

namespace gcsim {

ClusterGraph::LinkKind ClusterGraph::link_kind(FabricLinkKind kind) {
  switch (kind) {
    case FabricLinkKind::kPort:
      return LinkKind::kPort;
    case FabricLinkKind::kNic:
      return LinkKind::kNic;
    case FabricLinkKind::kLeafUplink:
      return LinkKind::kUplink;
    case FabricLinkKind::kPodUplink:
      return LinkKind::kPodUplink;
  }
  return LinkKind::kPort;
}

ClusterGraph::ClusterGraph(const ClusterLayout& layout)
    : fabric_(layout.fabric()),
      node_count_(layout.node_count()),
      leaf_count_(fabric_.links().leaf_uplinks.size()),
      graph_(layout.gpu_count() + layout.node_count() + leaf_count_ + fabric_.pod_count() +
             (fabric_.pod_count() > 1 ? 1 : 0)) {
  const FabricLinks& links = fabric_.links();
  const auto add = [this, &links](VertexId a, VertexId b, FabricLinkKind kind, std::uint32_t index) {
    const LinkSpec& link = links.of(kind)[index];
    boost::add_edge(a, b, Edge{link_kind(kind), link.bandwidth, link.latency, index}, graph_);
  };
  for (GpuId gpu = 0; gpu < gpu_count(); ++gpu) {
    graph_[gpu_vertex(gpu)] = Vertex{VertexKind::kGpu, gpu};
    add(gpu_vertex(gpu), node_switch_vertex(layout.node_of(gpu)), FabricLinkKind::kPort, gpu);
  }
  for (NodeId node = 0; node < node_count_; ++node) {
    graph_[node_switch_vertex(node)] = Vertex{VertexKind::kNodeSwitch, node};
    // A node's one NIC hangs off its switch; NICs of their own, off their GPUs.
    const bool own_nics = layout.has_gpus(node) && fabric_.gpu_place(layout.node(node).gpus.front()).own_nic;
    for (std::uint32_t k = 0; k < fabric_.nic_count(node); ++k) {
      const std::uint32_t nic = fabric_.first_nic(node) + k;
      const VertexId from = own_nics ? gpu_vertex(layout.node(node).gpus[k]) : node_switch_vertex(node);
      add(from, leaf_vertex(fabric_.leaf_of_nic(nic)), FabricLinkKind::kNic, nic);
    }
  }
  for (RackId rack = 0; rack < layout.rack_count(); ++rack) {
    for (std::uint32_t leaf = fabric_.first_leaf(rack); leaf < fabric_.first_leaf(rack) + fabric_.leaf_count(rack);
         ++leaf) {
      graph_[leaf_vertex(leaf)] = Vertex{VertexKind::kRackSwitch, leaf};
      add(leaf_vertex(leaf), spine_vertex(fabric_.pod_of_rack(rack)), FabricLinkKind::kLeafUplink, leaf);
    }
  }
  for (std::uint32_t pod = 0; pod < fabric_.pod_count(); ++pod) {
    graph_[spine_vertex(pod)] = Vertex{VertexKind::kSpine, pod};
    if (fabric_.pod_count() > 1) add(spine_vertex(pod), core_vertex(), FabricLinkKind::kPodUplink, pod);
  }
  if (fabric_.pod_count() > 1) graph_[core_vertex()] = Vertex{VertexKind::kCore, 0};
}

FabricRoute ClusterGraph::route(GpuId a, GpuId b) const {
  assert(a < gpu_count() && b < gpu_count() && "GPU ids lie within the cluster");
  return fabric_.route(fabric_.gpu_place(a), fabric_.gpu_place(b));
}

std::size_t ClusterGraph::hops(GpuId a, GpuId b) const { return route(a, b).size; }

double ClusterGraph::bottleneck_bandwidth(GpuId a, GpuId b) const {
  return route_bottleneck(route(a, b), fabric_.links());
}

Locality::PathFigures ClusterGraph::path_figures(GpuId a, GpuId b) const {
  const RouteFigures figures = route_figures(route(a, b), fabric_.links());
  return {figures.bottleneck, figures.latency};
}

double ClusterGraph::path_latency(GpuId a, GpuId b) const {
  const FabricLinks& links = fabric_.links();
  return route_latency(route(a, b), [&links](const FabricHop& hop) { return links.at(hop).latency; });
}

}  // namespace gcsim
