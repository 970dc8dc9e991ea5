// The links of a fabric (FabricLayout) and the routes between its endpoints
// (fabric_route), on crafted clusters whose every link and route is counted
// by hand: a rail-optimized cluster of two nodes of two GPUs, with and
// without PXN; three tiers of pods; nodes sharing one NIC.
#include "sim/core/fabric_route.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/fabric_layout.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

using Kind = FabricLinkKind;

FabricHop up(Kind kind, std::uint32_t index) { return FabricHop{kind, index, true}; }
FabricHop down(Kind kind, std::uint32_t index) { return FabricHop{kind, index, false}; }

std::string describe(const FabricHop& hop) {
  static const char* const kNames[] = {"port", "nic", "leaf", "pod"};
  return std::string(kNames[static_cast<int>(hop.kind)]) + std::to_string(hop.index) + (hop.up ? "^" : "v");
}

// The route as text, e.g. "nic0^ leaf0^ leaf1v nic3v", so a failure shows it whole.
std::string describe(const FabricRoute& route) {
  std::string text;
  for (const FabricHop& hop : route) text += (text.empty() ? "" : " ") + describe(hop);
  return text;
}

std::string hops_text(const std::vector<FabricHop>& hops) {
  FabricRoute route;
  for (const FabricHop& hop : hops) route.push(hop.kind, hop.index, hop.up);
  return describe(route);
}

std::string gpu_route(const ClusterLayout& layout, GpuId a, GpuId b) {
  const FabricLayout& fabric = layout.fabric();
  return describe(fabric.route(fabric.gpu_place(a), fabric.gpu_place(b)));
}

// ---- the links of the tiny rail cluster ----------------------------------------

TEST(RailFabricLayout, EachGpuHasItsOwnNicOnTheLeafOfItsRail) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const FabricLayout& fabric = layout.fabric();
  ASSERT_EQ(fabric.links().nics.size(), 4u);
  EXPECT_EQ(fabric.first_nic(0), 0u);
  EXPECT_EQ(fabric.nic_count(0), 2u);
  EXPECT_EQ(fabric.first_nic(1), 2u);
  EXPECT_EQ(fabric.leaf_of_nic(0), 0u);  // n-0's GPU 0: rail 0
  EXPECT_EQ(fabric.leaf_of_nic(1), 1u);  // n-0's GPU 1: rail 1
  EXPECT_EQ(fabric.leaf_of_nic(2), 0u);
  EXPECT_EQ(fabric.leaf_of_nic(3), 1u);
  EXPECT_EQ(fabric.links().nics[3].bandwidth, 50e9);
  EXPECT_EQ(fabric.links().nics[3].latency, 2e-6);
  EXPECT_TRUE(fabric.gpu_place(3).own_nic);
  EXPECT_EQ(fabric.gpu_place(3).nic, 3u);
  EXPECT_EQ(fabric.gpu_place(3).rail, 1u);
}

TEST(RailFabricLayout, ARailGroupHasALeafPerRailEachCarryingItsNicsOverTheOversubscription) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const FabricLayout& fabric = layout.fabric();
  EXPECT_EQ(fabric.leaf_count(0), 2u);
  ASSERT_EQ(fabric.links().leaf_uplinks.size(), 2u);
  for (const LinkSpec& uplink : fabric.links().leaf_uplinks) {
    EXPECT_EQ(uplink.bandwidth, 2 * 50e9 / 4);
    EXPECT_EQ(uplink.latency, 3e-6);
  }
  EXPECT_EQ(fabric.pod_count(), 1u);
  EXPECT_TRUE(fabric.links().pod_uplinks.empty());
}

TEST(RailFabricLayout, WithoutRailsEveryNicOfARackPlugsIntoItsOneSwitch) {
  ClusterSpec spec = testing::tiny_rail_cluster();
  spec.fabric.rail_optimized = false;
  const ClusterLayout layout(spec);
  const FabricLayout& fabric = layout.fabric();
  EXPECT_EQ(fabric.leaf_count(0), 1u);
  ASSERT_EQ(fabric.links().leaf_uplinks.size(), 1u);
  EXPECT_EQ(fabric.links().leaf_uplinks[0].bandwidth, 4 * 50e9 / 4);
  for (std::uint32_t nic = 0; nic < 4; ++nic) EXPECT_EQ(fabric.leaf_of_nic(nic), 0u);
  // The four NICs meet in one switch: GPU 0 to GPU 3 crosses their two NICs alone.
  EXPECT_EQ(gpu_route(layout, 0, 3), hops_text({up(Kind::kNic, 0), down(Kind::kNic, 3)}));
}

// ---- routes of the tiny rail cluster, GPU by GPU --------------------------------

struct RouteCase {
  std::string name;
  GpuId a, b;
  std::vector<FabricHop> hops;
};

std::ostream& operator<<(std::ostream& out, const RouteCase& c) { return out << c.name; }

