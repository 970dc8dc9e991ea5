// Specification of PackPlacement on small clusters written out in code, some
// GPUs already held by running jobs, where the right placement is known by
// hand: best fit on one node, else fewest nodes inside one rack, else fewest
// nodes anywhere; GPUs lacking memory or already taken are never chosen; the
// answer comes in ring order.
#include "policies/placement/pack_placement.hpp"

#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;

using Gpus = std::vector<GpuId>;

// Nodes of 4 GPUs each, `nodes_per_rack` to a rack.
ClusterSpec cluster(std::vector<NodeGroup> groups, std::uint32_t nodes_per_rack) {
  ClusterSpec spec;
  spec.name = "crafted";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  spec.node_groups = std::move(groups);
  spec.fabric.nodes_per_rack = nodes_per_rack;
  spec.fabric.oversubscription = 1.0;
  spec.fabric.uplink_latency = 1e-6;
  return spec;
}

// A cluster as a policy sees it, with every list of `held` GPUs owned by one
// running job.
class OccupiedCluster {
 public:
  OccupiedCluster(const ClusterSpec& spec, const std::vector<Gpus>& held)
      : layout_(spec), graph_(layout_), jobs_(holders(held)), state_(layout_, graph_, jobs_) {
    Plan plan;
    for (JobIndex j = 0; j < jobs_.size(); ++j) {
      state_.submit(j);
      plan.allocate(j, held[j]);
    }
    state_.apply(plan, 0.0);
  }

  const ClusterView& view() const { return state_; }
  const ClusterLayout& layout() const { return layout_; }

  std::optional<Gpus> place(std::uint32_t gpus, double memory = 0, const std::vector<bool>& taken = {}) const {
    JobSpec job;
    job.id = "placed";
    job.gpus = gpus;
    job.gpu_memory_bytes = memory;
    return PackPlacement().place(job, state_, taken);
  }

 private:
  static std::vector<JobSpec> holders(const std::vector<Gpus>& held) {
    std::vector<JobSpec> jobs;
    for (std::size_t i = 0; i < held.size(); ++i) {
      JobSpec job;
      job.id = "holder-" + std::to_string(i);
      job.gpus = static_cast<std::uint32_t>(held[i].size());
      jobs.push_back(job);
    }
    return jobs;
  }

  ClusterLayout layout_;
  ClusterGraph graph_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

std::set<NodeId> nodes_of(const ClusterLayout& layout, const Gpus& gpus) {
  std::set<NodeId> nodes;
  for (GpuId g : gpus) nodes.insert(layout.node_of(g));
  return nodes;
}

// What every answer must satisfy: the requested count, distinct GPUs that are
// free and not taken, in ring order (by node, then local index).
void expect_valid_placement(const OccupiedCluster& c, const Gpus& gpus, std::uint32_t need,
                            const std::vector<bool>& taken = {}) {
  EXPECT_EQ(gpus.size(), need);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    EXPECT_TRUE(c.view().is_free(gpus[i])) << "GPU " << gpus[i];
    EXPECT_FALSE(gpus[i] < taken.size() && taken[gpus[i]]) << "GPU " << gpus[i];
    if (i == 0) continue;
    const auto before = std::make_tuple(c.layout().node_of(gpus[i - 1]), c.layout().local_index(gpus[i - 1]));
    const auto after = std::make_tuple(c.layout().node_of(gpus[i]), c.layout().local_index(gpus[i]));
    EXPECT_LT(before, after) << "GPUs " << gpus[i - 1] << " and " << gpus[i] << " out of ring order";
  }
}

struct PlacementCase {
  std::uint32_t need;
  double memory;
  std::optional<Gpus> expected;
};

std::ostream& operator<<(std::ostream& out, const PlacementCase& c) {
  return out << c.need << " GPUs of " << c.memory << " bytes";
}

void expect_placements(const OccupiedCluster& c, const std::vector<PlacementCase>& cases) {
  for (const PlacementCase& pc : cases) {
    SCOPED_TRACE(::testing::Message() << pc);
    const auto gpus = c.place(pc.need, pc.memory);
    EXPECT_EQ(gpus, pc.expected);
    if (gpus) expect_valid_placement(c, *gpus, pc.need);
  }
}

// ---- one node -----------------------------------------------------------------------

