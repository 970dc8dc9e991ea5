// Specification of TopologyPlacement on small crafted clusters, where the
// ring bottleneck of each candidate (single nodes, racks packed, the whole
// cluster packed) is known by hand: the highest bottleneck wins, then the
// fewest nodes, then the fewest racks, then the best fit; GPUs lacking memory
// or already taken are never chosen; the answer comes in ring order. Also:
// placements on the bundled 512-GPU cluster stay valid as it fills up.
#include "policies/placement/topology_placement.hpp"

#include <chrono>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "sim/topology/cluster_reader.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;
using testing::OccupiedCluster;
using Gpus = std::vector<GpuId>;

ClusterSpec cluster(std::vector<NodeGroup> groups, std::uint32_t nodes_per_rack, double oversubscription = 1.0) {
  ClusterSpec spec;
  spec.name = "crafted";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  spec.node_groups = std::move(groups);
  spec.fabric.nodes_per_rack = nodes_per_rack;
  spec.fabric.oversubscription = oversubscription;
  spec.fabric.uplink_latency = 1e-6;
  return spec;
}

// crafted_node_group with another NIC or intra-node link.
NodeGroup group_with(NodeGroup group, double nic_bandwidth, double intra_bandwidth = 150e9,
                     IntraNodeKind kind = IntraNodeKind::kNvlink) {
  group.nic.bandwidth = nic_bandwidth;
  group.intra.bandwidth = intra_bandwidth;
  group.intra_kind = kind;
  return group;
}

struct TopologyCase {
  std::uint32_t need;
  double memory;
  std::optional<Gpus> expected;
};

void expect_placements(const OccupiedCluster& c, const std::vector<TopologyCase>& cases,
                       const std::vector<bool>& taken = {}) {
  for (const TopologyCase& tc : cases) {
    SCOPED_TRACE(::testing::Message() << tc.need << " GPUs of " << tc.memory << " bytes");
    const auto gpus = c.place(TopologyPlacement(), tc.need, tc.memory, taken);
    EXPECT_EQ(gpus, tc.expected);
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

// ---- the score -------------------------------------------------------------------------------

// Two racks of two 4-GPU nodes: NVLink 150 GB/s, NICs 12.5 GB/s, uplinks
// 2 x 12.5 / 4 = 6.25 GB/s (oversubscription 4).
TEST(RingBottleneckBandwidth, IsTheSlowestEdgeOfTheClosedRing) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 2, 4.0), {});
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    Gpus ring;
    double bandwidth;
  };
  const std::vector<Case> cases = {
      {{5}, inf},
      {{}, inf},
      {{0, 1, 2, 3}, 150e9},
      {{0, 1, 4}, 12.5e9},        // 1 -> 4 and 4 -> 0 cross NICs
      {{0, 1, 2, 3, 8}, 6.25e9},  // 3 -> 8 and back cross the spine
  };
  for (const Case& k : cases) EXPECT_EQ(ring_bottleneck_bandwidth(k.ring, c.graph()), k.bandwidth);
}

// ---- single nodes ------------------------------------------------------------------------------

// One rack: node 0 NVLink (150 GB/s), GPUs 0-3 free; node 1 PCIe (16 GB/s),
// GPUs 4 and 5 held, 6 and 7 free. Pack's best fit takes the fuller PCIe
// node for 2 GPUs; topology takes the faster NVLink node.
TEST(TopologyPlacement, SingleNodeWithTheFastestInterconnectWins) {
  const OccupiedCluster c(
      cluster({crafted_node_group("nv", 1, 4, "A100"),
               group_with(crafted_node_group("pcie", 1, 4, "A100"), 12.5e9, 16e9, IntraNodeKind::kPcie)},
              2),
      {{4, 5}});
  EXPECT_EQ(c.place(PackPlacement(), 2), (Gpus{6, 7}));
  expect_placements(c, {
                           {1, 0, Gpus{6}},  // one GPU makes no ring: the best fit
                           {2, 0, Gpus{0, 1}},
                           {4, 0, Gpus{0, 1, 2, 3}},
                           // Two nodes: both NICs 12.5 GB/s, below the PCIe links.
                           {5, 0, Gpus{0, 1, 2, 3, 6}},
                           {6, 0, Gpus{0, 1, 2, 3, 6, 7}},
                           {7, 0, std::nullopt},
                       });
}

