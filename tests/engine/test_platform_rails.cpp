// The SimGrid platform of a rail-optimized cluster (two nodes of two GPUs,
// a NIC per GPU, a leaf per rail; tests/support/crafted_specs.hpp): every
// route counted by hand, link by link, and flows started together that share,
// or do not share, a rail's links, their times worked out by hand under CM02:
// a flow of S bytes alone takes its route's latency + S / its bottleneck;
// flows crossing one link in one direction share it once their latency has
// passed, max-min fair with each flow weighted by the inverse of its route's
// latency (SimGrid's CM02 penalizes a flow by its latency), so flows of equal
// latency split it equally.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_builder.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flow_phases.hpp"
#include "tests/support/platform_paths.hpp"

namespace gcsim {
namespace {

namespace sg4 = simgrid::s4u;

// The links of a route by name, e.g. "n-0-gpu0-nic rack0-rail0-uplink ...".
std::string link_names(sg4::Host* from, sg4::Host* to, double* latency) {
  std::vector<sg4::Link*> links;
  from->route_to(to, links, latency);
  std::string names;
  for (const auto* link : links) names += (names.empty() ? "" : " ") + link->get_name();
  return names;
}

TEST(PlatformRails, RoutesAndSharedRailLinksAsCountedByHand) {
  std::string program = "rails", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv);
  const ClusterLayout layout(testing::tiny_rail_cluster());
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const ClusterGraph graph(layout);
  const auto& gpu = platform.gpu_hosts;
  ASSERT_EQ(gpu.size(), 4u);

  // Routes: NVLink inside a node, one leaf on a rail, the spine between rails.
  double latency = 0;
  EXPECT_EQ(link_names(gpu[0], gpu[1], &latency), "n-0-gpu0-port_UP n-0-gpu1-port_DOWN");
  EXPECT_NEAR(latency, 1e-6 + 1e-6, 1e-15);
  latency = 0;
  EXPECT_EQ(link_names(gpu[0], gpu[2], &latency), "n-0-gpu0-nic_UP n-1-gpu0-nic_DOWN");
  EXPECT_NEAR(latency, 2e-6 + 2e-6, 1e-15);
  latency = 0;
  EXPECT_EQ(link_names(gpu[0], gpu[3], &latency),
            "n-0-gpu0-nic_UP rack0-rail0-uplink_UP rack0-rail1-uplink_DOWN n-1-gpu1-nic_DOWN");
  EXPECT_NEAR(latency, 2e-6 + 3e-6 + 3e-6 + 2e-6, 1e-15);
  latency = 0;
  EXPECT_EQ(link_names(gpu[3], gpu[1], &latency), "n-1-gpu1-nic_UP n-0-gpu1-nic_DOWN");
  for (const auto* link : {"n-0-gpu0-nic_UP", "n-1-gpu1-nic_DOWN"})
    EXPECT_DOUBLE_EQ(sg4::Link::by_name(link)->get_bandwidth(), 50e9) << link;
  EXPECT_DOUBLE_EQ(sg4::Link::by_name("rack0-rail1-uplink_UP")->get_bandwidth(), 25e9);
  for (GpuId a = 0; a < 4; ++a)
    for (GpuId b = 0; b < 4; ++b)
      if (a != b) expect_route_matches_graph(layout, platform, graph, a, b);

  // Flows of 100 MB: alone on a NIC, 100e6 / 50e9 = 2 ms; through the spine, 100e6 / 25e9 = 4 ms.
  constexpr std::uint64_t kBytes = 100'000'000;
  const auto seconds = testing::run_flow_phases(
      gpu[0], {
                  // Two rails, no link in common: each alone, 4 us + 2 ms.
                  {{gpu[0], gpu[2], kBytes}, {gpu[1], gpu[3], kBytes}},
                  // Into GPU 2's NIC from its rail (4 us) and from the other rail (through both
                  // leaves' uplinks, 25 GB/s, 10 us). From 4 us to 10 us the first flow is alone
                  // at 50 GB/s (300 kB); then they share the NIC in the ratio 1/4 : 1/10, the first
                  // at 50 x 10/14 GB/s until 10 us + 99.7e6 x 14 / 500e9 = 2.8016 ms, the second at
                  // 50 x 4/14 GB/s meanwhile (39.88 MB), then alone at its uplinks' 25 GB/s:
                  // 2.8016 ms + 60.12e6 / 25e9 = 5.2064 ms. Alone it would take 10 us + 4 ms.
                  {{gpu[0], gpu[2], kBytes}, {gpu[1], gpu[2], kBytes}},
                  // Both ways between the rails: each leaf uplink is crossed once up and once
                  // down, and the directions do not share: each alone, 10 us + 4 ms.
                  {{gpu[0], gpu[3], kBytes}, {gpu[1], gpu[2], kBytes}},
                  // From rail 0 to rail 1 twice (GPU 0 to 3, GPU 2 to 1), of equal latency: both
                  // cross rail 0's uplink up and rail 1's down, 12.5 GB/s each: 10 us + 8 ms.
                  {{gpu[0], gpu[3], kBytes}, {gpu[2], gpu[1], kBytes}},
              });
  ASSERT_EQ(seconds.size(), 4u);
  constexpr double kTolerance = 1e-9;
  EXPECT_NEAR(seconds[0][0], 4e-6 + 2e-3, kTolerance);
  EXPECT_NEAR(seconds[0][1], 4e-6 + 2e-3, kTolerance);
  const double shared_until = 10e-6 + 99.7e6 * 14 / 500e9;
  EXPECT_NEAR(seconds[1][0], shared_until, kTolerance);
  EXPECT_NEAR(seconds[1][1], shared_until + (100e6 - (shared_until - 10e-6) * 50e9 * 4 / 14) / 25e9, kTolerance);
  EXPECT_NEAR(seconds[1][1], 5.2064e-3, kTolerance);
  EXPECT_NEAR(seconds[2][0], 10e-6 + 4e-3, kTolerance);
  EXPECT_NEAR(seconds[2][1], 10e-6 + 4e-3, kTolerance);
  EXPECT_NEAR(seconds[3][0], 10e-6 + 8e-3, kTolerance);
  EXPECT_NEAR(seconds[3][1], 10e-6 + 8e-3, kTolerance);
}

}  // namespace
}  // namespace gcsim
