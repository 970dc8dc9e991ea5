// What a placement costs on a rail-optimized fabric: the ring's latency and
// bandwidth, the busiest link of a step's transfers, a hierarchical
// allreduce's steps and the duration oracle's packed estimate, every figure
// counted by hand on the tiny rail cluster of tests/support/crafted_specs.hpp:
//
//   n-0: GPU 0 (rail 0), GPU 1 (rail 1)     n-1: GPU 2 (rail 0), GPU 3 (rail 1)
//   ports 450 GB/s, 1 us; a NIC per GPU, 50 GB/s, 2 us; leaf uplinks 25 GB/s, 3 us
//
// GPUs of one rail meet in one leaf (NIC, NIC: 4 us, 50 GB/s); GPUs of two
// rails cross the spine (NIC, uplink, uplink, NIC: 10 us, 25 GB/s), or with
// PXN relay over NVLink (port, port, NIC, NIC: 6 us, 50 GB/s).
#include <numeric>
#include <vector>

#include <gtest/gtest.h>

#include "sim/model/duration_oracle.hpp"
#include "sim/model/hierarchical_allreduce_cost.hpp"
#include "sim/model/job_links.hpp"
#include "sim/model/placement_costs.hpp"
#include "sim/model/ring_allreduce_cost.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

constexpr double kSameRailLatency = 2e-6 + 2e-6, kCrossRailLatency = 2e-6 + 3e-6 + 3e-6 + 2e-6;
constexpr double kRelayedLatency = 1e-6 + 1e-6 + 2e-6 + 2e-6;

// ---- ring edges --------------------------------------------------------------

TEST(RailRing, InGpuOrderTheRingCrossesRailsBetweenNodesAndPaysTheSpine) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const ClusterGraph graph(layout);
  // 0 -> 1 NVLink, 1 -> 2 rail 1 to rail 0, 2 -> 3 NVLink, 3 -> 0 rail 1 to rail 0.
  EXPECT_NEAR(ring_latency({0, 1, 2, 3}, graph, 1), kCrossRailLatency, 1e-15);
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1, 2, 3}, graph, 1), 25e9);
}

TEST(RailRing, ARingAlignedOnRailsCrossesNodesOnOneRailEach) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const ClusterGraph graph(layout);
  // 0 -> 1 NVLink, 1 -> 3 rail 1, 3 -> 2 NVLink, 2 -> 0 rail 0: one leaf each way.
  EXPECT_NEAR(ring_latency({0, 1, 3, 2}, graph, 1), kSameRailLatency, 1e-15);
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1, 3, 2}, graph, 1), 50e9);
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1, 3, 2}, graph, 0.5), 25e9);
}

TEST(RailRing, WithPxnTheCrossRailEdgesRelayOverNvlink) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  const ClusterGraph graph(layout);
  EXPECT_NEAR(ring_latency({0, 1, 2, 3}, graph, 1), kRelayedLatency, 1e-15);
  EXPECT_DOUBLE_EQ(ring_bandwidth({0, 1, 2, 3}, graph, 1), 50e9);
}

// The ring's edges all send at once: in GPU order, 1 -> 2 and 3 -> 0 both go
// up rail 1's leaf uplink and down rail 0's, each getting half of 25 GB/s.
TEST(RailRing, EdgesBetweenTheSameTwoRailsShareTheirUplinks) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const JobLinks in_gpu_order = job_links(layout, {0, 1, 2, 3});
  EXPECT_DOUBLE_EQ(shared_bandwidth(in_gpu_order, ring_transfers(4)), 12.5e9);
  // Aligned on rails, every link is crossed once in each direction at most: the NICs, 50 GB/s.
  EXPECT_DOUBLE_EQ(shared_bandwidth(job_links(layout, {0, 1, 3, 2}), ring_transfers(4)), 50e9);
  // With PXN each node's relay leaves through the NIC of the other rail: 50 GB/s.
  const ClusterLayout pxn(testing::tiny_rail_cluster(/*pxn=*/true));
  EXPECT_DOUBLE_EQ(shared_bandwidth(job_links(pxn, {0, 1, 2, 3}), ring_transfers(4)), 50e9);
  EXPECT_EQ(shared_bandwidth(job_links(layout, {2}), ring_transfers(1)), kNever);
}

TEST(RailPlacementCosts, ARingsExchangeBandwidthIsItsEdgesShareOfTheLinksTheyCross) {
  JobSpec job;
  job.id = "ring";
  job.gpus = 4;
  TrainingWork work;
  work.flops_per_iteration = 1e12;
  work.gradient_bytes = 1e9;
  work.iterations = 10;
  job.work = work;
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const ClusterGraph graph(layout);
  PlacementCosts costs = placement_costs(job, {0, 1, 2, 3}, layout, graph);
  EXPECT_NEAR(costs.exchange_latency, kCrossRailLatency, 1e-15);
  EXPECT_DOUBLE_EQ(costs.exchange_bandwidth, 12.5e9);
  costs = placement_costs(job, {0, 1, 3, 2}, layout, graph);
  EXPECT_NEAR(costs.exchange_latency, kSameRailLatency, 1e-15);
  EXPECT_DOUBLE_EQ(costs.exchange_bandwidth, 50e9);
}

