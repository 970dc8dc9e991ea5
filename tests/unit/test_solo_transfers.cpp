// Which transfers of a phase one flow can stand for (solo_transfers.hpp),
// counted by hand on the tiny rail cluster of tests/support/crafted_specs.hpp:
//
//   n-0: GPU 0 (rail 0), GPU 1 (rail 1)     n-1: GPU 2 (rail 0), GPU 3 (rail 1)
//   a port per GPU (NVLink), a NIC per GPU; rail r's NICs meet in leaf r,
//   whose uplinks join the two rails
//
// A transfer inside a node crosses its sender's port up and its receiver's
// port down; between nodes on one rail, the two GPUs' own NICs; across
// rails, the leaves' uplinks too, which other jobs share. Rail 0's NICs are
// also the ones the nodes' CPU hosts go out through: not the job's alone
// where those hosts are on the network (the default here).
#include <vector>

#include <gtest/gtest.h>

#include "sim/model/solo_transfers.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim {
namespace {

using StandsFor = std::vector<std::vector<std::uint32_t>>;

TEST(SoloTransfers, ARingAlignedOnRailsGoesAsOneFlowInsideNodesAndOneOnRailOne) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  // Ranks on GPUs 0, 1, 3, 2: 0 -> 1 NVLink, 1 -> 3 rail 1, 3 -> 2 NVLink, 2 -> 0 rail 0.
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 3, 2}, 1, ring), (StandsFor{{2, 1, 0, 1}}));
  // 1 -> 3 and 3 -> 1 on rail 1, one up and one down each NIC: one flow.
  const std::vector<ExchangeFlows> pair{{{{0, 1}, {1, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {1, 3}, 1, pair), (StandsFor{{2, 0}}));
}

// Without CPU hosts on the network (no job of the run decodes input or runs
// CPU workers) rail 0's NICs carry their GPUs' transfers alone: 2 -> 0 is
// solo too, over the same figures as 1 -> 3, and one flow stands for both.
TEST(SoloTransfers, WithoutCpuHostsTheFirstNicIsItsGpus) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 3, 2}, 1, ring, /*cpu_hosts_send=*/false), (StandsFor{{2, 2, 0, 0}}));
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 3, 2}, 1, ring, /*cpu_hosts_send=*/true), (StandsFor{{2, 1, 0, 1}}));
}

TEST(SoloTransfers, WithPxnOnlyAJobHoldingTheWholeNodeHasItsLinks) {
  const ClusterLayout layout(testing::tiny_rail_cluster(/*pxn=*/true));
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 3, 2}, 1, ring), (StandsFor{{2, 1, 0, 1}}));
  // GPU 0 of each node may belong to another job and relay through GPU 1's links.
  const std::vector<ExchangeFlows> pair{{{{0, 1}, {1, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {1, 3}, 1, pair), (StandsFor{{1, 1}}));
}

TEST(SoloTransfers, TransfersAcrossRailsShareUplinksAndStandAlone) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  // In GPU order 1 -> 2 and 3 -> 0 cross the leaves' uplinks.
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 2, 3}, 1, ring), (StandsFor{{2, 1, 0, 1}}));
}

