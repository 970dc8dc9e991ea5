// Specification of TentativeCluster: the cluster as a plan being built would
// leave it, seen through ClusterView, with the real state untouched.
//
// The cluster, worked out by hand: two nodes of two GPUs.
//
//   node 0  GPUs 0, 1   job "a" (0) holds both
//   node 1  GPUs 2, 3   job "b" (1) holds GPU 2; GPU 3 is free
#include "policies/kit/tentative_cluster.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/plan.hpp"
#include "sim/state/scheduler_state.hpp"
#include "tests/support/crafted_specs.hpp"
#include "tests/support/flat_locality.hpp"

namespace gcsim {
namespace {

using testing::FlatLocality;  // the view only passes the locality on

ClusterSpec two_node_cluster() {
  ClusterSpec spec;
  spec.name = "two-nodes";
  spec.gpu_types = {GpuType{"V100", 100e12, 32e9}};
  spec.node_groups = {testing::crafted_node_group("dgx", 2, 2, "V100")};
  spec.fabric.nodes_per_rack = 2;
  return spec;
}

JobSpec job(const std::string& id, std::uint32_t gpus) {
  JobSpec spec;
  spec.id = id;
  spec.gpus = gpus;
  spec.work = TrainingWork{1e12, 1e8, 10, {}};
  return spec;
}

class TentativeClusterTest : public ::testing::Test {
 protected:
  TentativeClusterTest()
      : layout_(two_node_cluster()), jobs_{job("a", 2), job("b", 1)}, state_(layout_, locality_, jobs_) {
    state_.submit(0);
    state_.submit(1);
    Plan plan;
    plan.allocate(0, {0, 1});
    plan.allocate(1, {2});
    state_.apply(plan, 0.0);
  }

  // The real state as the fixture built it.
  void expect_base_untouched() const {
    EXPECT_EQ(state_.free_gpu_count(), 1u);
    EXPECT_EQ(state_.owner(0), 0u);
    EXPECT_EQ(state_.owner(2), 1u);
    EXPECT_TRUE(state_.is_free(3));
  }

  FlatLocality locality_;
  ClusterLayout layout_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

TEST_F(TentativeClusterTest, MirrorsTheRealStateBeforeAnyDecision) {
  const TentativeCluster view(state_);
  EXPECT_EQ(&view.layout(), &state_.layout());
  EXPECT_EQ(&view.locality(), &state_.locality());
  EXPECT_EQ(view.free_gpu_count(), 1u);
  EXPECT_EQ(view.free_gpus_on_node(0), 0u);
  EXPECT_EQ(view.free_gpus_on_node(1), 1u);
  for (GpuId g = 0; g < 4; ++g) {
    EXPECT_EQ(view.is_free(g), state_.is_free(g)) << "GPU " << g;
    EXPECT_EQ(view.owner(g), state_.owner(g)) << "GPU " << g;
  }
}

TEST_F(TentativeClusterTest, FreedGpusOfAVictimLookFreeWithNoOwner) {
  TentativeCluster view(state_);
  view.free({0, 1});
  EXPECT_TRUE(view.is_free(0));
  EXPECT_TRUE(view.is_free(1));
  EXPECT_EQ(view.owner(0), kNoJob);
  EXPECT_EQ(view.owner(1), kNoJob);
  EXPECT_EQ(view.free_gpus_on_node(0), 2u);
  EXPECT_EQ(view.free_gpus_on_node(1), 1u);
  EXPECT_EQ(view.free_gpu_count(), 3u);
  expect_base_untouched();
}

// The per-node array placements scan agrees with the per-node question
// before any change, once changes exist, and after more changes follow the
// first request for it.
TEST_F(TentativeClusterTest, TheFreeCountArrayFollowsEveryChange) {
  TentativeCluster view(state_);
  EXPECT_EQ(view.free_gpus_per_node(), (std::vector<std::size_t>{0, 1}));
  view.free({0, 1});
  EXPECT_EQ(view.free_gpus_per_node(), (std::vector<std::size_t>{2, 1}));
  view.take({3});
  view.take({0});
  EXPECT_EQ(view.free_gpus_per_node(), (std::vector<std::size_t>{1, 0}));
  for (NodeId n = 0; n < 2; ++n) EXPECT_EQ(view.free_gpus_per_node()[n], view.free_gpus_on_node(n)) << "node " << n;
  expect_base_untouched();
  EXPECT_EQ(state_.free_gpus_per_node(), (std::vector<std::size_t>{0, 1}));
}

TEST_F(TentativeClusterTest, TakenGpusLookBusy) {
  TentativeCluster view(state_);
  view.take({3});
  EXPECT_FALSE(view.is_free(3));
  EXPECT_EQ(view.owner(3), kNoJob);  // no holder in the real state
  EXPECT_EQ(view.free_gpus_on_node(1), 0u);
  EXPECT_EQ(view.free_gpu_count(), 0u);
  expect_base_untouched();
}

TEST_F(TentativeClusterTest, FreeingAFreeGpuOrTakingATakenOneCountsNothing) {
  TentativeCluster view(state_);
  view.free({3});
  EXPECT_EQ(view.free_gpu_count(), 1u);
  view.free({2});
  view.free({2});
  EXPECT_EQ(view.free_gpu_count(), 2u);
  EXPECT_EQ(view.free_gpus_on_node(1), 2u);
  view.take({0});
  EXPECT_EQ(view.free_gpu_count(), 2u);
  EXPECT_EQ(view.free_gpus_on_node(0), 0u);
}

// A victim tried and not needed is held again: its GPUs and their owner are
// as in the real state.
TEST_F(TentativeClusterTest, TakingBackFreedGpusRestoresTheirHolder) {
  TentativeCluster view(state_);
  view.free({0, 1});
  view.take({0, 1});
  EXPECT_FALSE(view.is_free(0));
  EXPECT_EQ(view.owner(0), 0u);
  EXPECT_EQ(view.owner(1), 0u);
  EXPECT_EQ(view.free_gpus_on_node(0), 0u);
  EXPECT_EQ(view.free_gpu_count(), 1u);
}

TEST_F(TentativeClusterTest, ACopyIsAnIndependentWhatIf) {
  TentativeCluster view(state_);
  view.free({2});
  TentativeCluster what_if = view;
  what_if.take({2, 3});
  EXPECT_EQ(what_if.free_gpu_count(), 0u);
  EXPECT_EQ(view.free_gpu_count(), 2u);
  EXPECT_TRUE(view.is_free(2));
  EXPECT_TRUE(view.is_free(3));
}

}  // namespace
}  // namespace gcsim
