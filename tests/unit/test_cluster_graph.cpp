// Tests for ClusterGraph: on a small crafted cluster whose paths are worked
// out by hand, hops, bottleneck bandwidths and latencies follow the routes
// port / NIC / rack uplink that the SimGrid platform uses.
#include "sim/topology/cluster_graph.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

NodeGroup make_group(const std::string& name, std::uint32_t count, std::uint32_t gpus, IntraNodeKind kind,
                     LinkSpec intra, LinkSpec nic) {
  NodeGroup group;
  group.name = name;
  group.count = count;
  group.gpus_per_node = gpus;
  group.gpu_type = "G";
  group.cpu_cores = 8;
  group.memory_bytes = 64e9;
  group.intra_kind = kind;
  group.intra = intra;
  group.nic = nic;
  return group;
}

// Two racks of two nodes, two node groups:
//
//   rack 0: a-0 (GPUs 0,1)   a-1 (GPUs 2,3)         uplink (10+10)/2 = 10 GB/s, 1 us
//   rack 1: a-2 (GPUs 4,5)   b-0 (GPUs 6,7,8,9)     uplink (10+ 4)/2 =  7 GB/s, 1 us
//
//   group a: NVLink port 100 GB/s, 1 us (intra 2 us); NIC 10 GB/s, 5 us
//   group b: PCIe   port  16 GB/s, 4 us (intra 8 us); NIC  4 GB/s, 3 us
ClusterSpec two_rack_cluster() {
  ClusterSpec spec;
  spec.name = "two-racks";
  spec.gpu_types = {GpuType{"G", 10e12, 16e9}};
  spec.node_groups = {make_group("a", 3, 2, IntraNodeKind::kNvlink, {100e9, 2e-6}, {10e9, 5e-6}),
                      make_group("b", 1, 4, IntraNodeKind::kPcie, {16e9, 8e-6}, {4e9, 3e-6})};
  spec.fabric.nodes_per_rack = 2;
  spec.fabric.oversubscription = 2.0;
  spec.fabric.uplink_latency = 1e-6;
  return spec;
}

class TwoRackGraph : public ::testing::Test {
 protected:
  TwoRackGraph() : layout_(two_rack_cluster()), graph_(layout_) {}
  ClusterLayout layout_;
  ClusterGraph graph_;
};

// ---- pairs worked out by hand -------------------------------------------------

struct PathCase {
  std::string name;
  GpuId a, b;
  std::size_t hops;
  double bottleneck;  // bytes/s
  double latency;     // seconds
};

std::ostream& operator<<(std::ostream& out, const PathCase& c) { return out << c.name; }

const PathCase kPathCases[] = {
    // same GPU: no links
    {"SameGpu", 0, 0, 0, kInf, 0},
    // port, port
    {"SameNodeNvlink", 0, 1, 2, 100e9, 1e-6 + 1e-6},
    {"SameNodePcie", 6, 7, 2, 16e9, 4e-6 + 4e-6},
    // port, NIC, NIC, port
    {"SameRackSameGroup", 0, 2, 4, 10e9, 1e-6 + 5e-6 + 5e-6 + 1e-6},
    {"SameRackMixedGroups", 4, 6, 4, 4e9, 1e-6 + 5e-6 + 3e-6 + 4e-6},
    // port, NIC, uplink, uplink, NIC, port; rack 1's oversubscribed uplink is the narrowest
    {"CrossRackUplinkBottleneck", 0, 4, 6, 7e9, 1e-6 + 5e-6 + 1e-6 + 1e-6 + 5e-6 + 1e-6},
    {"CrossRackNicBottleneck", 1, 8, 6, 4e9, 1e-6 + 5e-6 + 1e-6 + 1e-6 + 3e-6 + 4e-6},
    {"CrossRackReverse", 9, 3, 6, 4e9, 4e-6 + 3e-6 + 1e-6 + 1e-6 + 5e-6 + 1e-6},
};

class TwoRackPath : public TwoRackGraph, public ::testing::WithParamInterface<PathCase> {};