// Without PXN, a transfer between rails crosses the spine: both leaves' uplinks.
const RouteCase kRailRoutes[] = {
    {"SameGpu", 0, 0, {}},
    {"SameNodeOverNvlink", 0, 1, {up(Kind::kPort, 0), down(Kind::kPort, 1)}},
    {"SameNodeBack", 1, 0, {up(Kind::kPort, 1), down(Kind::kPort, 0)}},
    {"SameRailOneLeaf", 0, 2, {up(Kind::kNic, 0), down(Kind::kNic, 2)}},
    {"SameRailOneLeafRail1", 3, 1, {up(Kind::kNic, 3), down(Kind::kNic, 1)}},
    {"CrossRailThroughTheSpine",
     0,
     3,
     {up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), down(Kind::kLeafUplink, 1), down(Kind::kNic, 3)}},
    {"CrossRailThroughTheSpineBack",
     1,
     2,
     {up(Kind::kNic, 1), up(Kind::kLeafUplink, 1), down(Kind::kLeafUplink, 0), down(Kind::kNic, 2)}},
};

class TinyRailRoute : public ::testing::TestWithParam<RouteCase> {};

TEST_P(TinyRailRoute, CrossesTheLinksCountedByHand) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  EXPECT_EQ(gpu_route(layout, GetParam().a, GetParam().b), hops_text(GetParam().hops));
}

INSTANTIATE_TEST_SUITE_P(HandCounted, TinyRailRoute, ::testing::ValuesIn(kRailRoutes),
                         [](const ::testing::TestParamInfo<RouteCase>& info) { return info.param.name; });

// With PXN the same pairs first cross NVLink to the GPU on the receiver's rail.
const RouteCase kPxnRoutes[] = {
    {"SameNodeUnchanged", 0, 1, {up(Kind::kPort, 0), down(Kind::kPort, 1)}},
    {"SameRailUnchanged", 0, 2, {up(Kind::kNic, 0), down(Kind::kNic, 2)}},
    {"CrossRailRelaysOverNvlink",
     0,
     3,
     {up(Kind::kPort, 0), down(Kind::kPort, 1), up(Kind::kNic, 1), down(Kind::kNic, 3)}},
    {"CrossRailRelaysOverNvlinkBack",
     3,
     0,
     {up(Kind::kPort, 3), down(Kind::kPort, 2), up(Kind::kNic, 2), down(Kind::kNic, 0)}},
};

class TinyRailPxnRoute : public ::testing::TestWithParam<RouteCase> {};

TEST_P(TinyRailPxnRoute, CrossesTheLinksCountedByHand) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  FabricRoute route =
      layout.fabric().route(layout.fabric().gpu_place(GetParam().a), layout.fabric().gpu_place(GetParam().b));
  EXPECT_EQ(describe(route), hops_text(GetParam().hops));
  EXPECT_EQ(route.relayed, GetParam().hops.size() == 4 && GetParam().hops[0].kind == Kind::kPort);
}

INSTANTIATE_TEST_SUITE_P(HandCounted, TinyRailPxnRoute, ::testing::ValuesIn(kPxnRoutes),
                         [](const ::testing::TestParamInfo<RouteCase>& info) { return info.param.name; });

// ---- CPU hosts on a rail node ----------------------------------------------------

TEST(RailFabricRoute, ANodesCpuCoresSendThroughItsFirstNicAndReachItsGpusThroughTheirPorts) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  const FabricLayout& fabric = layout.fabric();
  // n-0's cores to GPU 3 (rail 1 of n-1): rail 0's NIC, across the spine; PXN relays GPUs alone.
  EXPECT_EQ(describe(fabric.route(fabric.cpu_place(0), fabric.gpu_place(3))),
            hops_text({up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), down(Kind::kLeafUplink, 1), down(Kind::kNic, 3)}));
  EXPECT_EQ(describe(fabric.route(fabric.cpu_place(0), fabric.cpu_place(1))),
            hops_text({up(Kind::kNic, 0), down(Kind::kNic, 2)}));
  EXPECT_EQ(describe(fabric.route(fabric.cpu_place(1), fabric.gpu_place(3))), hops_text({down(Kind::kPort, 3)}));
  EXPECT_EQ(describe(fabric.route(fabric.gpu_place(1), fabric.cpu_place(0))), hops_text({up(Kind::kPort, 1)}));
  EXPECT_EQ(fabric.route(fabric.cpu_place(1), fabric.cpu_place(1)).size, 0u);
}

// ---- three tiers -----------------------------------------------------------------

