// A CPU node in the SimGrid platform: no GPU host, a NIC, and a CPU host
// routed through that NIC (no port of its own); a GPU of its own node is
// reached through that GPU's port alone. Every link and latency counted by
// hand on a crafted cluster of a CPU node and two GPU nodes in two racks.
//
// One SimGrid engine per process: this program holds a single test.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_builder.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/platform_paths.hpp"

namespace gcsim {
namespace {

namespace sg4 = simgrid::s4u;

// Rack 0: cpu-0 (no GPU, NIC 3.125 GB/s, 7 us) and gpu-0 (2 GPUs, ports of
// 150 GB/s and 1 us, NIC 12.5 GB/s, 5 us); rack 1: gpu-1. Uplinks 1 us.
ClusterSpec cpu_node_and_two_gpu_nodes() {
  ClusterSpec spec;
  spec.name = "cpu-nodes";
  spec.gpu_types = {{"fast", 2e13, 32e9}};
  NodeGroup cpus{"cpu", 1, 0, "", 28, 192e9, IntraNodeKind::kPcie, {}, {3.125e9, 7e-6}};
  NodeGroup gpus{"gpu", 2, 2, "fast", 32, 256e9, IntraNodeKind::kNvlink, {150e9, 2e-6}, {12.5e9, 5e-6}};
  spec.node_groups = {cpus, gpus};
  spec.fabric = {2, 1.0, 1e-6};
  return spec;
}

struct Route {
  std::size_t links = 0;
  double latency = 0;
  double bottleneck = std::numeric_limits<double>::infinity();
};

Route route(sg4::Host* from, sg4::Host* to) {
  std::vector<sg4::Link*> links;
  Route r;
  from->route_to(to, links, &r.latency);
  r.links = links.size();
  for (const auto* link : links) r.bottleneck = std::min(r.bottleneck, link->get_bandwidth());
  return r;
}

TEST(PlatformCpuNodes, ACpuNodeHasNoGpuHostAndItsCpuHostIsRoutedThroughItsNic) {
  std::string program = "cpu_nodes", log = "--log=root.thres:warning";
  char* argv[] = {program.data(), log.data(), nullptr};
  int argc = 2;
  sg4::Engine engine(&argc, argv);
  const ClusterLayout layout(cpu_node_and_two_gpu_nodes());
  configure_network_model(layout.spec().network);
  const SimGridPlatform platform = build_platform(layout, /*cpu_hosts=*/true);
  const ClusterGraph graph(layout);

  ASSERT_EQ(platform.gpu_hosts.size(), 4u);
  ASSERT_EQ(platform.cpu_hosts.size(), 3u);
  EXPECT_EQ(platform.gpu_hosts[0]->get_name(), "gpu-0-gpu0");
  EXPECT_EQ(platform.cpu_hosts[0]->get_name(), "cpu-0-cpu");
  EXPECT_DOUBLE_EQ(platform.cpu_hosts[0]->get_speed(), 28);
  EXPECT_EQ(platform.control_host(), platform.gpu_hosts[0]);
  // GPU to GPU: as before, as the locality graph says.
  for (GpuId a = 0; a < 4; ++a)
    for (GpuId b = 0; b < 4; ++b)
      if (a != b) expect_route_matches_graph(layout, platform, graph, a, b);

  sg4::Host* cpu0 = platform.cpu_hosts[0];  // the CPU node, rack 0
  sg4::Host* cpu1 = platform.cpu_hosts[1];  // gpu-0's cores, rack 0
  sg4::Host* cpu2 = platform.cpu_hosts[2];  // gpu-1's cores, rack 1
  // Same rack: NIC up, NIC down.
  Route r = route(cpu0, cpu1);
  EXPECT_EQ(r.links, 2u);
  EXPECT_NEAR(r.latency, 7e-6 + 5e-6, 1e-15);
  EXPECT_DOUBLE_EQ(r.bottleneck, 3.125e9);
  // Two racks: NIC, uplink, uplink, NIC (rack 0's uplink: 3.125 + 12.5 GB/s).
  r = route(cpu0, cpu2);
  EXPECT_EQ(r.links, 4u);
  EXPECT_NEAR(r.latency, 7e-6 + 1e-6 + 1e-6 + 5e-6, 1e-15);
  // Into a GPU of the same node: that GPU's port alone.
  r = route(cpu1, platform.gpu_hosts[1]);
  EXPECT_EQ(r.links, 1u);
  EXPECT_NEAR(r.latency, 1e-6, 1e-15);
  EXPECT_DOUBLE_EQ(r.bottleneck, 150e9);
  // Out of a GPU of another node: its port, NICs, and no port on the CPU side.
  r = route(platform.gpu_hosts[2], cpu0);
  EXPECT_EQ(r.links, 5u);
  EXPECT_NEAR(r.latency, 1e-6 + 5e-6 + 1e-6 + 1e-6 + 7e-6, 1e-15);
  EXPECT_DOUBLE_EQ(r.bottleneck, 3.125e9);
}

}  // namespace
}  // namespace gcsim
