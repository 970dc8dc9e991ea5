// Spot jobs under the capacity policy: a guaranteed job that finds no room
// preempts running spot jobs of any queue (lowest priority, then the most
// recently started, as few as needed); guaranteed jobs are served before
// spot jobs; a spot job never preempts; preempt_spot=false turns it off; and
// a job preempted for a guaranteed one is not preempted again by the
// monitor in the same call.
#include <gtest/gtest.h>

#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::capacity_policy;
using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;
using testing::steps_of;
using Ids = std::vector<std::string>;
using Step = testing::PlanStep;
constexpr auto kPreempt = Decision::Kind::kPreempt;
constexpr auto kAllocate = Decision::Kind::kAllocate;

JobSpec spot_job(const std::string& id, std::uint32_t gpus, Time submit, const std::string& queue,
                 std::int64_t priority = 0) {
  JobSpec job = queued_job(id, gpus, submit, queue, "u", priority);
  job.qos = QosClass::kSpot;
  return job;
}

// Two queues of 50%, each elastic to the whole cluster, no monitor.
const std::string kTwoQueues = R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2, "yarn.scheduler.capacity.root.b.user-limit-factor": 2})";

TEST(CapacitySpot, AGuaranteedJobPreemptsASpotJobOfAnotherQueueAtOnce) {
  // a's spot job borrows all 8 GPUs; b's guaranteed job of 4 arrives.
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("spot", 8, 0, "a"), queued_job("guaranteed", 4, 10, "b")});
  CapacityPolicy policy = capacity_policy(kTwoQueues);
  bench.advance(0);
  bench.step(policy);
  bench.advance(10);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 1}}));
  bench.apply(plan);
  EXPECT_EQ(bench.running(), (Ids{"guaranteed"}));
}

// a may not grow past 50%: its spot job holds all of it. a's guaranteed job
// takes it back although GPUs are free; b's spot job, started later (first
// in the order), is not in its way and runs on.
TEST(CapacitySpot, AGuaranteedJobTakesItsQueuesMaximumBackFromItsSpotJobs) {
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("a-spot", 4, 0, "a"), spot_job("b-spot", 2, 1, "b"),
                                              queued_job("a-guaranteed", 2, 10, "a")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.maximum-capacity": 50, "yarn.scheduler.capacity.root.b.user-limit-factor": 2})");
  for (Time t : {0.0, 1.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  ASSERT_EQ(bench.running(), (Ids{"a-spot", "b-spot"}));
  bench.advance(10);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, 0}, {kAllocate, 2}}));
  bench.apply(plan);
  EXPECT_EQ(bench.running(), (Ids{"b-spot", "a-guaranteed"}));
}

TEST(CapacitySpot, TheLowestPriorityThenTheMostRecentlyStartedSpotJobGoesFirst) {
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("low-old", 2, 0, "a", 1), spot_job("low-young", 2, 1, "a", 1),
                                              spot_job("high", 4, 2, "a", 5), queued_job("guaranteed", 2, 10, "b")});
  CapacityPolicy policy = capacity_policy(kTwoQueues);
  for (Time t : {0.0, 1.0, 2.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  ASSERT_EQ(bench.running().size(), 3u);
  bench.advance(10);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, 1}, {kAllocate, 3}}));
}

TEST(CapacitySpot, ASpotJobNeverPreempts) {
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("running-spot", 4, 0, "a"), queued_job("running", 4, 0, "a"),
                                              spot_job("waiting-spot", 4, 10, "b")});
  CapacityPolicy policy = capacity_policy(kTwoQueues);
  bench.advance(0);
  bench.step(policy);
  bench.advance(10);
  EXPECT_TRUE(bench.schedule(policy).empty());
}

TEST(CapacitySpot, GuaranteedJobsAreServedBeforeSpotJobs) {
  // Both wait in the same call; a is offered first (the queues tie, a's path
  // is first), but its job is spot: b's guaranteed job starts, and the spot
  // job no longer fits.
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("spot", 8, 0, "a"), queued_job("guaranteed", 4, 0, "b")});
  CapacityPolicy policy = capacity_policy(kTwoQueues);
  bench.advance(0);
  EXPECT_EQ(steps_of(bench.schedule(policy)), (std::vector<Step>{{kAllocate, 1}}));
}

TEST(CapacitySpot, WithSpotPreemptionOffNothingIsPreempted) {
  CapacityBench bench(crafted_cluster(1, 8), {spot_job("spot", 8, 0, "a"), queued_job("guaranteed", 4, 10, "b")});
  const auto policy = CapacityPolicy::create({{"preempt_spot", "false"}}, std::make_unique<PackPlacement>());
  bench.advance(0);
  bench.step(*policy);
  bench.advance(10);
  EXPECT_TRUE(bench.schedule(*policy).empty());
}

TEST(CapacitySpot, AJobPreemptedForAGuaranteedJobIsNotPreemptedAgainByTheMonitor) {
  // Rounds every second, 5 s grace. a holds all 8 GPUs: a1 (guaranteed, 4),
  // a2 and a3 (spot, 2 each; a3 the youngest). b's spot job b1 (2 GPUs) at
  // 10 s is pending demand: the round at 10 s marks a3. At 15 s b's
  // guaranteed job b2 arrives and preempts a3 at once (of the spot jobs
  // started together, the latest in the workload); the round at 15 s, which
  // would have preempted a3 again, marks a2 instead, b1 still waiting.
  CapacityBench bench(crafted_cluster(1, 8),
                      {queued_job("a1", 4, 0, "a"), spot_job("a2", 2, 0, "a"), spot_job("a3", 2, 0, "a"),
                       spot_job("b1", 2, 10, "b"), queued_job("b2", 2, 15, "b")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.user-limit-factor": 2,
    "yarn.resourcemanager.scheduler.monitor.enable": true,
    "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval": 1000,
    "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill": 5000,
    "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round": 1,
    "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor": 1})");
  for (Time t : {0.0, 10.0, 11.0, 12.0, 13.0, 14.0}) {
    bench.advance(t);
    bench.step(policy);
  }
  ASSERT_EQ(bench.running(), (Ids{"a1", "a2", "a3"}));
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a3")), 10.0);
  bench.advance(15);
  const Plan plan = bench.schedule(policy);
  EXPECT_EQ(steps_of(plan), (std::vector<Step>{{kPreempt, 2}, {kAllocate, 4}}));
  EXPECT_EQ(policy.monitor().marked_at(bench.index("a2")), 15.0);
  EXPECT_FALSE(policy.monitor().marked_at(bench.index("a3")));
  bench.apply(plan);
  EXPECT_EQ(bench.running(), (Ids{"a1", "a2", "b2"}));
}

}  // namespace
}  // namespace gcsim