// One rack of three 4-GPU nodes:
//   node 0: GPU 0 held      free 1 2 3
//   node 1: GPUs 4 5 held   free 6 7
//   node 2:                 free 8 9 10 11
TEST(PackPlacement, SingleNodeBestFitChoosesTheFullestNodeThatFits) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 3, 4, "A100")}, 4), {{0}, {4, 5}});
  expect_placements(c, {
                           {1, 0, Gpus{6}},
                           {2, 0, Gpus{6, 7}},
                           {3, 0, Gpus{1, 2, 3}},
                           {4, 0, Gpus{8, 9, 10, 11}},
                       });
}

TEST(PackPlacement, EquallyFullNodesGoToTheLowestIndex) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 3, 4, "A100")}, 4), {{8, 9}, {4, 5}});
  EXPECT_EQ(c.place(2), (Gpus{6, 7}));
  EXPECT_EQ(c.place(3), (Gpus{0, 1, 2}));
}

// ---- several nodes -------------------------------------------------------------------

// One rack of four 4-GPU nodes:
//   node 0: free 3                 (1)
//   node 1: free 6 7               (2)
//   node 2: free 9 10 11           (3)
//   node 3: free 12 13 14 15       (4)
// Taking nodes in index order would need four nodes for 7 GPUs; the largest
// first need two, the last one the smallest that covers what remains.
TEST(PackPlacement, JobTooBigForAnyNodeUsesTheFewestNodes) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 4), {{0, 1, 2}, {4, 5}, {8}});
  expect_placements(c, {
                           {5, 0, Gpus{3, 12, 13, 14, 15}},             // 4 + 1: node 0 is the tightest fit
                           {6, 0, Gpus{6, 7, 12, 13, 14, 15}},          // 4 + 2
                           {7, 0, Gpus{9, 10, 11, 12, 13, 14, 15}},     // 4 + 3
                           {8, 0, Gpus{3, 9, 10, 11, 12, 13, 14, 15}},  // 4 + 3 + 1
                           {10, 0, Gpus{3, 6, 7, 9, 10, 11, 12, 13, 14, 15}},
                       });
}

TEST(PackPlacement, FewestNodesTakesTwoNodesWhereIndexOrderWouldTakeFour) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 4), {{0, 1, 2}, {4, 5}, {8}});
  const auto gpus = c.place(7);
  ASSERT_TRUE(gpus.has_value());
  EXPECT_EQ(nodes_of(c.layout(), *gpus), (std::set<NodeId>{2, 3}));
}

// ---- racks -------------------------------------------------------------------------

// Two racks of two 4-GPU nodes:
//   rack 0: node 0 free 1 2 3 (3), node 1 free 5 6 7 (3)     6 free
//   rack 1: node 2 free 8..11 (4), node 3 free 15 (1)         5 free
TEST(PackPlacement, RackThatCanHostTheJobIsPreferredOverSpanningRacks) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 2), {{0}, {4}, {12, 13, 14}});
  // Fewest nodes over the whole cluster would also be two nodes, 8..11 plus
  // three GPUs of rack 0, crossing the spine.
  const auto gpus = c.place(6);
  ASSERT_TRUE(gpus.has_value());
  EXPECT_EQ(*gpus, (Gpus{1, 2, 3, 5, 6, 7}));
  for (GpuId g : *gpus) EXPECT_EQ(c.layout().rack_of_node(c.layout().node_of(g)), 0u) << "GPU " << g;
}

TEST(PackPlacement, SpansRacksOnlyWhenNoRackCanHostTheJob) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 2), {{0}, {4}, {12, 13, 14}});
  // 8 GPUs: rack 0 has 6, rack 1 has 5. Largest first: node 2 (4), node 0 (3),
  // then node 3 is the tightest fit for the last GPU.
  expect_placements(c, {{8, 0, Gpus{1, 2, 3, 8, 9, 10, 11, 15}}});
}

// Two racks of three 4-GPU nodes:
//   rack 0: nodes 0, 1, 2 with 2 free each        (5 GPUs need 3 nodes)
//   rack 1: node 3 free 13 14 15, node 4 free 18 19, node 5 full   (2 nodes)
TEST(PackPlacement, AmongRacksTheOneNeedingFewestNodesWins) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 6, 4, "A100")}, 3),
                          {{0, 1}, {4, 5}, {8, 9}, {12}, {16, 17}, {20, 21, 22, 23}});
  expect_placements(c, {{5, 0, Gpus{13, 14, 15, 18, 19}}});
}

