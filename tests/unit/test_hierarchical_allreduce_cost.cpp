// The transfers of a hierarchical allreduce's steps, counted by hand on
// crafted placements, and the busiest link they load.
#include "sim/model/hierarchical_allreduce_cost.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(HierarchicalAllreduce, TwoFullNodesRingInsideEachAndAcrossByLocalRank) {
  const NodeRanks ranks = node_ranks(packed_job_links(8, 4, 2, 100e9, 10e9, 20e9));
  EXPECT_EQ(ranks.nodes(), 2u);
  EXPECT_EQ(ranks.local_ranks, 4u);
  EXPECT_EQ(intra_node_transfers(ranks),
            (std::vector<Transfer>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}}));
  EXPECT_EQ(inter_node_transfers(ranks),
            (std::vector<Transfer>{{0, 4}, {4, 0}, {1, 5}, {5, 1}, {2, 6}, {6, 2}, {3, 7}, {7, 3}}));
}

TEST(HierarchicalAllreduce, ANodeWithFewerGpusGivesThemSeveralLocalRanks) {
  // 6 GPUs packed 4 + 2: local ranks 0..3 of node 1 fall on GPUs 4, 5, 4, 5.
  const NodeRanks ranks = node_ranks(packed_job_links(6, 4, 2, 100e9, 10e9, 20e9));
  EXPECT_EQ(ranks.local_ranks, 4u);
  EXPECT_EQ(intra_node_transfers(ranks),
            (std::vector<Transfer>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 4}, {4, 5}, {5, 4}}));
  EXPECT_EQ(inter_node_transfers(ranks),
            (std::vector<Transfer>{{0, 4}, {4, 0}, {1, 5}, {5, 1}, {2, 4}, {4, 2}, {3, 5}, {5, 3}}));
}

TEST(HierarchicalAllreduce, ANodesNicCarriesItsLocalRanksRingsAtOnce) {
  const JobLinks links = packed_job_links(8, 4, 2, 100e9, 10e9, 20e9);
  const NodeRanks ranks = node_ranks(links);
  // Inside: each port carries one transfer. Across: each NIC carries four.
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(links, intra_node_transfers(ranks)), 1 / 100e9);
  EXPECT_DOUBLE_EQ(busiest_link_seconds_per_byte(links, inter_node_transfers(ranks)), 4 / 10e9);
}

TEST(HierarchicalAllreduce, OneNodeHasNoStepAcrossAndOneGpuPerNodeNoneInside) {
  const NodeRanks one_node = node_ranks(packed_job_links(8, 8, 1, 100e9, 10e9, 10e9));
  EXPECT_TRUE(inter_node_transfers(one_node).empty());
  const NodeRanks spread = node_ranks(packed_job_links(4, 1, 4, 100e9, 10e9, 40e9));
  EXPECT_TRUE(intra_node_transfers(spread).empty());
  EXPECT_EQ(inter_node_transfers(spread).size(), 4u);
}

}  // namespace
}  // namespace gcsim
