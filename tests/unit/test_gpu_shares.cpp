// Specification of GPU sharing below the engine: the scheduler state counting
// shares and memory per GPU, the tentative view taking a job's share, and the
// best-fit rule placing fractional jobs.
//
// The cluster, worked out by hand: two nodes of two GPUs, 32 GB each.
//
//   node 0  GPUs 0, 1
//   node 1  GPUs 2, 3
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policies/placement/pack_placement.hpp"
#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/placement/spread_placement.hpp"
#include "sim/core/cluster_layout.hpp"
#include "sim/state/scheduler_state.hpp"
#include "policies/kit/tentative_cluster.hpp"
#include "tests/support/flat_locality.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::FlatLocality;
using Gpus = std::vector<GpuId>;

// crafted_cluster(2, 2): two nodes of two 32 GB GPUs; measured jobs of 100 s.
JobSpec job(const std::string& id, double share, std::uint32_t gpus = 1, double memory = 0) {
  JobSpec spec = testing::measured_job(id, gpus, 0);
  spec.gpu_share = share;
  spec.gpu_memory_bytes = memory;
  return spec;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class GpuShares : public ::testing::Test {
 protected:
  explicit GpuShares(std::vector<JobSpec> jobs = {job("half-a", 0.5, 1, 10e9), job("half-b", 0.5, 1, 10e9),
                                                  job("third", 0.3), job("whole", 1), job("big-memory", 0.2, 2, 20e9)})
      : layout_(testing::crafted_cluster(2, 2)), jobs_(std::move(jobs)), state_(layout_, locality_, jobs_) {
    for (JobIndex j = 0; j < jobs_.size(); ++j) state_.submit(j);
  }
  std::string rejection(const Plan& plan) {
    try {
      state_.apply(plan, 0);
    } catch (const PlanRejected& e) {
      return e.what();
    }
    return "";
  }

  ClusterLayout layout_;
  FlatLocality locality_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

TEST_F(GpuShares, TwoHalvesFillOneGpu) {
  Plan plan;
  plan.allocate(0, {1});
  plan.allocate(1, {1});
  const auto applied = state_.apply(plan, 0);
  EXPECT_EQ(applied.started.size(), 2u);
  EXPECT_FALSE(state_.is_free(1));
  EXPECT_EQ(state_.owner(1), 0u);
  EXPECT_EQ(state_.holders(1), (std::vector<JobIndex>{0, 1}));
  EXPECT_NEAR(state_.free_share(1), 0, 1e-12);
  EXPECT_DOUBLE_EQ(state_.free_memory(1), 12e9);
  EXPECT_EQ(state_.free_gpu_count(), 3u);
  EXPECT_EQ(state_.free_gpus_on_node(0), 1u);
  EXPECT_DOUBLE_EQ(state_.allocated_gpus(), 1.0);
}

TEST_F(GpuShares, AShareBeyondWhatIsLeftOrAWholeJobOnASharedGpuIsRejected) {
  Plan first;
  first.allocate(0, {1});
  first.allocate(2, {1});  // 0.5 + 0.3
  state_.apply(first, 0);
  Plan over;
  over.allocate(1, {1});  // 0.5 more: 1.3
  EXPECT_TRUE(contains(rejection(over), "is not free")) << rejection(over);
  EXPECT_TRUE(contains(rejection(over), "the job asks 0.5")) << rejection(over);
  Plan whole;
  whole.allocate(3, {1});
  EXPECT_TRUE(contains(rejection(whole), "is not free (held by job 'half-a' and 1 more)")) << rejection(whole);
  Plan twice;
  twice.allocate(4, {3});
  twice.allocate(4, {3});
  EXPECT_TRUE(contains(rejection(twice), "given to the job twice")) << rejection(twice);
  EXPECT_TRUE(contains(rejection(over),
                       "GPU n-0:1 is not free (held by job 'half-a' and 1 more, 0.2 of it left, the job asks 0.5)"))
      << rejection(over);
  EXPECT_DOUBLE_EQ(state_.allocated_gpus(), 0.8);
}

TEST_F(GpuShares, MemoryMustFitBesideTheJobsSharingTheGpu) {
  Plan first;
  first.allocate(0, {2});  // 10 GB of 32
  state_.apply(first, 0);
  Plan plan;
  plan.allocate(1, {2});  // 10 GB more: fits
  plan.allocate(4, {2});  // 0.2 of the GPU is not left anyway; on GPU 3 below
  EXPECT_TRUE(contains(rejection(plan), "not free")) << rejection(plan);
  Plan memory;
  memory.allocate(1, {2});
  state_.apply(memory, 0);  // GPU 2: 20 GB used, share 1
  JobSpec hungry = job("hungry", 0.2, 1, 20e9);
  std::vector<JobSpec> jobs{job("a", 0.5, 1, 20e9), hungry};
  SchedulerState small(layout_, locality_, jobs);
  small.submit(0);
  small.submit(1);
  Plan a;
  a.allocate(0, {0});
  small.apply(a, 0);
  Plan b;
  b.allocate(1, {0});  // 0.2 fits the share, 20 GB does not fit beside 20 GB
  try {
    small.apply(b, 0);
    ADD_FAILURE() << "20 GB beside 20 GB on a 32 GB GPU was accepted";
  } catch (const PlanRejected& e) {
    EXPECT_TRUE(contains(e.what(), "less memory than the job needs beside the jobs sharing it")) << e.what();
  }
}

TEST_F(GpuShares, ReleasingTheLastHolderFreesTheGpuWhole) {
  Plan plan;
  plan.allocate(0, {0});
  plan.allocate(2, {0});
  state_.apply(plan, 0);
  state_.finish(0, 10);
  EXPECT_FALSE(state_.is_free(0));
  EXPECT_NEAR(state_.free_share(0), 0.7, 1e-12);
  EXPECT_EQ(state_.holders(0), (std::vector<JobIndex>{2}));
  state_.finish(2, 20);
  EXPECT_TRUE(state_.is_free(0));
  EXPECT_EQ(state_.free_share(0), 1.0);
  EXPECT_EQ(state_.free_memory(0), 32e9);
  EXPECT_EQ(state_.free_gpu_count(), 4u);
  EXPECT_EQ(state_.allocated_gpus(), 0.0);
  // Service counts the share: half a GPU for 10 s, 0.3 of one for 20 s.
  EXPECT_DOUBLE_EQ(state_.runtime(0).attained_gpu_seconds, 5);
  EXPECT_DOUBLE_EQ(state_.runtime(2).attained_gpu_seconds, 6);
}

TEST_F(GpuShares, APreemptionInThePlanLeavesRoomForALaterShare) {
  Plan first;
  first.allocate(0, {0});
  first.allocate(1, {0});
  state_.apply(first, 0);
  Plan swap;
  swap.preempt(1);
  swap.allocate(2, {0});  // 0.5 + 0.3 once half-b is gone
  const auto applied = state_.apply(swap, 1);
  EXPECT_EQ(applied.preempted, (std::vector<JobIndex>{1}));
  EXPECT_EQ(state_.holders(0), (std::vector<JobIndex>{0, 2}));
  EXPECT_NEAR(state_.free_share(0), 0.2, 1e-12);
}

TEST_F(GpuShares, TheTentativeViewTakesAJobsShareAndMemory) {
  TentativeCluster view(state_);
  view.take({3}, jobs_[0]);
  EXPECT_FALSE(view.is_free(3));
  EXPECT_DOUBLE_EQ(view.free_share(3), 0.5);
  EXPECT_DOUBLE_EQ(view.free_memory(3), 22e9);
  EXPECT_EQ(view.free_gpus_on_node(1), 1u);
  view.take({3}, jobs_[2]);
  EXPECT_NEAR(view.free_share(3), 0.2, 1e-12);
  EXPECT_EQ(view.free_gpu_count(), 3u);
  EXPECT_TRUE(state_.is_free(3));  // the real state is untouched
  view.take({2});
  EXPECT_EQ(view.free_share(2), 0.0);
}

TEST_F(GpuShares, TheTentativeViewGivesBackAJobsShareAndFreesTheGpuWithTheLast) {
  Plan plan;
  plan.allocate(0, {1});  // half-a: 0.5, 10 GB
  plan.allocate(2, {1});  // third: 0.3
  state_.apply(plan, 0);
  TentativeCluster view(state_);
  view.release({1}, jobs_[0]);
  EXPECT_FALSE(view.is_free(1));
  EXPECT_NEAR(view.free_share(1), 0.7, 1e-12);
  EXPECT_DOUBLE_EQ(view.free_memory(1), 32e9);
  view.release({1}, jobs_[2]);
  EXPECT_TRUE(view.is_free(1));
  EXPECT_EQ(view.free_share(1), 1.0);
  EXPECT_EQ(view.free_gpus_on_node(0), 2u);
  TentativeCluster copy = view;  // views can be copied and assigned
  copy.take({1}, jobs_[3]);
  view = copy;
  EXPECT_FALSE(view.is_free(1));
}

TEST_F(GpuShares, BestFitPicksTheFullestGpuThatHasRoom) {
  Plan plan;
  plan.allocate(0, {1});  // GPU 1: 0.5 free
  plan.allocate(2, {2});  // GPU 2: 0.7 free
  state_.apply(plan, 0);
  // 0.3 fits on both shared GPUs: GPU 1 is fuller.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.3), state_, {}), (Gpus{1}));
  // 0.6 fits only GPU 2 among the shared ones.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.6), state_, {}), (Gpus{2}));
  // 0.8 needs a free GPU: GPU 0 and 3 each sit on a node with one free GPU; the lower id wins.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.8), state_, {}), (Gpus{0}));
  // A GPU taken earlier in the plan is skipped.
  std::vector<bool> taken(4, false);
  taken[1] = true;
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.3), state_, taken), (Gpus{2}));
  // Two workers go on distinct GPUs, in ascending order.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.3, 2), state_, {}), (Gpus{1, 2}));
  // Memory: 25 GB does not fit beside half-a's 10 GB on GPU 1.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.3, 1, 25e9), state_, {}), (Gpus{2}));
  // Five workers: four GPUs only.
  EXPECT_EQ(fit_on_shared_gpus(job("x", 0.1, 5), state_, {}), std::nullopt);
}