// ---- the busiest link of transfers started together ---------------------------

TEST(RailJobLinks, SameRailTransfersBetweenTwoNodesEachHaveANicOfTheirOwn) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const JobLinks links = job_links(layout, {0, 1, 2, 3});
  // GPU 0 to 2 and GPU 1 to 3: NICs 0 and 1 up, 2 and 3 down, one transfer each.
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(links, {{0, 2}, {1, 3}}), 1 / 50e9);
  // One NIC per node instead: both through n-0's NIC, 2 / 50 GB/s.
  ClusterSpec shared = testing::tiny_rail_cluster();
  shared.node_groups[0].nic_per_gpu = false;
  shared.fabric.rail_optimized = false;
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(job_links(ClusterLayout(shared), {0, 1, 2, 3}), {{0, 2}, {1, 3}}),
                   2 / 50e9);
}

TEST(RailJobLinks, CrossRailTransfersShareALeafUplinkOnlyInOneDirection) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const JobLinks links = job_links(layout, {0, 1, 2, 3});
  // GPU 0 to 3 and GPU 1 to 2: rail 0's uplink once up and once down: 1 / 25 GB/s.
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(links, {{0, 3}, {1, 2}}), 1 / 25e9);
  // GPU 0 to 3 and GPU 2 to 1: both up rail 0's uplink and down rail 1's: 2 / 25 GB/s.
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(links, {{0, 3}, {2, 1}}), 2 / 25e9);
}

TEST(RailJobLinks, APxnRelayLoadsTheRelaysNicEvenWhenTheRelayIsNotTheJobs) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  // GPU 0 to 3 relays through GPU 1's NIC, which GPU 1 to 3 uses too: 2 / 50 GB/s.
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(job_links(layout, {0, 1, 2, 3}), {{0, 3}, {1, 3}}), 2 / 50e9);
  // A job of GPUs 1 and 2 alone: GPU 1 to 2 relays through GPU 0, outside the job, at 50 GB/s.
  const JobLinks pair = job_links(layout, {1, 2});
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(pair, {{0, 1}}), 1 / 50e9);
  EXPECT_EQ(pair.route(0, 1).size, 4u);
  EXPECT_TRUE(pair.route(0, 1).relayed);
  // Without PXN the same job crosses the spine: 1 / 25 GB/s.
  EXPECT_DOUBLE_EQ(
      busiest_link_seconds_per_byte(job_links(ClusterLayout(testing::tiny_rail_cluster()), {1, 2}), {{0, 1}}),
      1 / 25e9);
}

// A hierarchical allreduce's step across nodes pairs local rank r of one node
// with local rank r of the next: on rails, the same rail, one NIC each.
TEST(RailPlacementCosts, AHierarchicalAllreduceCrossesNodesRailByRail) {
  JobSpec job;
  job.id = "hierarchical";
  job.gpus = 4;
  TrainingWork work;
  work.flops_per_iteration = 1e12;
  work.gradient_bytes = 1e9;
  work.hierarchical_allreduce = true;
  job.work = work;

  const ClusterLayout rails(testing::tiny_rail_cluster());
  const ClusterGraph rail_graph(rails);
  const PlacementCosts costs = placement_costs(job, {0, 1, 2, 3}, rails, rail_graph);
  EXPECT_EQ(costs.hierarchy.nodes, 2u);
  EXPECT_EQ(costs.hierarchy.local_ranks, 2u);
  EXPECT_NEAR(costs.hierarchy.inter_node_latency, kSameRailLatency, 1e-15);
  EXPECT_DOUBLE_EQ(costs.hierarchy.inter_node_bandwidth, 50e9);
  // Inside a node: two ports, 2 us, 450 GB/s.
  EXPECT_NEAR(costs.exchange_latency, 2e-6, 1e-15);
  EXPECT_DOUBLE_EQ(costs.exchange_bandwidth, 450e9);

  // One NIC per node: the node's two rings share it, and its port is crossed.
  ClusterSpec spec = testing::tiny_rail_cluster();
  spec.node_groups[0].nic_per_gpu = false;
  spec.fabric.rail_optimized = false;
  const ClusterLayout shared(spec);
  const ClusterGraph shared_graph(shared);
  const PlacementCosts one_nic = placement_costs(job, {0, 1, 2, 3}, shared, shared_graph);
  EXPECT_NEAR(one_nic.hierarchy.inter_node_latency, 1e-6 + 2e-6 + 2e-6 + 1e-6, 1e-15);
  EXPECT_DOUBLE_EQ(one_nic.hierarchy.inter_node_bandwidth, 25e9);
}

