// Specification of NetworkPlacement on small crafted rail clusters, every
// answer counted by hand: TP groups stay inside a node, each heavy group
// (the DP rings) goes whole under one leaf where pack splits one over two,
// and what that does to the phases' flows; how the units and the heavy
// groups are read from phased work; the other jobs placed as topology does.
#include "policies/placement/network_placement.hpp"

#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "policies/placement/topology_placement.hpp"
#include "sim/model/job_links.hpp"
#include "sim/model/placement_costs.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/crafted_work.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using testing::OccupiedCluster;
using Gpus = std::vector<GpuId>;

// Two racks of three nodes of two GPUs, rail-optimized, without PXN:
//
//   rack 0: n-0 (GPUs 0, 1), n-1 (2, 3), n-2 (4, 5)
//   rack 1: n-3 (6, 7),      n-4 (8, 9), n-5 (10, 11)
//   GPU 2k on rail 0, GPU 2k+1 on rail 1; ports 450 GB/s; a NIC per GPU of 50 GB/s;
//   each rail's leaf uplink (3 NICs x 50 GB/s) / 6 = 25 GB/s; no latency anywhere.
ClusterSpec two_rail_racks() {
  ClusterSpec spec = testing::tiny_rail_cluster();
  spec.node_groups[0].count = 6;
  spec.node_groups[0].intra.latency = 0;
  spec.node_groups[0].nic.latency = 0;
  spec.fabric.nodes_per_rack = 3;
  spec.fabric.oversubscription = 6;
  spec.fabric.uplink_latency = 0;
  return spec;
}

// TP 2 x DP 2 x PP 2 in the order tp-dp-pp, rank = tp + 2 (dp + 2 pp):
//   phase 0: 1e12 FLOPs (1 ms at 1e15 FLOP/s) beside the TP rings {2, 1}, 8 steps of 1 MB
//   phase 1: the PP sends {2, 4}, 10 MB
//   phase 2: the DP rings {2, 2}, 2 steps of 1 GB
PhasedWork tp_dp_pp_work() {
  PhasedWork work;
  work.iterations = 10;
  work.phases = {{.flops = 1e12, .exchanges = {{Exchange::kRingStep, {2, 1}, 1e6, 8}}},
                 {.exchanges = {{Exchange::kChainNext, {2, 4}, 1e7, 1}}},
                 {.exchanges = {{Exchange::kRingStep, {2, 2}, 1e9, 2}}}};
  return work;
}

JobSpec phased_job(std::uint32_t gpus, PhasedWork work) {
  JobSpec job;
  job.id = "llm";
  job.gpus = gpus;
  job.work = std::move(work);
  return job;
}

TEST(RankUnits, TheUnitIsTheTpGroupAndTheHeavyGroupsTheDpRingsInUnits) {
  const RankUnits units = rank_units(tp_dp_pp_work(), 8, 2);
  EXPECT_EQ(units.unit, 2u);
  // DP {2, 2}: 8 transfers of 2 x 1 GB; PP {2, 4}: 4 of 10 MB. In units of 2 ranks: {2, 1}.
  EXPECT_EQ(units.heavy.size, 2u);
  EXPECT_EQ(units.heavy.stride, 1u);
  EXPECT_DOUBLE_EQ(units.heavy_bytes, 8 * 2e9);
}

TEST(RankUnits, AGroupOfConsecutiveRanksLargerThanANodeIsNoUnit) {
  // A DP ring of 4 consecutive ranks on nodes of 2 GPUs: units of 1 rank, the ring the heavy group.
  PhasedWork work;
  work.phases = {{.exchanges = {{Exchange::kRingStep, {4, 1}, 1e9, 6}}}};
  const RankUnits units = rank_units(work, 4, 2);
  EXPECT_EQ(units.unit, 1u);
  EXPECT_EQ(units.heavy.size, 4u);
  EXPECT_EQ(units.heavy.stride, 1u);
}

TEST(RankUnits, WhenThePipelineCarriesMoreItsChainsAreTheHeavyGroups) {
  PhasedWork work = tp_dp_pp_work();
  work.phases[1].exchanges[0].bytes = 1e10;  // 4 transfers of 10 GB > 8 of 2 GB
  const RankUnits units = rank_units(work, 8, 2);
  EXPECT_EQ(units.heavy.size, 2u);
  EXPECT_EQ(units.heavy.stride, 2u);
}