TEST_P(TwoRackPath, HopsCountLinksOnRoute) { EXPECT_EQ(graph_.hops(GetParam().a, GetParam().b), GetParam().hops); }

TEST_P(TwoRackPath, BottleneckIsNarrowestLink) {
  EXPECT_DOUBLE_EQ(graph_.bottleneck_bandwidth(GetParam().a, GetParam().b), GetParam().bottleneck);
}

TEST_P(TwoRackPath, LatencyIsSumOfLinkLatencies) {
  EXPECT_NEAR(graph_.path_latency(GetParam().a, GetParam().b), GetParam().latency, 1e-15);
}

TEST_P(TwoRackPath, PathFiguresAreTheBottleneckAndTheLatencyInOne) {
  const Locality::PathFigures figures = graph_.path_figures(GetParam().a, GetParam().b);
  EXPECT_DOUBLE_EQ(figures.bottleneck_bandwidth, GetParam().bottleneck);
  EXPECT_NEAR(figures.latency, GetParam().latency, 1e-15);
}

TEST_P(TwoRackPath, FiguresAreSymmetric) {
  const PathCase& c = GetParam();
  EXPECT_EQ(graph_.hops(c.b, c.a), graph_.hops(c.a, c.b));
  EXPECT_EQ(graph_.bottleneck_bandwidth(c.b, c.a), graph_.bottleneck_bandwidth(c.a, c.b));
  EXPECT_NEAR(graph_.path_latency(c.b, c.a), graph_.path_latency(c.a, c.b), 1e-15);
}

INSTANTIATE_TEST_SUITE_P(HandWorked, TwoRackPath, ::testing::ValuesIn(kPathCases),
                         [](const ::testing::TestParamInfo<PathCase>& info) { return info.param.name; });

// ---- graph shape ------------------------------------------------------------

TEST_F(TwoRackGraph, HasOneVertexPerGpuNodeRackAndSpine) { EXPECT_EQ(graph_.vertex_count(), 10u + 4u + 2u + 1u); }

TEST_F(TwoRackGraph, IsATreeOfPortNicAndUplinkEdges) {
  std::map<ClusterGraph::LinkKind, int> edges_by_kind;
  for (auto [it, end] = boost::edges(graph_.graph()); it != end; ++it) ++edges_by_kind[graph_.graph()[*it].kind];
  EXPECT_EQ(boost::num_edges(graph_.graph()), graph_.vertex_count() - 1);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kPort], 10);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kNic], 4);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kUplink], 2);
}

TEST_F(TwoRackGraph, GpuHangsOffItsNodeSwitch) {
  const auto& g = graph_.graph();
  ASSERT_EQ(boost::out_degree(graph_.gpu_vertex(6), g), 1u);
  const auto edge = *boost::out_edges(graph_.gpu_vertex(6), g).first;
  const auto far_end = boost::target(edge, g);
  EXPECT_EQ(far_end, graph_.node_switch_vertex(3));  // b-0 is node 3
  EXPECT_EQ(g[far_end].kind, ClusterGraph::VertexKind::kNodeSwitch);
  EXPECT_EQ(g[edge].kind, ClusterGraph::LinkKind::kPort);
  EXPECT_DOUBLE_EQ(g[edge].bandwidth, 16e9);
  EXPECT_DOUBLE_EQ(g[edge].latency, 4e-6);
}

// ---- link helpers the engine shares -------------------------------------------

TEST(ClusterGraphLinks, PortCarriesHalfTheIntraNodeLatency) {
  const NodeGroup group = make_group("a", 1, 8, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6});
  const LinkSpec port = ClusterGraph::port_link(group);
  EXPECT_DOUBLE_EQ(port.bandwidth, 150e9);
  EXPECT_DOUBLE_EQ(port.latency, 1e-6);
  EXPECT_DOUBLE_EQ(ClusterGraph::port_latency(group), 1e-6);
}

