// Specification of SpreadPlacement on small crafted clusters: one GPU per
// node, round-robin over the nodes with the most usable GPUs first (ties: by
// node index); GPUs lacking memory or already taken are never chosen; the
// answer comes in ring order; nullopt when too few GPUs are usable.
#include "policies/placement/spread_placement.hpp"

#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;
using testing::OccupiedCluster;
using Gpus = std::vector<GpuId>;

// Two racks of two 4-GPU nodes, unless other groups are given.
ClusterSpec two_racks(std::vector<NodeGroup> groups = {crafted_node_group("n", 4, 4, "A100")}) {
  ClusterSpec spec;
  spec.name = "two-racks";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  spec.node_groups = std::move(groups);
  spec.fabric.nodes_per_rack = 2;
  spec.fabric.oversubscription = 1.0;
  spec.fabric.uplink_latency = 1e-6;
  return spec;
}

struct SpreadCase {
  std::uint32_t need;
  double memory;
  std::optional<Gpus> expected;
};

void expect_placements(const OccupiedCluster& c, const std::vector<SpreadCase>& cases,
                       const std::vector<bool>& taken = {}) {
  for (const SpreadCase& sc : cases) {
    SCOPED_TRACE(::testing::Message() << sc.need << " GPUs of " << sc.memory << " bytes");
    const auto gpus = c.place(SpreadPlacement(), sc.need, sc.memory, taken);
    EXPECT_EQ(gpus, sc.expected);
    if (!gpus) continue;
    for (std::size_t i = 0; i < gpus->size(); ++i) {
      EXPECT_TRUE(c.view().is_free((*gpus)[i]));
      EXPECT_FALSE((*gpus)[i] < taken.size() && taken[(*gpus)[i]]);
      if (i > 0) {
        EXPECT_LT((*gpus)[i - 1], (*gpus)[i]) << "not in ring order";
      }
    }
  }
}

// rack 0: node 0 GPU 0 held, free 1 2 3 (3)     node 1 free 4 5 6 7 (4)
// rack 1: node 2 free 10 11 (2)                  node 3 free 15 (1)
// Order by free GPUs: node 1, node 0, node 2, node 3. Round 1 deals 4, 1,
// 10, 15; round 2 deals 5, 2, 11; round 3 deals 6, 3; round 4 deals 7.
TEST(SpreadPlacement, DealsOneGpuPerNodeRoundRobinMostFreeNodesFirst) {
  const OccupiedCluster c(two_racks(), {{0}, {8, 9}, {12, 13, 14}});
  expect_placements(c, {
                           {1, 0, Gpus{4}},
                           {2, 0, Gpus{1, 4}},
                           {3, 0, Gpus{1, 4, 10}},
                           {4, 0, Gpus{1, 4, 10, 15}},
                           {5, 0, Gpus{1, 4, 5, 10, 15}},
                           {6, 0, Gpus{1, 2, 4, 5, 10, 15}},
                           {7, 0, Gpus{1, 2, 4, 5, 10, 11, 15}},
                           {8, 0, Gpus{1, 2, 4, 5, 6, 10, 11, 15}},
                           {9, 0, Gpus{1, 2, 3, 4, 5, 6, 10, 11, 15}},
                           {10, 0, Gpus{1, 2, 3, 4, 5, 6, 7, 10, 11, 15}},
                           {11, 0, std::nullopt},
                       });
}

TEST(SpreadPlacement, EquallyFreeNodesAreDealtInIndexOrder) {
  const OccupiedCluster c(two_racks(), {});
  expect_placements(c, {
                           {2, 0, Gpus{0, 4}},
                           {4, 0, Gpus{0, 4, 8, 12}},
                           {5, 0, Gpus{0, 1, 4, 8, 12}},
                           {16, 0, Gpus{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
                       });
}

// rack 0: two V100 (16 GB) nodes, GPUs 0-7, all free.
// rack 1: two A100 (80 GB) nodes: node 2 free 9 10 11 (8 held), node 3 free 12-15.
TEST(SpreadPlacement, GpusWithTooLittleMemoryAreSkipped) {
  const OccupiedCluster c(two_racks({crafted_node_group("v", 2, 4, "V100"), crafted_node_group("a", 2, 4, "A100")}),
                          {{8}});
  expect_placements(c, {
                           // Any memory: nodes 0, 1, 3, 2 would mix V100 and A100; the job keeps
                           // to one type, the A100 (the faster): node 3 (4 free), then node 2 (3).
                           {4, 0, Gpus{9, 10, 12, 13}},
                           {2, 16e9, Gpus{0, 4}},
                           // 40 GB: only the A100, node 3 first.
                           {2, 40e9, Gpus{9, 12}},
                           {7, 40e9, Gpus{9, 10, 11, 12, 13, 14, 15}},
                           {8, 40e9, std::nullopt},
                           {1, 100e9, std::nullopt},
                       });
  // A job allowing both types: nodes 0, 1, 3 (4 free each, by index), then node 2 (3).
  JobSpec mixing;
  mixing.id = "mixing";
  mixing.gpus = 4;
  mixing.mixed_gpu_types = true;
  EXPECT_EQ(SpreadPlacement().place(mixing, c.view(), {}), (Gpus{0, 4, 9, 12}));
}

// All 16 GPUs free; GPUs 0, 4 and 5 promised to an earlier job of the same
// plan: node 0 has 3 usable, node 1 has 2, nodes 2 and 3 have 4.
// Order: node 2, node 3, node 0, node 1.
TEST(SpreadPlacement, TakenGpusAreExcludedAndChangeTheOrder) {
  const OccupiedCluster c(two_racks(), {});
  std::vector<bool> taken(16, false);
  taken[0] = taken[4] = taken[5] = true;
  expect_placements(c,
                    {
                        {1, 0, Gpus{8}},
                        {3, 0, Gpus{1, 8, 12}},
                        {4, 0, Gpus{1, 6, 8, 12}},
                        {13, 0, Gpus{1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
                        {14, 0, std::nullopt},
                    },
                    taken);
}

TEST(SpreadPlacement, FullClusterPlacesNothing) {
  const OccupiedCluster c(two_racks(), {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}});
  EXPECT_EQ(c.place(SpreadPlacement(), 1), std::nullopt);
}

TEST(SpreadPlacement, IsNamedSpread) { EXPECT_EQ(SpreadPlacement().name(), "spread"); }

}  // namespace
}  // namespace gcsim