// No rack holds the job's four nodes. Pack takes n-0, n-1, n-2 and, for
// the last two ranks, the last node that holds them (its best fit), n-5:
// the DP ring of pp 1 (ranks 4 and 6: GPUs 4 and 10) joins n-2 in rack 0 to
// n-5 in rack 1. Network puts the DP ring of pp 0 on n-0 and n-1, and the
// one of pp 1, finding one node's room left in rack 0, on n-3 and n-4.
TEST(NetworkPlacement, KeepsEachDpRingUnderOneLeafWherePackSplitsOne) {
  const OccupiedCluster c(two_rail_racks(), {});
  const JobSpec job = phased_job(8, tp_dp_pp_work());
  EXPECT_EQ(PackPlacement().place(job, c.view(), {}), std::optional<Gpus>(Gpus{0, 1, 2, 3, 4, 5, 10, 11}));
  EXPECT_EQ(NetworkPlacement().place(job, c.view(), {}), std::optional<Gpus>(Gpus{0, 1, 2, 3, 6, 7, 8, 9}));
}

// The DP ring's transfer from rank 4 to rank 6: under pack GPU 4 to GPU 10,
// NIC, rail 0's uplink of rack 0 up, of rack 1 down, NIC; under network GPU
// 6 to GPU 8, one leaf: NIC, NIC.
TEST(NetworkPlacement, ItsDpTransfersCrossOnlyTheirRailsLeaf) {
  const ClusterLayout layout(two_rail_racks());
  const JobLinks pack = job_links(layout, {0, 1, 2, 3, 4, 5, 10, 11});
  const JobLinks network = job_links(layout, {0, 1, 2, 3, 6, 7, 8, 9});
  const FabricRoute over_spine = pack.route(4, 6);
  ASSERT_EQ(over_spine.size, 4u);
  EXPECT_EQ(over_spine.hops[0].kind, FabricLinkKind::kNic);
  EXPECT_EQ(over_spine.hops[1].kind, FabricLinkKind::kLeafUplink);
  EXPECT_EQ(over_spine.hops[2].kind, FabricLinkKind::kLeafUplink);
  EXPECT_EQ(over_spine.hops[3].kind, FabricLinkKind::kNic);
  const FabricRoute in_leaf = network.route(4, 6);
  ASSERT_EQ(in_leaf.size, 2u);
  EXPECT_EQ(in_leaf.hops[0].kind, FabricLinkKind::kNic);
  EXPECT_EQ(in_leaf.hops[1].kind, FabricLinkKind::kNic);
}

// Each phase alone, its busiest link:
//   TP    inside nodes under both: 8 MB / 450 GB/s, under the 1 ms of compute
//   PP    pack: 2 -> 6 and 3 -> 7 (GPUs 2 -> 10, 3 -> 11) cross the spine, one on each rail: 10 MB / 25 GB/s = 0.4 ms;
//         network: 0 -> 4 and 2 -> 6 both on rail 0's uplinks: 2 x 10 MB / 25 GB/s = 0.8 ms
//   DP    pack: 4 <-> 6, 5 <-> 7 over the spine, one a rail and way: 2 GB / 25 GB/s = 80 ms;
//         network: every ring inside a leaf, the NICs: 2 GB / 50 GB/s = 40 ms
TEST(NetworkPlacement, ItsDpPhaseTakesHalfOfPacksWhilePacksPipelineIsFaster) {
  const ClusterLayout layout(two_rail_racks());
  const OccupiedCluster c(two_rail_racks(), {});
  const JobSpec job = phased_job(8, tp_dp_pp_work());
  const PlacementCosts pack = placement_costs(job, {0, 1, 2, 3, 4, 5, 10, 11}, layout, c.graph());
  const PlacementCosts network = placement_costs(job, {0, 1, 2, 3, 6, 7, 8, 9}, layout, c.graph());
  ASSERT_EQ(pack.phases.size(), 3u);
  ASSERT_EQ(network.phases.size(), 3u);
  EXPECT_DOUBLE_EQ(pack.phases[0].busiest_seconds, 8e6 / 450e9);
  EXPECT_DOUBLE_EQ(network.phases[0].busiest_seconds, 8e6 / 450e9);
  EXPECT_DOUBLE_EQ(pack.phases[1].busiest_seconds, 1e7 / 25e9);
  EXPECT_DOUBLE_EQ(network.phases[1].busiest_seconds, 2e7 / 25e9);
  EXPECT_DOUBLE_EQ(pack.phases[2].busiest_seconds, 2e9 / 25e9);
  EXPECT_DOUBLE_EQ(network.phases[2].busiest_seconds, 2e9 / 50e9);
}