TEST(ClusterGraphLinks, NicIsTheGroupsNic) {
  const NodeGroup group = make_group("a", 1, 8, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6});
  EXPECT_DOUBLE_EQ(ClusterGraph::nic_link(group).bandwidth, 12.5e9);
  EXPECT_DOUBLE_EQ(ClusterGraph::nic_link(group).latency, 5e-6);
}

// A rack of nodes of one NIC has one leaf, numbered as the rack.
TEST(ClusterGraphLinks, RackUplinkSumsItsNicsOverOversubscription) {
  const ClusterLayout layout(two_rack_cluster());
  const std::vector<LinkSpec>& uplinks = layout.fabric().links().leaf_uplinks;
  ASSERT_EQ(uplinks.size(), 2u);
  EXPECT_DOUBLE_EQ(uplinks[0].bandwidth, (10e9 + 10e9) / 2);
  EXPECT_DOUBLE_EQ(uplinks[1].bandwidth, (10e9 + 4e9) / 2);
  EXPECT_DOUBLE_EQ(uplinks[1].latency, 1e-6);
}

TEST(ClusterGraphLinks, PartialLastRackSumsOnlyItsNodes) {
  ClusterSpec spec = two_rack_cluster();
  spec.node_groups.pop_back();  // a-0, a-1 | a-2
  const ClusterLayout layout(spec);
  ASSERT_EQ(layout.rack_count(), 2u);
  EXPECT_DOUBLE_EQ(layout.fabric().links().leaf_uplinks.at(1).bandwidth, 10e9 / 2);
}

// ---- a rail-optimized fabric (tests/support/crafted_specs.hpp) --------------------
//
//   n-0: GPU 0 (rail 0), GPU 1 (rail 1); n-1: GPU 2 (rail 0), GPU 3 (rail 1)
//   ports 450 GB/s, 1 us; a NIC per GPU, 50 GB/s, 2 us; leaf uplinks 25 GB/s, 3 us

// Every route is a walk in the graph: from GPU a, each link of the route is an
// edge of the vertex reached so far (same kind and index), and the walk ends at GPU b.
void expect_route_is_a_walk(const ClusterGraph& graph, GpuId a, GpuId b) {
  SCOPED_TRACE(std::to_string(a) + " -> " + std::to_string(b));
  const auto& g = graph.graph();
  ClusterGraph::VertexId at = graph.gpu_vertex(a);
  for (const FabricHop& hop : graph.route(a, b)) {
    bool crossed = false;
    for (auto [it, end] = boost::out_edges(at, g); it != end && !crossed; ++it) {
      if (g[*it].kind != ClusterGraph::link_kind(hop.kind) || g[*it].index != hop.index) continue;
      at = boost::target(*it, g);
      crossed = true;
    }
    ASSERT_TRUE(crossed) << "no edge for link " << hop.index << " at vertex " << at;
  }
  EXPECT_EQ(at, graph.gpu_vertex(b));
}

const PathCase kRailCases[] = {
    {"SameNodeOverNvlink", 0, 1, 2, 450e9, 1e-6 + 1e-6},
    {"SameNodeRail1", 2, 3, 2, 450e9, 1e-6 + 1e-6},
    // NIC, NIC: one leaf
    {"SameRail", 0, 2, 2, 50e9, 2e-6 + 2e-6},
    {"SameRailRail1", 3, 1, 2, 50e9, 2e-6 + 2e-6},
    // NIC, leaf uplink, leaf uplink, NIC: across the spine, whose uplinks are the narrowest
    {"CrossRail", 0, 3, 4, 25e9, 2e-6 + 3e-6 + 3e-6 + 2e-6},
    {"CrossRailBack", 2, 1, 4, 25e9, 2e-6 + 3e-6 + 3e-6 + 2e-6},
};

class TinyRailPath : public ::testing::TestWithParam<PathCase> {};

