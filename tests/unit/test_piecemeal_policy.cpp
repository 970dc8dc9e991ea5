// Piecemeal: the non-gang baseline grants GPUs one at a time and holds them.
#include <gtest/gtest.h>

#include "policies/piecemeal/piecemeal_policy.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Gpus = std::vector<GpuId>;
using Jobs = std::vector<JobIndex>;

TEST(PiecemealPolicy, InterleavesGrantsBetweenWaitingJobs) {
  // Two 4-GPU jobs and 4 free GPUs: each gets two, alternately, and neither runs.
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("a", 4, 0), measured_job("b", 4, 1)});
  bench.submit_all();
  PiecemealPolicy policy(kNever);
  const auto applied = bench.step(policy);
  EXPECT_TRUE(applied.started.empty());
  EXPECT_EQ(bench.state().runtime(0).gpus, (Gpus{0, 2}));
  EXPECT_EQ(bench.state().runtime(1).gpus, (Gpus{1, 3}));
  EXPECT_EQ(bench.state().holding(), (Jobs{0, 1}));
}

TEST(PiecemealPolicy, AJobStartsWhenItsSetIsComplete) {
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("small", 1, 0), measured_job("pair", 2, 1)});
  bench.submit_all();
  PiecemealPolicy policy(kNever);
  const auto applied = bench.step(policy);
  EXPECT_EQ(applied.started, (Jobs{0, 1}));
  EXPECT_TRUE(bench.state().holding().empty());
}

TEST(PiecemealPolicy, TheJobHoldingTheFewestGetsTheNextFreeGpu) {
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("x", 2, 0), measured_job("a", 4, 1), measured_job("b", 4, 2)});
  bench.submit_all();
  PiecemealPolicy policy(kNever);
  // Grants go x, a, b (all at zero), then x again (one each): x runs on 0 and 3.
  EXPECT_EQ(bench.step(policy).started, (Jobs{0}));
  EXPECT_EQ(bench.state().runtime(0).gpus, (Gpus{0, 3}));
  EXPECT_EQ(bench.state().runtime(1).gpus, (Gpus{1}));
  EXPECT_EQ(bench.state().runtime(2).gpus, (Gpus{2}));
  bench.finish(0);
  bench.step(policy);  // a and b hold one each: a (older) gets 0, then b gets 3
  EXPECT_EQ(bench.state().runtime(1).gpus, (Gpus{1, 0}));
  EXPECT_EQ(bench.state().runtime(2).gpus, (Gpus{2, 3}));
}

TEST(PiecemealPolicy, HoldTimeoutReleasesAndBacksOff) {
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("a", 4, 0), measured_job("b", 4, 0)});
  bench.submit_all();
  PiecemealPolicy policy(/*hold_timeout=*/30);
  Plan first = bench.schedule(policy);
  EXPECT_DOUBLE_EQ(first.wake_time(), 30);  // asks to be called when the timeout falls due
  bench.apply(first);
  bench.now = 30;
  const auto applied = bench.step(policy);
  // Both timed out together: both release, neither takes GPUs in this call.
  EXPECT_TRUE(applied.started.empty());
  EXPECT_TRUE(bench.state().holding().empty());
  EXPECT_EQ(bench.state().free_gpu_count(), 4u);
}

TEST(PiecemealPolicy, GpusReleasedInACallAndFreeOnesAreGrantedInGpuOrder) {
  // Two nodes of two GPUs. a (4 GPUs) gets 0, x (1 GPU) gets 1 and runs,
  // then a gets 2 and 3 and waits for 1. x ends; at 30 a backs off, so 0, 2
  // and 3 are released in the call and 1 is free: c (2 GPUs) takes 0 then 1.
  PolicyBench bench(crafted_cluster(2, 2),
                    {measured_job("a", 4, 0), measured_job("x", 1, 0), measured_job("c", 2, 30)});
  bench.submit(0);
  bench.submit(1);
  PiecemealPolicy policy(/*hold_timeout=*/30);
  EXPECT_EQ(bench.step(policy).started, (Jobs{1}));
  EXPECT_EQ(bench.state().runtime(0).gpus, (Gpus{0, 2, 3}));
  bench.now = 20;
  bench.finish(1);
  bench.now = 30;
  bench.submit(2);
  EXPECT_EQ(bench.step(policy).started, (Jobs{2}));
  EXPECT_EQ(bench.state().runtime(2).gpus, (Gpus{0, 1}));
  EXPECT_TRUE(bench.state().runtime(0).gpus.empty());
}

