// Capacity queues: guaranteed shares, elastic borrowing up to the maximum,
// least-used children served first, FIFO by priority inside a leaf, and
// dominant-share accounting of GPUs, cores and memory.
#include <gtest/gtest.h>

#include "policies/capacity/capacity_config.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/queue_usage.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::capacity_policy;
using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;
using Ids = std::vector<std::string>;

// Queues a and b, 50% each, with the given maximum capacities (percent).
std::string halves(int max_a, int max_b, const std::string& extra = "") {
  return R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50,
    "yarn.scheduler.capacity.root.a.maximum-capacity": )" +
         std::to_string(max_a) + R"(, "yarn.scheduler.capacity.root.b.maximum-capacity": )" + std::to_string(max_b) +
         extra + "}";
}

TEST(CapacityQueues, EachQueueGetsItsGuaranteeWhenAllAreBusy) {
  // 8 GPUs, a and b 50% each without elasticity: 4 GPUs each, whatever the
  // submission order; the least-used queue is served next, so starts alternate.
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 5; ++i) jobs.push_back(queued_job("a" + std::to_string(i), 1, 0, "a", "ua"));
  for (int i = 1; i <= 5; ++i) jobs.push_back(queued_job("b" + std::to_string(i), 1, 0, "b", "ub"));
  CapacityBench bench(crafted_cluster(1, 8), jobs);
  CapacityPolicy policy = capacity_policy(halves(50, 50));
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"}));
}

TEST(CapacityQueues, IdleCapacityIsBorrowedUpToTheMaximum) {
  // b is idle: a (maximum 75%) grows to 6 of 8 GPUs, not 8. Its user may take
  // that much with user-limit-factor 2 (2 x 4 GPUs).
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 8; ++i) jobs.push_back(queued_job("a" + std::to_string(i), 1, 0, "a"));
  jobs.push_back(queued_job("b1", 2, 10, "b"));
  CapacityBench bench(crafted_cluster(1, 8), jobs);
  CapacityPolicy policy =
      capacity_policy(halves(75, 100, R"(, "yarn.scheduler.capacity.root.a.user-limit-factor": 2)"));
  bench.advance(0);
  EXPECT_EQ(bench.step(policy).started.size(), 6u);
  // The 2 GPUs a may not take are b's as soon as it asks.
  bench.advance(10);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"b1"}));
}

TEST(CapacityQueues, AParentsMaximumCapsItsChildren) {
  // research may use at most 50% of 8 GPUs; its only child x, although
  // allowed 100% of research, gets 4 GPUs.
  const std::string config = R"({"yarn.scheduler.capacity.root.queues": "prod,research",
    "yarn.scheduler.capacity.root.prod.capacity": 50, "yarn.scheduler.capacity.root.research.capacity": 50,
    "yarn.scheduler.capacity.root.research.maximum-capacity": 50,
    "yarn.scheduler.capacity.root.research.queues": "x",
    "yarn.scheduler.capacity.root.research.x.capacity": 100,
    "yarn.scheduler.capacity.root.research.x.user-limit-factor": 4})";
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 6; ++i) jobs.push_back(queued_job("x" + std::to_string(i), 1, 0, "x"));
  CapacityBench bench(crafted_cluster(1, 8), jobs);
  CapacityPolicy policy = capacity_policy(config);
  bench.advance(0);
  EXPECT_EQ(bench.step(policy).started.size(), 4u);
}

TEST(CapacityQueues, TheLeastUsedChildIsServedFirst) {
  // a (75%) holds 3 GPUs: used capacity 3/8 / 0.75 = 0.5; b (25%) holds 4:
  // 4/8 / 0.25 = 2. One GPU is free: a's job gets it although b's waited longer.
  CapacityBench bench(crafted_cluster(1, 8), {queued_job("a0", 3, 0, "a", "ua"), queued_job("b0", 4, 0, "b", "ub"),
                                              queued_job("b1", 1, 5, "b", "vb"), queued_job("a1", 1, 6, "a", "va")});
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 75, "yarn.scheduler.capacity.root.b.capacity": 25})");
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"a0", "b0"}));
  bench.advance(6);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"a1"}));
  // Once a's job is done, b's waiting job starts.
  bench.advance(7);
  bench.finish("a1");
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"b1"}));
}

TEST(CapacityQueues, QueuesWithinTheirGuaranteeComeFirstForFreeGpus) {
  // a (50%, elastic to 100%) borrows 6 of 8 GPUs. b's 4-GPU job, within b's
  // guarantee, waits for room; a's next job would borrow more, so it may not
  // take the 2 free GPUs b needs. When 2 more free up, b's job starts.
  CapacityBench bench(crafted_cluster(1, 8), {queued_job("a1", 2, 0, "a", "u1"), queued_job("a2", 2, 0, "a", "u2"),
                                              queued_job("a3", 2, 0, "a", "u3"), queued_job("b1", 4, 10, "b", "v"),
                                              queued_job("a4", 2, 11, "a", "u4")});
  CapacityPolicy policy = capacity_policy(halves(100, 100));
  bench.advance(0);
  EXPECT_EQ(bench.step(policy).started.size(), 3u);
  bench.advance(11);
  EXPECT_TRUE(bench.step(policy).started.empty());
  bench.advance(12);
  bench.finish("a1");
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"b1"}));
}