// n-0 and n-4 held: rack 0 has n-1, n-2 free, rack 1 n-3, n-5. Pack takes
// them in node order. In the order tp-dp-pp each DP ring is then in one
// rack, and network places alike; in the order tp-pp-dp (rank = tp + 2 (pp +
// 2 dp)) the DP rings are {2, 4}, units 0, 2 and 1, 3: pack puts the ring of
// units 0 and 2 on n-1 and n-3, network on n-1 and n-2.
TEST(NetworkPlacement, ReadsTheRankOrderFromTheGroups) {
  const OccupiedCluster c(two_rail_racks(), {{0, 1}, {8, 9}});
  const JobSpec job = phased_job(8, tp_dp_pp_work());
  EXPECT_EQ(PackPlacement().place(job, c.view(), {}), std::optional<Gpus>(Gpus{2, 3, 4, 5, 6, 7, 10, 11}));
  EXPECT_EQ(NetworkPlacement().place(job, c.view(), {}), std::optional<Gpus>(Gpus{2, 3, 4, 5, 6, 7, 10, 11}));
  // With the ranks in order tp-pp-dp (rank = tp + 2 (pp + 2 dp)) the DP rings are {2, 4}: units 0, 2 and 1, 3.
  PhasedWork tp_pp_dp = tp_dp_pp_work();
  tp_pp_dp.phases[1].exchanges[0].groups = {2, 2};
  tp_pp_dp.phases[2].exchanges[0].groups = {2, 4};
  EXPECT_EQ(NetworkPlacement().place(phased_job(8, tp_pp_dp), c.view(), {}),
            std::optional<Gpus>(Gpus{2, 3, 6, 7, 4, 5, 10, 11}));
}

TEST(NetworkPlacement, AJobThatFitsOneRackGoesToTheFullestSuchRack) {
  // n-1 held: rack 0 has two free nodes, rack 1 three. A job of two DP units.
  const OccupiedCluster c(two_rail_racks(), {{2, 3}});
  PhasedWork work = tp_dp_pp_work();
  work.phases.erase(work.phases.begin() + 1);
  EXPECT_EQ(NetworkPlacement().place(phased_job(4, work), c.view(), {}), std::optional<Gpus>(Gpus{0, 1, 4, 5}));
}

TEST(NetworkPlacement, ATpGroupNeverSpansNodes) {
  // One GPU free on each of n-0 and n-1, nodes n-2 .. n-5 held: a TP 2 job cannot start,
  // where pack would split its TP group over two nodes.
  const OccupiedCluster c(two_rail_racks(), {{1, 3, 4, 5, 6, 7, 8, 9, 10, 11}});
  PhasedWork work;
  work.phases = {{.flops = 1e12, .exchanges = {{Exchange::kRingStep, {2, 1}, 1e6, 8}}}};
  EXPECT_EQ(PackPlacement().place(phased_job(2, work), c.view(), {}), std::optional<Gpus>(Gpus{0, 2}));
  EXPECT_EQ(NetworkPlacement().place(phased_job(2, work), c.view(), {}), std::nullopt);
}

TEST(NetworkPlacement, GpusTakenInThePlanAreNeverChosen) {
  const OccupiedCluster c(two_rail_racks(), {});
  std::vector<bool> taken(12, false);
  taken[0] = taken[1] = true;  // n-0 promised to another job
  // Rack 1 (three nodes free) before rack 0 (two): the ring of pp 0 on n-3 and n-4,
  // the one of pp 1, no longer finding room in rack 1, on n-1 and n-2.
  EXPECT_EQ(NetworkPlacement().place(phased_job(8, tp_dp_pp_work()), c.view(), taken),
            std::optional<Gpus>(Gpus{6, 7, 8, 9, 2, 3, 4, 5}));
}

TEST(NetworkPlacement, OtherWorkIsPlacedAsTopologyPlacesIt) {
  const OccupiedCluster c(two_rail_racks(), {{0}});
  JobSpec ring;
  ring.id = "ring";
  ring.gpus = 4;
  ring.work = testing::ring_training(1e12, 1e9, 10);
  EXPECT_EQ(NetworkPlacement().place(ring, c.view(), {}), TopologyPlacement().place(ring, c.view(), {}));
}

}  // namespace
}  // namespace gcsim
