// Every placement on a cluster whose CPU nodes (no GPU) come first and sit
// between GPU nodes: the GPUs it gives are the GPU nodes', whatever their
// neighbours, and a job needing more GPUs than the GPU nodes have gets none.
// Nodes: c-0 (CPU), n-0 (GPUs 0-3, 1 held), c-1 (CPU), m-0 (GPUs 4-7).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include "policies/placement/pack_placement.hpp"
#include "policies/placement/spread_placement.hpp"
#include "policies/placement/topology_placement.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using testing::crafted_node_group;
using Gpus = std::vector<GpuId>;

ClusterSpec cpu_nodes_between_gpu_nodes() {
  ClusterSpec spec;
  spec.name = "mixed";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}};
  spec.node_groups = {crafted_node_group("c", 1, 0, ""), crafted_node_group("n", 1, 4, "A100"),
                      crafted_node_group("d", 1, 0, ""), crafted_node_group("m", 1, 4, "A100")};
  spec.fabric.nodes_per_rack = 4;
  return spec;
}

TEST(PlacementsOnCpuNodes, GiveTheGpuNodesGpusAndNothingOfACpuNode) {
  const testing::OccupiedCluster c(cpu_nodes_between_gpu_nodes(), {{1}});
  ASSERT_EQ(c.layout().node_count(), 4u);
  ASSERT_EQ(c.layout().gpu_count(), 8u);
  ASSERT_EQ(c.layout().node_of(0), 1u);
  ASSERT_EQ(c.layout().node_of(4), 3u);
  const std::vector<std::shared_ptr<PlacementPolicy>> placements = {
      std::make_shared<PackPlacement>(), std::make_shared<SpreadPlacement>(), std::make_shared<TopologyPlacement>()};
  for (const auto& placement : placements) {
    SCOPED_TRACE(std::string(placement->name()));
    for (std::uint32_t need : {1u, 4u, 6u, 7u}) {
      const std::optional<Gpus> gpus = c.place(*placement, need);
      ASSERT_TRUE(gpus) << need;
      EXPECT_EQ(gpus->size(), need);
      for (GpuId g : *gpus) {
        EXPECT_NE(g, 1u);  // held
        EXPECT_TRUE(c.layout().has_gpus(c.layout().node_of(g)));
      }
    }
    EXPECT_FALSE(c.place(*placement, 8)) << "7 GPUs are free";
  }
}

}  // namespace
}  // namespace gcsim