// On three_tier_rail_cluster (a rack per node, two racks a pod) a leaf's
// uplink carries as much as its NIC (oversubscription 1): nothing can fill
// it, so whoever else crosses it, a transfer over it stays solo. The pods'
// uplinks are oversubscribed 8:1: a transfer between pods stands alone.
TEST(SoloTransfers, UplinksNothingCanFillLeaveATransferSolo) {
  const ClusterLayout layout(testing::three_tier_rail_cluster());
  // GPU 1 (node 0, rail 1) and GPU 3 (node 1, rail 1): own NICs, then the
  // two racks' rail-1 uplinks, in one pod.
  const std::vector<ExchangeFlows> pair{{{{0, 1}, {1, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {1, 3}, 1, pair), (StandsFor{{2, 0}}));
  // GPU 1 and GPU 5 (node 2): the pods' uplinks too.
  EXPECT_EQ(solo_stand_ins(layout, {1, 5}, 1, pair), (StandsFor{{1, 1}}));
  // The same racks with their leaves' uplinks oversubscribed: shared links that can fill.
  ClusterSpec oversubscribed = testing::three_tier_rail_cluster();
  oversubscribed.fabric.oversubscription = 2;
  EXPECT_EQ(solo_stand_ins(ClusterLayout(oversubscribed), {1, 3}, 1, pair), (StandsFor{{1, 1}}));
}

TEST(SoloTransfers, ALinkTwoTransfersOfThePhaseCrossIsNoOnesAlone) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  // An all-to-all on four GPUs: each GPU sends twice through its own NIC
  // (to both GPUs of the other node), once through its port.
  std::vector<ExchangeFlows> all_to_all{{{}, 1e9, {}}};
  for (std::uint32_t from = 0; from < 4; ++from)
    for (std::uint32_t to = 0; to < 4; ++to)
      if (from != to) all_to_all[0].transfers.push_back({from, to});
  const StandsFor got = solo_stand_ins(layout, {0, 1, 2, 3}, 1, all_to_all);
  // Transfers in order: 0->1 0->2 0->3 1->0 1->2 1->3 2->0 2->1 2->3 3->0 3->1 3->2.
  EXPECT_EQ(got, (StandsFor{{4, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0}}));

  // Two exchanges started together on the same ports: none alone.
  const std::vector<ExchangeFlows> two{{{{0, 1}}, 1e9, {}}, {{{0, 1}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1}, 1, two), (StandsFor{{1}, {1}}));
}

TEST(SoloTransfers, OnlyTransfersOfTheSameBytesOverTheSameFiguresMakeAGroup) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  // 0 -> 1 and 2 -> 3 carry different bytes; 1 -> 0 and 3 -> 2 the same.
  const std::vector<ExchangeFlows> exchanges{{{{0, 1}}, 1e9, {}}, {{{2, 3}}, 2e9, {}}, {{{1, 0}, {3, 2}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 2, 3}, 1, exchanges), (StandsFor{{3}, {1}, {0, 0}}));
}

TEST(SoloTransfers, AnExchangeOfNoBytesStartsNoFlowAndCrossesNothing) {
  const ClusterLayout layout(testing::tiny_rail_cluster());
  const std::vector<ExchangeFlows> exchanges{{{{0, 1}}, 0, {}}, {{{0, 1}, {2, 3}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 2, 3}, 1, exchanges), (StandsFor{{1}, {2, 0}}));
}

TEST(SoloTransfers, AFractionOfAGpuOrCrossTrafficLeaveEveryTransferItsFlow) {
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  const StandsFor each_its_own{{1, 1, 1, 1}};
  EXPECT_EQ(solo_stand_ins(ClusterLayout(testing::tiny_rail_cluster()), {0, 1, 3, 2}, 0.5, ring), each_its_own);
  ClusterSpec acks = testing::tiny_rail_cluster();
  acks.network.crosstraffic = true;
  EXPECT_EQ(solo_stand_ins(ClusterLayout(acks), {0, 1, 3, 2}, 1, ring), each_its_own);
}

TEST(SoloTransfers, ANodesSharedNicIsNotTheJobs) {
  ClusterSpec spec;
  spec.gpu_types = {GpuType{"V", 1e14, 32e9}};
  spec.node_groups = {testing::crafted_node_group("dgx", 2, 2, "V")};
  const ClusterLayout layout(spec);
  // 0 -> 1 inside n-0, 1 -> 2 through both nodes' NICs, 2 -> 3 inside n-1, 3 -> 0 back.
  const std::vector<ExchangeFlows> ring{{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, 1e9, {}}};
  EXPECT_EQ(solo_stand_ins(layout, {0, 1, 2, 3}, 1, ring), (StandsFor{{2, 1, 0, 1}}));
}

}  // namespace
}  // namespace gcsim