// Two racks of three 4-GPU nodes, each rack able to hold 6 GPUs on two nodes:
//   rack 0: node 0 free 2 3, node 1 free 4 5 6 7, node 2 free 10 11
//   rack 1: node 3 free 14 15, node 4 free 16 17 18 19, node 5 free 22 23
// Both racks need two nodes: the first rack wins. In it the fuller node comes
// first, and the remainder goes to the last node in the order (fullest
// first, ties by node) that covers it: node 2 rather than node 0.
TEST(PackPlacement, AmongRacksNeedingEquallyFewNodesTheFirstWins) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 6, 4, "A100")}, 3), {{0, 1}, {8, 9}, {12, 13}, {20, 21}});
  expect_placements(c, {{6, 0, Gpus{4, 5, 6, 7, 10, 11}}});
}

// ---- memory ---------------------------------------------------------------------------

// One rack: node 0 has four 16 GB V100 (0 and 1 held), node 1 four 80 GB A100.
TEST(PackPlacement, GpusWithTooLittleMemoryAreSkipped) {
  const OccupiedCluster c(cluster({crafted_node_group("v", 1, 4, "V100"), crafted_node_group("a", 1, 4, "A100")}, 2),
                          {{0, 1}});
  expect_placements(c, {
                           {2, 0, Gpus{2, 3}},     // best fit, any memory
                           {2, 16e9, Gpus{2, 3}},  // exactly enough memory
                           {2, 40e9, Gpus{4, 5}},  // the V100 are too small
                           {2, 80e9, Gpus{4, 5}},
                           {4, 40e9, Gpus{4, 5, 6, 7}},
                           // 6 free, but 2 V100 and 4 A100: no single type holds 5.
                           {5, 0, std::nullopt},
                           {5, 40e9, std::nullopt},  // 6 free, but only 4 large enough
                           {1, 100e9, std::nullopt},
                       });
  // A job allowing both types: node a whole, the remainder from node v.
  JobSpec mixing;
  mixing.id = "mixing";
  mixing.gpus = 5;
  mixing.mixed_gpu_types = true;
  EXPECT_EQ(PackPlacement().place(mixing, c.view(), {}), (Gpus{2, 4, 5, 6, 7}));
}

// ---- taken ------------------------------------------------------------------------------

// One rack of two free 4-GPU nodes; GPUs 0 and 2 are promised to an earlier
// job of the same plan.
TEST(PackPlacement, TakenGpusAreExcluded) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 2, 4, "A100")}, 2), {});
  std::vector<bool> taken(8, false);
  taken[0] = taken[2] = true;
  const std::vector<PlacementCase> cases = {
      {2, 0, Gpus{1, 3}},  // node 0 is now the tighter fit
      {3, 0, Gpus{4, 5, 6}},
      {6, 0, Gpus{1, 3, 4, 5, 6, 7}},
      {7, 0, std::nullopt},
  };
  for (const PlacementCase& pc : cases) {
    SCOPED_TRACE(::testing::Message() << pc);
    const auto gpus = c.place(pc.need, 0, taken);
    EXPECT_EQ(gpus, pc.expected);
    if (gpus) expect_valid_placement(c, *gpus, pc.need, taken);
  }
}

TEST(PackPlacement, EmptyTakenVectorTakesNothing) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 2, 4, "A100")}, 2), {});
  EXPECT_EQ(c.place(8, 0, {}), (Gpus{0, 1, 2, 3, 4, 5, 6, 7}));
}

// ---- not enough ------------------------------------------------------------------------

TEST(PackPlacement, ReturnsNulloptWhenNotEnoughGpusAreFree) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 2, 4, "A100")}, 2), {{0, 1, 2, 3, 4}});
  EXPECT_EQ(c.place(4), std::nullopt);
  EXPECT_EQ(c.place(3), (Gpus{5, 6, 7}));
}

TEST(PackPlacement, FullClusterPlacesNothing) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 1, 4, "A100")}, 1), {{0, 1, 2, 3}});
  EXPECT_EQ(c.place(1), std::nullopt);
}

// ---- ring order ---------------------------------------------------------------------------

// Node 3 is chosen first (largest) and node 1 second, yet node 1's GPUs come
// first: the ring visits nodes in index order, GPUs by local index.
TEST(PackPlacement, ReturnsGpusInRingOrderByNodeThenLocalIndex) {
  const OccupiedCluster c(cluster({crafted_node_group("n", 4, 4, "A100")}, 4), {{0, 1, 2}, {4, 5}, {8}});
  const auto gpus = c.place(6);
  ASSERT_TRUE(gpus.has_value());
  EXPECT_EQ(*gpus, (Gpus{6, 7, 12, 13, 14, 15}));
  expect_valid_placement(c, *gpus, 6);
}

TEST(PackPlacement, IsNamedPack) { EXPECT_EQ(PackPlacement().name(), "pack"); }

}  // namespace
}  // namespace gcsim