TEST_P(TinyRailPath, FollowsTheRouteCountedByHand) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const ClusterGraph graph(layout);
  const PathCase& c = GetParam();
  EXPECT_EQ(graph.hops(c.a, c.b), c.hops);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(c.a, c.b), c.bottleneck);
  EXPECT_NEAR(graph.path_latency(c.a, c.b), c.latency, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(HandCounted, TinyRailPath, ::testing::ValuesIn(kRailCases),
                         [](const ::testing::TestParamInfo<PathCase>& info) { return info.param.name; });

// With PXN a cross-rail transfer crosses the sender's port, the relay's port
// and the relay's NIC: NVLink instead of the spine's narrower uplinks.
const PathCase kRailPxnCases[] = {
    {"SameRailUnchanged", 0, 2, 2, 50e9, 2e-6 + 2e-6},
    {"CrossRailRelayed", 0, 3, 4, 50e9, 1e-6 + 1e-6 + 2e-6 + 2e-6},
    {"CrossRailRelayedBack", 2, 1, 4, 50e9, 1e-6 + 1e-6 + 2e-6 + 2e-6},
};

class TinyRailPxnPath : public ::testing::TestWithParam<PathCase> {};

TEST_P(TinyRailPxnPath, FollowsTheRouteCountedByHand) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  const ClusterGraph graph(layout);
  const PathCase& c = GetParam();
  EXPECT_EQ(graph.hops(c.a, c.b), c.hops);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(c.a, c.b), c.bottleneck);
  EXPECT_NEAR(graph.path_latency(c.a, c.b), c.latency, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(HandCounted, TinyRailPxnPath, ::testing::ValuesIn(kRailPxnCases),
                         [](const ::testing::TestParamInfo<PathCase>& info) { return info.param.name; });

TEST(RailClusterGraph, EachGpuHangsOffItsNodeSwitchAndItsRailsLeaf) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const ClusterGraph graph(layout);
  const auto& g = graph.graph();
  EXPECT_EQ(graph.vertex_count(), 4u + 2u + 2u + 1u);  // GPUs, node switches, a leaf per rail, the spine
  std::map<ClusterGraph::LinkKind, int> edges_by_kind;
  for (auto [it, end] = boost::edges(g); it != end; ++it) ++edges_by_kind[g[*it].kind];
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kPort], 4);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kNic], 4);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kUplink], 2);
  EXPECT_EQ(edges_by_kind[ClusterGraph::LinkKind::kPodUplink], 0);
  // GPU 3: its port to n-1's switch, its NIC to rail 1's leaf.
  ASSERT_EQ(boost::out_degree(graph.gpu_vertex(3), g), 2u);
  std::map<ClusterGraph::LinkKind, ClusterGraph::VertexId> far_end;
  for (auto [it, end] = boost::out_edges(graph.gpu_vertex(3), g); it != end; ++it)
    far_end[g[*it].kind] = boost::target(*it, g);
  EXPECT_EQ(far_end.at(ClusterGraph::LinkKind::kPort), graph.node_switch_vertex(1));
  EXPECT_EQ(far_end.at(ClusterGraph::LinkKind::kNic), graph.leaf_vertex(1));
  EXPECT_EQ(g[graph.leaf_vertex(1)].kind, ClusterGraph::VertexKind::kRackSwitch);
}

TEST(RailClusterGraph, EveryRouteIsAWalkInTheGraph) {
  for (bool pxn : {false, true}) {
    const ClusterLayout layout(testing::tiny_rail_cluster(pxn));
    const ClusterGraph graph(layout);
    for (GpuId a = 0; a < 4; ++a)
      for (GpuId b = 0; b < 4; ++b) expect_route_is_a_walk(graph, a, b);
  }
  for (bool pxn : {false, true}) {
    const ClusterLayout layout(testing::three_tier_rail_cluster(pxn));
    const ClusterGraph graph(layout);
    for (GpuId a = 0; a < 8; ++a)
      for (GpuId b = 0; b < 8; ++b) expect_route_is_a_walk(graph, a, b);
  }
  const ClusterLayout two_racks(two_rack_cluster());
  const ClusterGraph graph(two_racks);
  for (GpuId a = 0; a < 10; ++a)
    for (GpuId b = 0; b < 10; ++b) expect_route_is_a_walk(graph, a, b);
}