TEST(CapacityQueues, HigherPriorityFirstThenEarlierSubmission) {
  // One queue, 4 GPUs: 2 GPUs free at each call. Priority beats submission
  // time; equal priorities keep submission order.
  CapacityBench bench(
      crafted_cluster(1, 4),
      {queued_job("running", 2, 0, "default", "u0"), queued_job("low", 2, 1, "default", "u1", 0),
       queued_job("high", 2, 2, "default", "u2", 5), queued_job("high-later", 2, 3, "default", "u3", 5)});
  CapacityPolicy policy = capacity_policy(
      R"({"yarn.scheduler.capacity.root.queues": "default", "yarn.scheduler.capacity.root.default.capacity": 100})");
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"running"}));
  bench.advance(3);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"high"}));
  bench.finish("high");
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"high-later"}));
  bench.finish("high-later");
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"low"}));
}

TEST(CapacityQueues, QueueMaximumIsOnTheDominantShare) {
  // 8 GPUs and 32 cores; a may use 50%. A 1-GPU job asking 20 cores has a
  // dominant share of 20/32 = 62.5% and never starts in a; one asking 16
  // cores (50%) does, though 7 GPUs stay free.
  JobSpec greedy = queued_job("cores-20", 1, 0, "a", "u1");
  greedy.cpu_cores = 20;
  JobSpec fits = queued_job("cores-16", 1, 0, "a", "u2");
  fits.cpu_cores = 16;
  CapacityBench bench(crafted_cluster(1, 8), {greedy, fits});
  CapacityPolicy policy = capacity_policy(halves(50, 50));
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"cores-16"}));
}

TEST(CapacityQueues, HostResourcesOfTheClusterBoundWhatRuns) {
  // 8 GPUs, 32 cores: two jobs of 1 GPU and 20 cores cannot run together,
  // although each is within its queue's maximum (100%).
  JobSpec first = queued_job("first", 1, 0, "a", "u1");
  first.cpu_cores = 20;
  JobSpec second = queued_job("second", 1, 0, "b", "u2");
  second.cpu_cores = 20;
  CapacityBench bench(crafted_cluster(1, 8), {first, second});
  CapacityPolicy policy = capacity_policy(halves(100, 100));
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"first"}));
}

}  // namespace
}  // namespace gcsim

namespace gcsim {
namespace {

// Charging running jobs in bulk gives the queues and the users exactly what
// charging them one by one gives, shares that do not add up exactly in
// binary included (0.1 + 0.2 + 0.3 depends on the order of the sums).
TEST(QueueUsageCharges, InBulkTheSameSumsAsOneByOne) {
  const CapacityConfig config = CapacityConfig::one_queue_per_name({"prod", "dev"});
  const QueueTree tree(config);
  const int prod = tree.find_leaf("prod").index, dev = tree.find_leaf("dev").index;
  const std::vector<std::string> users = {"ann", "bob"};
  const std::vector<ResourceVector> requests = {{0.1, 1, 1e9}, {0.2, 3, 2.5e9}, {0.3, 1, 0.5e9}, {1, 2, 3e9}};
  const std::vector<QueueUsage::Charge> charges = {{prod, 0, &requests[0]}, {prod, 1, &requests[1]},
                                                   {prod, 0, &requests[2]}, {dev, 1, &requests[3]},
                                                   {prod, 0, &requests[1]}, {dev, 1, &requests[0]}};
  QueueUsage one_by_one(tree), in_bulk(tree);
  for (const QueueUsage::Charge& c : charges) one_by_one.start(c.leaf, users[c.user], *c.resources);
  in_bulk.start_all(charges, users);
  for (int q = 0; q < static_cast<int>(tree.size()); ++q)
    EXPECT_EQ(in_bulk.used(q), one_by_one.used(q)) << "queue " << q;
  for (int leaf : {prod, dev}) {
    ASSERT_EQ(in_bulk.users(leaf).size(), one_by_one.users(leaf).size());
    for (const auto& [name, usage] : one_by_one.users(leaf))
      EXPECT_EQ(in_bulk.user_used(leaf, name), usage.used) << name << " in leaf " << leaf;
  }
  EXPECT_EQ(in_bulk.user_used(prod, "ann").gpus, (0.1 + 0.3) + 0.2);
}

}  // namespace
}  // namespace gcsim
