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