// ---- the duration oracle's packed estimate -------------------------------------

JobSpec ring_job(std::uint32_t gpus, double gradient_bytes) {
  JobSpec job;
  job.id = "ring";
  job.gpus = gpus;
  TrainingWork work;
  work.flops_per_iteration = 1e12;  // 1 ms on a 1 PFLOP/s GPU
  work.gradient_bytes = gradient_bytes;
  work.iterations = 10;
  job.work = work;
  return job;
}

TEST(RailDurationOracle, APackedRingInGpuOrderPaysTheSpineBetweenNodes) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  // 4 GPUs on both nodes: the ring's slowest edges cross rails, 10 us, and
  // both go up rail 1's uplink and down rail 0's: 12.5 GB/s each.
  const double per_iteration = 1e-3 + 2 * 3 * (kCrossRailLatency + 1e9 / (4 * 12.5e9));
  EXPECT_NEAR(uncontended_duration(ring_job(4, 1e9), layout), 10 * per_iteration, 1e-12);
  // 2 GPUs fit one node: NVLink, 2 us and 450 GB/s.
  EXPECT_NEAR(uncontended_duration(ring_job(2, 1e9), layout), 10 * (1e-3 + 2 * (2e-6 + 1e9 / (2 * 450e9))), 1e-12);
}

TEST(RailDurationOracle, WithPxnThePackedRingRelaysOverNvlink) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  const double per_iteration = 1e-3 + 2 * 3 * (kRelayedLatency + 1e9 / (4 * 50e9));
  EXPECT_NEAR(uncontended_duration(ring_job(4, 1e9), layout), 10 * per_iteration, 1e-12);
}

TEST(RailDurationOracle, APackedHierarchicalAllreduceCrossesNodesRailByRail) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  JobSpec job = ring_job(4, 1e9);
  std::get<TrainingWork>(job.work).hierarchical_allreduce = true;
  // L = 2 local ranks, M = 2 nodes: 2(L-1) steps inside (2 us, S/L over a
  // 450 GB/s port each), 2(M-1) across (4 us, S/(L M) over a 50 GB/s NIC each).
  const double exchange = 2 * (2e-6 + 1e9 / 2 / 450e9) + 2 * (kSameRailLatency + 1e9 / 4 / 50e9);
  EXPECT_NEAR(uncontended_duration(job, layout), 10 * (1e-3 + exchange), 1e-12);
}

TEST(RailDurationOracle, PackedParameterServersPayTheirSlowestPushesLatency) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  JobSpec job = ring_job(4, 1e9);
  std::get<TrainingWork>(job.work).parameter_servers = 1;
  // One server on GPU 0: GPU 1 pushes over NVLink, GPU 2 on rail 0, GPU 3
  // across the spine (10 us). Busiest: GPU 0's NIC down (GPUs 2 and 3),
  // 2 / 50 GB/s, as busy as the 25 GB/s leaf uplinks GPU 3's push crosses
  // alone. A push and a pull per iteration.
  const double phase = kCrossRailLatency + 1e9 * 2 / 50e9;
  EXPECT_NEAR(uncontended_duration(job, layout), 10 * (1e-3 + 2 * phase), 1e-12);
}

// On a fabric of one NIC per node the oracle keeps its closed form; routed,
// the same packed placement costs the same to the last few digits.
TEST(RailDurationOracle, RoutedAndClosedFormEstimatesAgreeOnAFabricWithoutRails) {
  ClusterSpec spec;
  spec.name = "racks";
  spec.gpu_types = {GpuType{"H", 1e15, 80e9}};
  spec.node_groups = {testing::crafted_node_group("n", 12, 4, "H")};
  spec.fabric.nodes_per_rack = 4;
  spec.fabric.oversubscription = 3;
  spec.fabric.uplink_latency = 1e-6;
  ClusterSpec one_pod = spec;  // racks_per_pod large enough for all: one pod, estimated route by route
  one_pod.fabric.racks_per_pod = 10;
  const ClusterLayout closed(spec), routed(one_pod);
  for (std::uint32_t gpus : {1u, 3u, 4u, 8u, 16u, 17u, 48u}) {
    for (int exchange = 0; exchange < 3; ++exchange) {
      JobSpec job = ring_job(gpus, 1e9);
      auto& work = std::get<TrainingWork>(job.work);
      work.parameter_servers = exchange == 1 ? 2 : 0;
      work.hierarchical_allreduce = exchange == 2;
      const double expected = uncontended_duration(job, closed);
      EXPECT_NEAR(uncontended_duration(job, routed), expected, 1e-12 * expected)
          << gpus << " GPUs, exchange " << exchange;
    }
  }
}

}  // namespace
}  // namespace gcsim
