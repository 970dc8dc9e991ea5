// Specification of CruxPolicy on crafted clusters, each answer counted by
// hand: whom it starts (the higher GPU intensity, FLOPs over the busiest
// link's time; patience and order=submission give fifo's order back) and
// where (away from the rack uplinks a running job loads), its options.
#include "policies/crux/crux_policy.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "policies/crux/link_loads.hpp"
#include "policies/placement/pack_placement.hpp"
#include "tests/support/crafted_work.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::PlanStep;
using testing::PolicyBench;
using Gpus = std::vector<GpuId>;

constexpr auto kAllocate = Decision::Kind::kAllocate;

// A ring allreduce of `gradients` bytes after 1e12 FLOPs per GPU (1 s on the bench's GPUs).
JobSpec ring_job(const std::string& id, std::uint32_t gpus, Time submit, double gradients) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.submit = submit;
  job.work = testing::ring_training(1e12, gradients, 10);
  return job;
}

std::unique_ptr<SchedulingPolicy> crux(PolicyOptions options = {}) {
  return CruxPolicy::create(options, std::make_unique<PackPlacement>());
}

// Two nodes of two GPUs (NICs of 12.5 GB/s, NVLink 150 GB/s). Each job's
// ring on GPUs 0..3 sends 2 x 3/4 of its gradients an edge, and the edges
// 1 -> 2 and 3 -> 0 each cross a NIC: t = 1.5 G / 12.5 GB/s. a (1 GB):
// t = 0.12 s, I = 4e12 / 0.12 = 3.3e13; b (100 MB): t = 0.012 s, I = 3.3e14.
TEST(CruxPolicy, StartsTheJobOfHigherGpuIntensityFirst) {
  PolicyBench bench(testing::crafted_cluster(2, 2), {ring_job("a", 4, 0, 1e9), ring_job("b", 4, 1, 1e8)});
  bench.submit_all();
  bench.now = 1;
  const LinkLoads loads(bench.layout());
  EXPECT_NEAR(loads.traffic(bench.state().spec(0), {0, 1, 2, 3}).seconds_alone, 0.12, 1e-12);
  EXPECT_NEAR(loads.traffic(bench.state().spec(1), {0, 1, 2, 3}).intensity(), 4e12 / 0.012, 1e3);
  auto policy = crux();
  EXPECT_EQ(testing::steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 1}}));
}

TEST(CruxPolicy, InSubmissionOrderOrPastItsPatienceTheOlderJobGoesFirst) {
  PolicyBench bench(testing::crafted_cluster(2, 2), {ring_job("a", 4, 0, 1e9), ring_job("b", 4, 1, 1e8)});
  bench.submit_all();
  bench.now = 1;
  for (const PolicyOptions& options : {PolicyOptions{{"order", "submission"}}, PolicyOptions{{"patience", "1"}}}) {
    auto policy = crux(options);
    EXPECT_EQ(testing::steps_of(bench.schedule(*policy)), (std::vector<PlanStep>{{kAllocate, 0}}));
  }
}

TEST(CruxPolicy, AnOverdueJobThatCannotStartBlocksTheLine) {
  // a needs all 4 GPUs, one of which c holds; b (2 GPUs) would fit but waits behind a, overdue.
  PolicyBench bench(testing::crafted_cluster(2, 2),
                    {testing::measured_job("c", 1, 0), ring_job("a", 4, 0, 1e9), ring_job("b", 2, 0, 1e8)});
  bench.submit(0);
  bench.step(*crux());
  bench.submit(1);
  bench.submit(2);
  bench.now = 10;
  EXPECT_TRUE(bench.schedule(*crux({{"patience", "5"}})).decisions().empty());
  EXPECT_EQ(testing::steps_of(bench.schedule(*crux())), (std::vector<PlanStep>{{kAllocate, 2}}));
}

// Four racks of two 2-GPU nodes, one leaf each, its uplink (2 x 12.5 GB/s) / 4
// = 6.25 GB/s. Job a's ring runs on n-0 (rack 0) and n-2 (rack 1): its edges
// 1 -> 4 and 5 -> 0 load the uplinks of racks 0 and 1 both ways. Job c holds
// n-5 and n-7 and sends nothing. Left free: n-1, n-3, n-4, n-6, no rack with
// two. Pack gives b n-1 and, for the rest, the last node that holds it, n-6:
// its ring would share rack 0's uplink with a. Without rack 0: n-3 and n-6,
// sharing rack 1's as much. Without racks 0 and 1: n-4 and n-6, only b's
// own traffic on the uplinks of racks 2 and 3: crux takes these.
ClusterSpec four_racks() {
  ClusterSpec spec = testing::crafted_cluster(8, 2);
  spec.fabric.nodes_per_rack = 2;
  spec.fabric.oversubscription = 4;
  return spec;
}

TEST(CruxPolicy, PlacesAJobAwayFromTheUplinksARunningJobLoads) {
  PolicyBench bench(four_racks(),
                    {ring_job("a", 4, 0, 1e9), testing::measured_job("c", 4, 0), ring_job("b", 4, 0, 1e9)});
  bench.submit(0);
  bench.submit(1);
  Plan running;
  running.allocate(0, {0, 1, 4, 5});
  running.allocate(1, {10, 11, 14, 15});
  bench.apply(running);
  bench.submit(2);
  EXPECT_EQ(PackPlacement().place(bench.state().spec(2), bench.state(), {}), std::optional<Gpus>(Gpus{2, 3, 12, 13}));
  const Plan plan = bench.schedule(*crux());
  ASSERT_EQ(plan.decisions().size(), 1u);
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{8, 9, 12, 13}));
}

TEST(CruxPolicy, WithoutTrafficOnItsLinksAJobGetsThePlacementsChoice) {
  // The same GPUs held, a's by a job that sends nothing: pack's n-1 and n-6 stand.
  PolicyBench bench(four_racks(),
                    {testing::measured_job("a", 4, 0), testing::measured_job("c", 4, 0), ring_job("b", 4, 0, 1e9)});
  bench.submit(0);
  bench.submit(1);
  Plan running;
  running.allocate(0, {0, 1, 4, 5});
  running.allocate(1, {10, 11, 14, 15});
  bench.apply(running);
  bench.submit(2);
  const Plan plan = bench.schedule(*crux());
  ASSERT_EQ(plan.decisions().size(), 1u);
  EXPECT_EQ(plan.decisions()[0].gpus, (Gpus{2, 3, 12, 13}));
}

TEST(CruxPolicy, RejectsUnknownOptionValues) {
  EXPECT_THROW(crux({{"order", "largest"}}), std::invalid_argument);
  EXPECT_THROW(crux({{"patience", "-1"}}), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