TEST(PiecemealPolicy, WithNoGpuFreeACallGrantsNothingButStillAsksForTheTimeout) {
  // a and b hold two GPUs each of the four; c arrives at 10 with none free.
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("a", 4, 0), measured_job("b", 4, 0), measured_job("c", 1, 10)});
  bench.submit(0);
  bench.submit(1);
  PiecemealPolicy policy(/*hold_timeout=*/30);
  bench.step(policy);
  bench.now = 10;
  bench.submit(2);
  const Plan plan = bench.schedule(policy);
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_DOUBLE_EQ(plan.wake_time(), 30);  // a's and b's timeout, from their first grant at 0
  bench.apply(plan);
  bench.now = 30;  // both back off: c takes a GPU; a and b wait, holding nothing
  const auto applied = bench.step(policy);
  EXPECT_EQ(applied.started, (Jobs{2}));
  EXPECT_TRUE(bench.state().runtime(0).gpus.empty());
  EXPECT_TRUE(bench.state().runtime(1).gpus.empty());
}

// Node 0: 2 "slow" GPUs (0, 1); node 1: `fast` "fast" GPUs (2, ...).
ClusterSpec slow_and_fast(std::uint32_t fast) {
  ClusterSpec spec = crafted_cluster(1, 2);
  spec.gpu_types = {GpuType{"slow", 1e12, 32e9}, GpuType{"fast", 4e12, 32e9}};
  spec.node_groups.front().gpu_type = "slow";
  NodeGroup fast_group = spec.node_groups.front();
  fast_group.name = "f";
  fast_group.gpu_type = "fast";
  fast_group.gpus_per_node = fast;
  spec.node_groups.push_back(fast_group);
  return spec;
}

TEST(PiecemealPolicy, AJobStartsOnATypeWithGpusEnoughForIt) {
  // In GPU order a would get 0, 1 (slow) and 2 (fast); the slow type has too
  // few GPUs for it, so it is granted fast ones alone and runs.
  PolicyBench bench(slow_and_fast(4), {measured_job("a", 3, 0)});
  bench.submit_all();
  PiecemealPolicy policy(kNever);
  EXPECT_EQ(bench.step(policy).started, (Jobs{0}));
  EXPECT_EQ(bench.state().runtime(0).gpus, (Gpus{2, 3, 4}));
}

TEST(PiecemealPolicy, AJobHoldingGpusOfOneTypeIsGrantedOnlyThatType) {
  // x runs on slow GPU 1; a gets slow GPU 0 first and then waits for the other
  // slow one, leaving the fast GPUs 2 and 3 free.
  PolicyBench bench(slow_and_fast(2), {measured_job("x", 1, 0), measured_job("a", 2, 1)});
  bench.submit(0);
  bench.apply([] {
    Plan plan;
    plan.allocate(0, {1});
    return plan;
  }());
  bench.submit(1);
  PiecemealPolicy policy(kNever);
  EXPECT_TRUE(bench.step(policy).started.empty());
  EXPECT_EQ(bench.state().runtime(1).gpus, (Gpus{0}));
  EXPECT_EQ(bench.state().free_gpu_count(), 2u);
}

TEST(PiecemealPolicy, AJobAllowingMixedTypesIsGrantedGpusInGpuOrder) {
  std::vector<JobSpec> jobs{measured_job("a", 3, 0)};
  jobs[0].mixed_gpu_types = true;
  PolicyBench bench(slow_and_fast(4), jobs);
  bench.submit_all();
  PiecemealPolicy policy(kNever);
  EXPECT_EQ(bench.step(policy).started, (Jobs{0}));
  EXPECT_EQ(bench.state().runtime(0).gpus, (Gpus{0, 1, 2}));
}

TEST(PiecemealPolicy, CreateValidatesTheTimeout) {
  EXPECT_THROW(PiecemealPolicy::create({{"hold_timeout", "-1"}}), std::invalid_argument);
  EXPECT_THROW(PiecemealPolicy::create({{"hold_timeout", "soon"}}), std::invalid_argument);
  EXPECT_NO_THROW(PiecemealPolicy::create({{"hold_timeout", "90"}}));
}

}  // namespace
}  // namespace gcsim