// Two NVLink nodes in one rack: node 0 has 3 free (0 held), node 1 has 4.
// Equal bandwidth and one node each: the best fit, node 0, for up to 3 GPUs.
TEST(TopologyPlacement, AmongEqualNodesTheFullestThatFitsWins) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 2, 4, "A100")}, 2), {{0}});
  expect_placements(c, {
                           {1, 0, Gpus{1}},
                           {2, 0, Gpus{1, 2}},
                           {3, 0, Gpus{1, 2, 3}},
                           {4, 0, Gpus{4, 5, 6, 7}},
                       });
}

// ---- racks and the spine ------------------------------------------------------------------------

// Rack 0: three nodes with 100 Gb/s NICs (12.5 GB/s), 2 GPUs free on each
//         (2 3, 6 7, 10 11).
// Rack 1: three nodes with 25 Gb/s NICs (3.125 GB/s): nodes 3 and 4 free
//         (12-15, 16-19), node 5 full.
// 6 GPUs: rack 0 needs three nodes at 12.5 GB/s, rack 1 two nodes at
// 3.125 GB/s. Pack picks the fewest nodes; topology the faster ring.
TEST(TopologyPlacement, FasterRackWinsOverFewerNodes) {
  const OccupiedCluster c(
      cluster({crafted_node_group("fast", 3, 4, "A100"), group_with(crafted_node_group("slow", 3, 4, "A100"), 3.125e9)},
              3),
      {{0, 1}, {4, 5}, {8, 9}, {20, 21, 22, 23}});
  EXPECT_EQ(c.place(PackPlacement(), 6), (Gpus{12, 13, 14, 15, 16, 17}));
  expect_placements(c, {
                           {6, 0, Gpus{2, 3, 6, 7, 10, 11}},
                           // 4 fit on node 3 alone (NVLink) and beat any ring crossing a NIC.
                           {4, 0, Gpus{12, 13, 14, 15}},
                           // 7: rack 0 has only 6; rack 1 holds it on nodes 3 and 4.
                           {7, 0, Gpus{12, 13, 14, 15, 16, 17, 18}},
                       });
}

// Two racks of two 4-GPU nodes, uplinks oversubscribed 4:1 (6.25 GB/s).
// rack 0: node 0 free 0-3 (4), node 1 free 7 (1)          5 free
// rack 1: node 2 free 10 11 (2), node 3 free 14 15 (2)    4 free
TEST(TopologyPlacement, CrossesTheSpineOnlyWhenNoRackCanHoldTheJob) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 2, 4.0), {{4, 5, 6}, {8, 9}, {12, 13}});
  expect_placements(c, {
                           // Rack 0: node 0 plus node 1's last GPU, 12.5 GB/s.
                           {5, 0, Gpus{0, 1, 2, 3, 7}},
                           // Rack 1 fits 4 on two nodes (12.5 GB/s), but node 0 alone does at 150.
                           {4, 0, Gpus{0, 1, 2, 3}},
                           // No rack holds 7: the cluster packed, fewest nodes: node 0 (4), node 2
                           // (2), then node 1 (1) as the tightest fit; 6.25 GB/s across the spine.
                           {7, 0, Gpus{0, 1, 2, 3, 7, 10, 11}},
                           {9, 0, Gpus{0, 1, 2, 3, 7, 10, 11, 14, 15}},
                           {10, 0, std::nullopt},
                       });
}

// ---- memory and taken -------------------------------------------------------------------------

