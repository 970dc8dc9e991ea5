// Where a parameter-server job's servers run and how long a push or a pull
// takes on the busiest link, counted by hand on crafted placements.
#include "sim/model/parameter_server_cost.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(ParameterServerHosts, SpreadEvenlyOverTheJobsGpus) {
  // 8 workers, 2 servers: GPUs 0 and 4; 3 servers: 0, 2 and 5.
  EXPECT_EQ(parameter_server_host(0, 2, 8), 0u);
  EXPECT_EQ(parameter_server_host(1, 2, 8), 4u);
  EXPECT_EQ(parameter_server_host(1, 3, 8), 2u);
  EXPECT_EQ(parameter_server_host(2, 3, 8), 5u);
  // More servers than workers: several on one host.
  EXPECT_EQ(parameter_server_host(3, 4, 2), 1u);
}

TEST(PackedJobLinks, FillNodesThenRacks) {
  // 10 GPUs, 4 per node, 2 nodes per rack: nodes 0, 0, 0, 0, 1, 1, 1, 1, 2, 2; racks 0, 0, 1.
  const JobLinks links = packed_job_links(10, 4, 2, 100e9, 10e9, 15e9);
  EXPECT_EQ(links.node_of_gpu, (std::vector<std::uint32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
  std::vector<std::uint32_t> rack_of_gpu;  // a rack of one-NIC nodes has one leaf, numbered as the rack
  for (const FabricPlace& place : links.places) rack_of_gpu.push_back(place.leaf());
  EXPECT_EQ(rack_of_gpu, (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(links.fabric.nics.size(), 3u);
  ASSERT_EQ(links.fabric.leaf_uplinks.size(), 2u);
  EXPECT_EQ(links.fabric.leaf_uplinks[0].bandwidth, 15e9);
  EXPECT_EQ(links.fabric.leaf_uplinks[1].bandwidth, 15e9);
}

TEST(ParameterServerPhase, OneServerTakesEveryOtherWorkersGradientsThroughItsNic) {
  // 4 workers on 4 nodes: three push S each into node 0's NIC (10 GB/s).
  const JobLinks links = packed_job_links(4, 1, 4, 100e9, 10e9, 40e9);
  EXPECT_DOUBLE_EQ(parameter_server_phase_seconds_per_byte(links, 1), 3 / 10e9);
}

TEST(ParameterServerPhase, MoreServersSpreadTheLoad) {
  // Servers on nodes 0 and 2 take S/2 from three workers each (1.5 S); node
  // 1 sends S/2 to each (S) through its NIC.
  const JobLinks links = packed_job_links(4, 1, 4, 100e9, 10e9, 40e9);
  EXPECT_DOUBLE_EQ(parameter_server_phase_seconds_per_byte(links, 2), 1.5 / 10e9);
}

TEST(ParameterServerPhase, TheBusiestLinkMayBeAPortOrAnUplink) {
  // One node of 8: the server's port takes 7 S at 100 GB/s.
  EXPECT_DOUBLE_EQ(parameter_server_phase_seconds_per_byte(packed_job_links(8, 8, 1, 100e9, 10e9, 10e9), 1), 7 / 100e9);
  // Two racks of one node of 2 GPUs, uplinks of 1 GB/s: the server on GPU 0
  // takes S from each of the two workers of the other rack through rack 0's
  // uplink (2 S at 1 GB/s), more than its NIC's 2 S at 10 GB/s.
  EXPECT_DOUBLE_EQ(parameter_server_phase_seconds_per_byte(packed_job_links(4, 2, 1, 100e9, 10e9, 1e9), 1), 2 / 1e9);
}

TEST(ParameterServerPhase, NothingCrossesALinkForOneWorker) {
  EXPECT_EQ(parameter_server_phase_seconds_per_byte(packed_job_links(1, 8, 1, 100e9, 10e9, 10e9), 4), 0);
}

}  // namespace
}  // namespace gcsim
