// The GPUs a job may take now, node by node (policies/kit/usable_gpus.hpp),
// counted by hand on a crafted cluster: two nodes of 4 V100s (16 GB) and
// one of 4 A100s (80 GB), 32 cores each; a running job holds GPUs 0 and 1.
#include "policies/kit/usable_gpus.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "tests/support/crafted_specs.hpp"
#include "tests/support/occupied_cluster.hpp"

namespace gcsim {
namespace {

using Usable = std::vector<std::vector<GpuId>>;

ClusterSpec two_types() {
  ClusterSpec spec;
  spec.name = "two-types";
  spec.gpu_types = {GpuType{"A100", 312e12, 80e9}, GpuType{"V100", 125e12, 16e9}};
  spec.node_groups = {testing::crafted_node_group("v", 2, 4, "V100"), testing::crafted_node_group("a", 1, 4, "A100")};
  spec.fabric.nodes_per_rack = 3;
  return spec;
}

JobSpec job_of(std::uint32_t gpus) {
  JobSpec job;
  job.id = "j";
  job.gpus = gpus;
  return job;
}

TEST(UsableGpusByNode, TakesTheFreeGpusNotTakenInTheNodesOrder) {
  const testing::OccupiedCluster c(two_types(), {{0, 1}});
  std::vector<bool> taken(12, false);
  taken[4] = true;
  EXPECT_EQ(usable_gpus_by_node(job_of(2), c.view(), taken), (Usable{{2, 3}, {5, 6, 7}, {8, 9, 10, 11}}));
  EXPECT_EQ(usable_gpus_by_node(job_of(2), c.view(), {}), (Usable{{2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
}

TEST(UsableGpusByNode, LeavesOutNodesOfTooLittleGpuMemory) {
  const testing::OccupiedCluster c(two_types(), {});
  JobSpec job = job_of(2);
  job.gpu_memory_bytes = 40e9;
  EXPECT_EQ(usable_gpus_by_node(job, c.view(), {}), (Usable{{}, {}, {8, 9, 10, 11}}));
}

TEST(UsableGpusByNode, TakesNoMoreOfANodeThanItsCoresLeaveRoomFor) {
  // 64 cores over 2 GPUs: 32 a GPU, and a node has 32.
  const testing::OccupiedCluster c(two_types(), {});
  JobSpec job = job_of(2);
  job.cpu_cores = 64;
  EXPECT_EQ(usable_gpus_by_node(job, c.view(), {}), (Usable{{0}, {4}, {8}}));
}

}  // namespace
}  // namespace gcsim