// Rack 0: two V100 (16 GB) nodes, GPUs 0-7; rack 1: two A100 nodes, GPUs
// 8-15, GPU 8 held.
TEST(TopologyPlacement, GpusWithTooLittleMemoryAreSkipped) {
  const OccupiedCluster c(cluster({crafted_node_group("v", 2, 4, "V100"), crafted_node_group("a", 2, 4, "A100")}, 2),
                          {{8}});
  expect_placements(c, {
                           {3, 0, Gpus{9, 10, 11}},  // best fit among equal nodes: node 2 (3 free)
                           {3, 16e9, Gpus{9, 10, 11}},
                           {4, 40e9, Gpus{12, 13, 14, 15}},
                           // Rack 1 packed: node 3 whole, the remainder from node 2.
                           {5, 40e9, Gpus{9, 12, 13, 14, 15}},
                           {7, 40e9, Gpus{9, 10, 11, 12, 13, 14, 15}},
                           {8, 40e9, std::nullopt},
                           {1, 100e9, std::nullopt},
                       });
}

// One rack of two free nodes; GPUs 0, 1 and 4 promised earlier in the plan.
TEST(TopologyPlacement, TakenGpusAreExcluded) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 2, 4, "A100")}, 2), {});
  std::vector<bool> taken(8, false);
  taken[0] = taken[1] = taken[4] = true;
  expect_placements(c,
                    {
                        {2, 0, Gpus{2, 3}},  // node 0 (2 usable) is the best fit
                        {3, 0, Gpus{5, 6, 7}},
                        {5, 0, Gpus{2, 3, 5, 6, 7}},
                        {6, 0, std::nullopt},
                    },
                    taken);
}

TEST(TopologyPlacement, FullClusterPlacesNothing) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 1, 4, "A100")}, 1), {{0, 1, 2, 3}});
  EXPECT_EQ(c.place(TopologyPlacement(), 1), std::nullopt);
}

// ---- the bundled 512-GPU cluster --------------------------------------------------------------

// Fills the 64-node cluster with jobs of 1 to 64 GPUs, each placement
// promised before the next: every answer is valid, and a job that one node
// can hold lands on one node (NVLink beats any ring through a NIC).
TEST(TopologyPlacement, FillsTheBundled512GpuClusterWithValidPlacements) {
  const OccupiedCluster c(read_cluster_file(std::string(GCSIM_SOURCE_DIR) + "/scenarios/clusters/cluster-512gpu.json"),
                          {});
  ASSERT_EQ(c.layout().gpu_count(), 512u);
  std::vector<bool> taken(512, false);
  const std::vector<std::uint32_t> sizes = {1, 2, 4, 8, 16, 3, 32, 64, 6, 1, 12, 5};
  std::size_t used = 0, placements = 0;
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t k = 0; used < 512; ++k) {
    const std::uint32_t need = sizes[k % sizes.size()];
    if (used + need > 512) break;
    bool one_node_fits = false;
    for (NodeId n = 0; n < c.layout().node_count(); ++n) {
      std::size_t usable = 0;
      for (GpuId g : c.layout().node(n).gpus) usable += taken[g] ? 0 : 1;
      one_node_fits |= usable >= need;
    }
    const auto gpus = c.place(TopologyPlacement(), need, 0, taken);
    ASSERT_TRUE(gpus.has_value()) << "job " << k << " of " << need << " GPUs with " << 512 - used << " free";
    ASSERT_EQ(gpus->size(), need);
    std::set<NodeId> nodes;
    for (std::size_t i = 0; i < gpus->size(); ++i) {
      ASSERT_FALSE(taken[(*gpus)[i]]) << "GPU " << (*gpus)[i] << " given twice";
      if (i > 0) {
        ASSERT_LT((*gpus)[i - 1], (*gpus)[i]);
      }
      taken[(*gpus)[i]] = true;
      nodes.insert(c.layout().node_of((*gpus)[i]));
    }
    used += need;
    ++placements;
    if (one_node_fits) {
      EXPECT_EQ(nodes.size(), 1u) << "job " << k << " of " << need << " GPUs";
    }
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  RecordProperty("placements", static_cast<int>(placements));
  RecordProperty("seconds", std::to_string(elapsed.count()));
  EXPECT_GT(placements, 40u);
}

TEST(TopologyPlacement, IsNamedTopology) { EXPECT_EQ(TopologyPlacement().name(), "topology"); }

}  // namespace
}  // namespace gcsim