TEST_F(GpuShares, TheRoomLeftCountsGpusWithEnoughShareAsJobsTakeAndGiveBack) {
  Plan plan;
  plan.allocate(0, {1});  // GPU 1: 0.5 free
  plan.allocate(2, {2});  // GPU 2: 0.7 free
  state_.apply(plan, 0);
  GpuRoom room(state_);
  EXPECT_TRUE(room.may_fit(job("x", 0.5, 4)));   // 0, 1, 2, 3
  EXPECT_FALSE(room.may_fit(job("x", 0.6, 4)));  // GPU 1 has 0.5
  EXPECT_TRUE(room.may_fit(job("x", 1, 2)));     // GPUs 0 and 3 are free
  EXPECT_FALSE(room.may_fit(job("x", 1, 3)));
  room.take({0}, job("x", 0.5));
  EXPECT_FALSE(room.may_fit(job("x", 1, 2)));
  EXPECT_TRUE(room.may_fit(job("x", 0.5, 4)));
  room.take({1}, job("x", 0.5));  // GPU 1 full
  EXPECT_FALSE(room.may_fit(job("x", 0.1, 4)));
  room.release({1}, job("x", 0.5));
  room.release({0}, job("x", 0.5));
  EXPECT_TRUE(room.may_fit(job("x", 1, 2)));
}

TEST_F(GpuShares, EveryBuiltInPlacementPlacesFractionalJobsByBestFit) {
  Plan plan;
  plan.allocate(0, {3});
  state_.apply(plan, 0);
  // Spreading would pick a free GPU; a fractional job goes beside half-a instead.
  EXPECT_EQ(SpreadPlacement().place(job("x", 0.5), state_, {}), (Gpus{3}));
  EXPECT_EQ(PackPlacement().place(job("x", 0.5), state_, {}), (Gpus{3}));
  // A whole-GPU job never lands on a shared GPU.
  const auto whole = PackPlacement().place(job("w", 1, 3), state_, {});
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(*whole, (Gpus{0, 1, 2}));
}

}  // namespace
}  // namespace gcsim
