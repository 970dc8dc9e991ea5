// The platform of the bundled 20,000-GPU cluster (2,500 nodes, 79 racks, the
// last one partial) routes like the locality graph: from its first GPU to
// every GPU of its own node, to the first GPU of every other node, and from
// the last GPU of every rack to GPUs in the last rack, the same links,
// latency and bottleneck. Its routes are computed from node and rack, so they
// must hold far from the first nodes too.
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

TEST(PlatformLarge, RoutesOfTheTwentyThousandGpuClusterMatchTheLocalityGraph) {
  std::string program = "large", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  const ClusterLayout layout(
      read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-20k-gpu.json"));
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const ClusterGraph graph(layout);
  ASSERT_EQ(platform.gpu_hosts.size(), 20000u);
  ASSERT_EQ(layout.rack_count(), 79u);

  const auto expect_same_path = [&](GpuId a, GpuId b) { expect_route_matches_graph(layout, platform, graph, a, b); };

  for (GpuId b : layout.node(0).gpus)
    if (b != 0) expect_same_path(0, b);
  for (NodeId n = 1; n < layout.node_count(); ++n) expect_same_path(0, layout.node(n).gpus.front());
  const RackId last_rack = layout.rack_count() - 1;
  const GpuId last_gpu = layout.node(layout.nodes_of_rack(last_rack).back()).gpus.back();
  for (RackId r = 0; r < layout.rack_count(); ++r) {
    const GpuId from = layout.node(layout.nodes_of_rack(r).back()).gpus.back();
    if (from != last_gpu) expect_same_path(from, last_gpu);
    expect_same_path(last_gpu, layout.node(layout.nodes_of_rack(r).front()).gpus.front());
  }
}

}  // namespace
}  // namespace gcsim