// ---- three tiers: pods of two racks under a core ---------------------------------
//
//   rack r = node n-r (GPUs 2r on rail 0, 2r+1 on rail 1), pods {0, 1} and {2, 3};
//   NICs 50 GB/s, 2 us; leaf uplinks 50 GB/s, 3 us; pod uplinks 25 GB/s, 4 us

TEST(ThreeTierClusterGraph, RacksOfAPodMeetAtItsSpineAndPodsAtTheCore) {
  const ClusterLayout layout(testing::three_tier_rail_cluster());
  const ClusterGraph graph(layout);
  // GPUs, node switches, 8 leaves, 2 spines, the core
  EXPECT_EQ(graph.vertex_count(), 8u + 4u + 8u + 2u + 1u);
  EXPECT_EQ(graph.graph()[graph.core_vertex()].kind, ClusterGraph::VertexKind::kCore);
  // One pod: NIC, leaf uplink, leaf uplink, NIC.
  EXPECT_EQ(graph.hops(0, 2), 4u);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(0, 2), 50e9);
  EXPECT_NEAR(graph.path_latency(0, 2), 2e-6 + 3e-6 + 3e-6 + 2e-6, 1e-15);
  // Two pods: and both pods' uplinks, the narrowest.
  EXPECT_EQ(graph.hops(0, 4), 6u);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(0, 4), 25e9);
  EXPECT_NEAR(graph.path_latency(0, 4), 2e-6 + 3e-6 + 4e-6 + 4e-6 + 3e-6 + 2e-6, 1e-15);
}

TEST(ThreeTierClusterGraph, APxnRelayAcrossPodsAddsTwoPortsToTheRoute) {
  const ClusterLayout layout(testing::three_tier_rail_cluster(/*pxn=*/true));
  const ClusterGraph graph(layout);
  // GPU 1 (rail 1) to GPU 6 (rail 0): port 1, port 0, then rail 0 across the core.
  EXPECT_EQ(graph.hops(1, 6), 8u);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(1, 6), 25e9);
  EXPECT_NEAR(graph.path_latency(1, 6), 1e-6 + 1e-6 + 2e-6 + 3e-6 + 4e-6 + 4e-6 + 3e-6 + 2e-6, 1e-15);
}

// ---- whole clusters -----------------------------------------------------------

TEST(ClusterGraph, SingleRackPathsNeverUseTheUplink) {
  ClusterSpec spec = two_rack_cluster();
  spec.fabric.nodes_per_rack = 4;
  spec.fabric.oversubscription = 100.0;  // a narrow uplink nobody crosses
  const ClusterLayout layout(spec);
  const ClusterGraph graph(layout);
  EXPECT_EQ(graph.hops(0, 9), 4u);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(0, 9), 4e9);
  EXPECT_NEAR(graph.path_latency(0, 9), 1e-6 + 5e-6 + 3e-6 + 4e-6, 1e-15);
}

TEST(ClusterGraph, BundledClusterHopsFollowLayout) {
  const ClusterLayout layout(
      read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-512gpu.json"));
  const ClusterGraph graph(layout);
  ASSERT_EQ(graph.vertex_count(), 512u + 64u + 4u + 1u);
  for (GpuId a = 0; a < layout.gpu_count(); ++a) {
    for (GpuId b = 0; b < layout.gpu_count(); ++b) {
      const NodeId na = layout.node_of(a), nb = layout.node_of(b);
      const std::size_t expected = a == b                                               ? 0
                                   : na == nb                                           ? 2
                                   : layout.rack_of_node(na) == layout.rack_of_node(nb) ? 4
                                                                                        : 6;
      ASSERT_EQ(graph.hops(a, b), expected) << a << " -> " << b;
    }
  }
  // 16 nodes x 12.5 GB/s / 2 = 100 GB/s per uplink: the NICs stay the bottleneck.
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(0, 511), 12.5e9);
  EXPECT_NEAR(graph.path_latency(0, 511), 1e-6 + 5e-6 + 1e-6 + 1e-6 + 5e-6 + 1e-6, 1e-15);
}

}  // namespace
}  // namespace gcsim
