// The SimGrid platform and the Boost locality graph describe the same
// network: for every pair of GPUs, the same number of links, the same summed
// latency and the same bottleneck bandwidth. Policies reason on the graph;
// jobs run on the platform; they must not disagree.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_builder.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/platform_paths.hpp"

namespace gcsim {
namespace {

ClusterSpec two_racks_two_kinds_of_node() {
  ClusterSpec spec;
  spec.name = "routes";
  spec.gpu_types = {{"fast", 2e13, 32e9}, {"slow", 5e12, 12e9}};
  NodeGroup nvlink{"nv", 3, 4, "fast", 32, 256e9, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6}};
  NodeGroup pcie{"pc", 2, 2, "slow", 16, 128e9, IntraNodeKind::kPcie, {16e9, 8e-6}, {3.125e9, 7e-6}};
  spec.node_groups = {nvlink, pcie};
  spec.fabric = {3, 2.0, 1e-6};  // racks {nv-0, nv-1, nv-2} and {pc-0, pc-1}
  return spec;
}

TEST(PlatformRoutes, EveryGpuPairMatchesTheLocalityGraph) {
  std::string program = "routes", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  const ClusterLayout layout(two_racks_two_kinds_of_node());
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout);
  const ClusterGraph graph(layout);

  ASSERT_EQ(platform.gpu_hosts.size(), layout.gpu_count());
  for (GpuId a = 0; a < layout.gpu_count(); ++a) {
    EXPECT_DOUBLE_EQ(platform.gpu_hosts[a]->get_speed(), layout.gpu_type_of(a).flops);
    for (GpuId b = 0; b < layout.gpu_count(); ++b) {
      if (a == b) continue;
      expect_route_matches_graph(layout, platform, graph, a, b);
    }
  }
}

}  // namespace
}  // namespace gcsim
