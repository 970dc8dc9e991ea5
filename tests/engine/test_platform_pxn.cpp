// The SimGrid platform of a rail-optimized cluster with PXN (two nodes of two
// GPUs, a NIC per GPU, a leaf per rail; tests/support/crafted_specs.hpp): a
// transfer between rails first crosses NVLink to the sender node's GPU on the
// receiver's rail and leaves through that GPU's NIC, so it shares that NIC
// with the GPU's own flows. Routes and flow times counted by hand under CM02
// (flows sharing a link share it in inverse proportion to their routes'
// latencies once those have passed; tests/engine/test_platform_rails.cpp).
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

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

TEST(PlatformPxn, ACrossRailTransferRelaysThroughTheGpuOnTheReceiversRailAndSharesItsNic) {
  std::string program = "pxn", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv);
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const ClusterGraph graph(layout);
  const auto& gpu = platform.gpu_hosts;

  std::vector<sg4::Link*> links;
  double latency = 0;
  gpu[0]->route_to(gpu[3], links, &latency);
  std::string names;
  for (const auto* link : links) names += (names.empty() ? "" : " ") + link->get_name();
  EXPECT_EQ(names, "n-0-gpu0-port_UP n-0-gpu1-port_DOWN n-0-gpu1-nic_UP n-1-gpu1-nic_DOWN");
  EXPECT_NEAR(latency, 1e-6 + 1e-6 + 2e-6 + 2e-6, 1e-15);
  for (GpuId a = 0; a < 4; ++a)
    for (GpuId b = 0; b < 4; ++b)
      if (a != b) expect_route_matches_graph(layout, platform, graph, a, b);

  constexpr std::uint64_t kBytes = 100'000'000;
  const auto seconds =
      testing::run_flow_phases(gpu[0], {
                                           // Alone: 6 us + 100e6 / 50e9 (the NICs; NVLink is 450 GB/s).
                                           {{gpu[0], gpu[3], kBytes}},
                                           // GPU 0 to 3 relayed through GPU 1's NIC (6 us), beside GPU 1 to 3 on that
                                           // NIC (4 us). GPU 1's flow is alone from 4 us to 6 us (100 kB at 50 GB/s),
                                           // then the two share 50 GB/s in the ratio 1/4 : 1/6, 30 and 20 GB/s: GPU 1's
                                           // flow ends at 6 us + 99.9e6 / 30e9 = 3.336 ms, the relayed one has 33.4 MB
                                           // left, alone at 50 GB/s: 3.336 ms + 0.668 ms = 4.004 ms.
                                           {{gpu[0], gpu[3], kBytes}, {gpu[1], gpu[3], kBytes}},
                                       });
  ASSERT_EQ(seconds.size(), 2u);
  constexpr double kTolerance = 1e-9;
  EXPECT_NEAR(seconds[0][0], 6e-6 + 2e-3, kTolerance);
  EXPECT_NEAR(seconds[1][1], 6e-6 + 99.9e6 / 30e9, kTolerance);
  EXPECT_NEAR(seconds[1][0], 6e-6 + 99.9e6 / 30e9 + (100e6 - 99.9e6 / 30e9 * 20e9) / 50e9, kTolerance);
  EXPECT_NEAR(seconds[1][0], 4.004e-3, kTolerance);
}

}  // namespace
}  // namespace gcsim
