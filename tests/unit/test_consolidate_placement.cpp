// ConsolidatePlacement on one rack of four nodes of 4 GPUs, some GPUs held:
// the nodes in use first, best fit, then idle nodes lowest index first;
// where pack wakes two idle nodes for a large job, it fills the nodes in use
// and wakes one.
#include "policies/consolidate/consolidate_placement.hpp"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using Gpus = std::vector<GpuId>;

// Node 0 holds GPUs 0-3, node 1 GPUs 4-7, node 2 8-11, node 3 12-15. A job
// holds 0 and 1 (node 0: 2 free), another holds 4 (node 1: 3 free).
class HalfUsedRack : public ::testing::Test {
 protected:
  HalfUsedRack()
      : layout_(testing::crafted_cluster(4, 4)),
        graph_(layout_),
        jobs_{testing::measured_job("x", 2, 0), testing::measured_job("w", 1, 0)},
        state_(layout_, graph_, jobs_) {
    Plan plan;
    state_.submit(0);
    state_.submit(1);
    plan.allocate(0, {0, 1});
    plan.allocate(1, {4});
    state_.apply(plan, 0.0);
  }

  static JobSpec asking(std::uint32_t gpus, bool single_node = false) {
    JobSpec job = testing::measured_job("placed", gpus, 0);
    job.single_node = single_node;
    return job;
  }

  ClusterLayout layout_;
  ClusterGraph graph_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

TEST_F(HalfUsedRack, AJobThatFitsANodeInUseGoesToTheFullestSuch) {
  EXPECT_EQ(ConsolidatePlacement().place(asking(2), state_, {}), (Gpus{2, 3}));
  EXPECT_EQ(ConsolidatePlacement().place(asking(3), state_, {}), (Gpus{5, 6, 7}));
}

TEST_F(HalfUsedRack, AJobNoNodeInUseHoldsGoesToTheLowestIdleNode) {
  EXPECT_EQ(ConsolidatePlacement().place(asking(4), state_, {}), (Gpus{8, 9, 10, 11}));
  std::vector<bool> taken(16, false);
  for (GpuId g = 8; g < 12; ++g) taken[g] = true;  // node 2 promised earlier in the plan
  EXPECT_EQ(ConsolidatePlacement().place(asking(4), state_, taken), (Gpus{12, 13, 14, 15}));
}

TEST_F(HalfUsedRack, ALargeJobFillsTheNodesInUseBeforeWakingOneIdleNode) {
  // 2 + 3 free on the nodes in use, then node 2: three nodes, one of them idle.
  EXPECT_EQ(ConsolidatePlacement().place(asking(8), state_, {}), (Gpus{2, 3, 5, 6, 7, 8, 9, 10}));
  // Pack takes the emptiest nodes first: both idle ones.
  EXPECT_EQ(PackPlacement().place(asking(8), state_, {}), (Gpus{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST_F(HalfUsedRack, ASingleNodeJobThatNoNodeHoldsWaits) {
  EXPECT_EQ(ConsolidatePlacement().place(asking(5, true), state_, {}), std::nullopt);
  EXPECT_EQ(ConsolidatePlacement().place(asking(14), state_, {}), std::nullopt);  // 13 free in all
}

}  // namespace
}  // namespace gcsim