TEST(ThreeTierFabricLayout, PodsOfTwoRacksHaveAnUplinkEachCarryingTheirLeavesOverThePodOversubscription) {
  const ClusterLayout layout(testing::three_tier_rail_cluster());
  const FabricLayout& fabric = layout.fabric();
  ASSERT_EQ(layout.rack_count(), 4u);
  EXPECT_EQ(fabric.pod_count(), 2u);
  EXPECT_EQ(fabric.pod_of_rack(1), 0u);
  EXPECT_EQ(fabric.pod_of_rack(2), 1u);
  ASSERT_EQ(fabric.links().leaf_uplinks.size(), 8u);
  EXPECT_EQ(fabric.links().leaf_uplinks[5].bandwidth, 50e9);
  ASSERT_EQ(fabric.links().pod_uplinks.size(), 2u);
  for (const LinkSpec& uplink : fabric.links().pod_uplinks) {
    EXPECT_EQ(uplink.bandwidth, 4 * 50e9 / 8);
    EXPECT_EQ(uplink.latency, 4e-6);
  }
}

TEST(ThreeTierFabricRoute, RacksOfOnePodMeetAtItsSpineAndPodsAtTheCore) {
  const ClusterLayout layout(testing::three_tier_rail_cluster());
  // GPU 0 (rack 0, rail 0) to GPU 2 (rack 1, rail 0), one pod: leaf 0 to leaf 2.
  EXPECT_EQ(gpu_route(layout, 0, 2),
            hops_text({up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), down(Kind::kLeafUplink, 2), down(Kind::kNic, 2)}));
  // GPU 0 to GPU 4 (rack 2, pod 1): up through pod 0's uplink, down through pod 1's.
  EXPECT_EQ(gpu_route(layout, 0, 4),
            hops_text({up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), up(Kind::kPodUplink, 0), down(Kind::kPodUplink, 1),
                       down(Kind::kLeafUplink, 4), down(Kind::kNic, 4)}));
}

TEST(ThreeTierFabricRoute, APxnRelayAcrossPodsCrossesEightLinks) {
  const ClusterLayout layout(testing::three_tier_rail_cluster(/*pxn=*/true));
  // GPU 1 (rack 0, rail 1) to GPU 6 (rack 3, rail 0): to GPU 0 over NVLink, then rail 0 across the core.
  EXPECT_EQ(
      gpu_route(layout, 1, 6),
      hops_text({up(Kind::kPort, 1), down(Kind::kPort, 0), up(Kind::kNic, 0), up(Kind::kLeafUplink, 0),
                 up(Kind::kPodUplink, 0), down(Kind::kPodUplink, 1), down(Kind::kLeafUplink, 6), down(Kind::kNic, 6)}));
}

// ---- nodes sharing one NIC, as every fabric without rails has them ----------------

TEST(SharedNicFabricRoute, AGpuReachesItsNodesNicThroughItsPort) {
  ClusterSpec spec = testing::three_tier_rail_cluster();
  spec.node_groups[0].nic_per_gpu = false;
  spec.fabric.rail_optimized = false;
  const ClusterLayout layout(spec);
  EXPECT_EQ(layout.fabric().links().nics.size(), 4u);  // one a node
  EXPECT_EQ(gpu_route(layout, 1, 2),
            hops_text({up(Kind::kPort, 1), up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), down(Kind::kLeafUplink, 1),
                       down(Kind::kNic, 1), down(Kind::kPort, 2)}));
  // Across pods: the longest route a GPU of a shared NIC takes, eight links.
  EXPECT_EQ(
      gpu_route(layout, 1, 7),
      hops_text({up(Kind::kPort, 1), up(Kind::kNic, 0), up(Kind::kLeafUplink, 0), up(Kind::kPodUplink, 0),
                 down(Kind::kPodUplink, 1), down(Kind::kLeafUplink, 3), down(Kind::kNic, 3), down(Kind::kPort, 7)}));
}

// ---- route_latency's order -------------------------------------------------------

TEST(RouteLatency, SumsTheLinksBetweenThePortsFirstThenTheSendersThenTheReceiversPort) {
  FabricRoute route;
  route.push(Kind::kPort, 0, true);
  route.push(Kind::kPort, 1, false);
  route.push(Kind::kNic, 1, true);
  route.push(Kind::kNic, 3, false);
  std::vector<std::string> order;
  route_latency(route, [&order](const FabricHop& hop) {
    order.push_back(describe(hop));
    return 1.0;
  });
  // A relay's port (port1 down) lies between the endpoints; the receiver here has no port on the route.
  EXPECT_EQ(order, (std::vector<std::string>{"port1v", "nic1^", "nic3v", "port0^"}));
  FabricRoute shared;
  shared.push(Kind::kPort, 0, true);
  shared.push(Kind::kNic, 0, true);
  shared.push(Kind::kNic, 1, false);
  shared.push(Kind::kPort, 2, false);
  order.clear();
  route_latency(shared, [&order](const FabricHop& hop) {
    order.push_back(describe(hop));
    return 1.0;
  });
  EXPECT_EQ(order, (std::vector<std::string>{"nic0^", "nic1v", "port0^", "port2v"}));
}

}  // namespace
}  // namespace gcsim
