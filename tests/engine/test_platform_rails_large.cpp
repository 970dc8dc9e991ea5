// The platform of the bundled 16,384-GPU rail-optimized cluster (2,048 nodes
// of 8 GPUs, a NIC per GPU, rail groups of 32 nodes, pods of 4 rail groups
// under a core, PXN) routes like the locality graph: from its first GPU to
// every GPU of its own node and to every GPU of a node in each rail group,
// and from the last GPU of every pod back to the first pod, the same links,
// latency and bottleneck; and a few routes are counted by hand.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_builder.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/platform_paths.hpp"

namespace gcsim {
namespace {

TEST(PlatformRailsLarge, RoutesOfTheSixteenThousandGpuRailClusterMatchTheLocalityGraph) {
  std::string program = "rails_large", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  const ClusterLayout layout(
      read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/h100-rails-16k-gpu.json"));
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const ClusterGraph graph(layout);
  ASSERT_EQ(platform.gpu_hosts.size(), 16384u);
  ASSERT_EQ(layout.rack_count(), 64u);

  const auto expect_same_path = [&](GpuId a, GpuId b) { expect_route_matches_graph(layout, platform, graph, a, b); };
  for (GpuId b = 1; b < 8; ++b) expect_same_path(0, b);
  for (RackId r = 0; r < layout.rack_count(); ++r)
    for (GpuId b : layout.node(layout.nodes_of_rack(r).back()).gpus) expect_same_path(0, b);
  for (NodeId n = 127; n < layout.node_count(); n += 128) expect_same_path(layout.node(n).gpus.back(), 3);

  // By hand (NICs 50 GB/s, 2 us; ports 450 GB/s, 1 us; uplinks 1 us, non-blocking):
  // GPU 0 to GPU 8 (rail 0 of the next node): its NIC and theirs, 4 us.
  EXPECT_EQ(graph.hops(0, 8), 2u);
  EXPECT_NEAR(graph.path_latency(0, 8), 4e-6, 1e-15);
  // GPU 0 to GPU 256 (rail 0, the next rail group, one pod): NIC, two leaf uplinks, NIC.
  EXPECT_EQ(graph.hops(0, 256), 4u);
  EXPECT_NEAR(graph.path_latency(0, 256), 2e-6 + 1e-6 + 1e-6 + 2e-6, 1e-15);
  // GPU 0 to the last GPU (rail 7, pod 15): to GPU 7 over NVLink, then across the core.
  EXPECT_EQ(graph.hops(0, 16383), 8u);
  EXPECT_NEAR(graph.path_latency(0, 16383), 1e-6 + 1e-6 + 2e-6 + 1e-6 + 1e-6 + 1e-6 + 1e-6 + 2e-6, 1e-15);
  EXPECT_DOUBLE_EQ(graph.bottleneck_bandwidth(0, 16383), 50e9);
}

}  // namespace
}  // namespace gcsim
