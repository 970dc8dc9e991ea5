// User limits: YARN's formula, and what it lets users start.
#include <gtest/gtest.h>

#include "policies/capacity/user_limits.hpp"
#include "tests/support/capacity_bench.hpp"

namespace gcsim {
namespace {

using testing::capacity_policy;
using testing::CapacityBench;
using testing::crafted_cluster;
using testing::queued_job;
using Ids = std::vector<std::string>;

// Two 8-GPU nodes: 16 GPUs, 64 cores, 512 GB. The leaf has 50% (8 GPUs, 32
// cores, 256 GB) and may grow to 100%.
const ResourceVector kCluster{16, 64, 512e9};

struct UserLimitCase {
  const char* name;
  std::vector<double> active_gpus;    // GPUs held by each user with waiting jobs
  std::vector<double> inactive_gpus;  // GPUs held by users with nothing waiting
  double minimum_user_limit_percent;
  double user_limit_factor;
  double expected_gpus;
};

class UserLimitFormula : public ::testing::TestWithParam<UserLimitCase> {};

// By hand, with required = {1 GPU, 1 core, 1 byte} and queue capacity {8, 32, 256e9}:
//  below capacity (consumed < queue capacity): current = {8, 32, 256e9};
//    fair  = ceil((GPUs of active users + 1) / n) GPUs (and ceil(1/n) = 1 core),
//    floor = ceil(floor(current x percent) / 100) = 8 x percent / 100 GPUs;
//    limit = the larger (by dominant share), capped at floor(queue capacity x factor) = 8 x factor GPUs.
//  over capacity, 12 GPUs held: consumed = {12, 48, 384e9}, current = consumed + required = {13, 49, 384e9 + 1}:
//    floor = ceil(floor(13 x percent) / 100) GPUs: 25% -> 4, 50% -> 7, 100% -> 13.
TEST_P(UserLimitFormula, GivesTheHandComputedGpus) {
  const UserLimitCase& c = GetParam();
  const DominantResourceCalculator drc(kCluster);
  std::map<std::string, UserUsage> users;
  for (std::size_t i = 0; i < c.active_gpus.size(); ++i)
    users["active" + std::to_string(i)] = UserUsage{{c.active_gpus[i], 0, 0}, 1};
  for (std::size_t i = 0; i < c.inactive_gpus.size(); ++i)
    users["inactive" + std::to_string(i)] = UserUsage{{c.inactive_gpus[i], 0, 0}, 0};
  const UserLimitQueue queue{kCluster.scaled(0.5), kCluster, c.minimum_user_limit_percent, c.user_limit_factor};
  EXPECT_DOUBLE_EQ(compute_user_limit(drc, queue, users).gpus, c.expected_gpus);
}

INSTANTIATE_TEST_SUITE_P(Table, UserLimitFormula,
                         ::testing::Values(
                             // Below capacity, 2 active users holding 2 GPUs each: fair = ceil(5/2) = 3.
                             UserLimitCase{"TwoUsersPercent25", {2, 2}, {}, 25, 1, 3},    // floor 2 < fair 3
                             UserLimitCase{"TwoUsersPercent50", {2, 2}, {}, 50, 1, 4},    // floor 4
                             UserLimitCase{"TwoUsersPercent100", {2, 2}, {}, 100, 1, 8},  // floor 8, cap 8
                             UserLimitCase{"TwoUsersPercent100Factor2", {2, 2}, {}, 100, 2, 8},
                             // Below capacity, 3 active users holding 2 GPUs each: fair = ceil(7/3) = 3.
                             UserLimitCase{"ThreeUsersPercent25", {2, 2, 2}, {}, 25, 1, 3},
                             UserLimitCase{"ThreeUsersPercent50", {2, 2, 2}, {}, 50, 1, 4},
                             UserLimitCase{"ThreeUsersPercent100", {2, 2, 2}, {}, 100, 1, 8},
                             // Over capacity, 2 active users holding 6 GPUs each: fair = ceil(13/2) = 7.
                             UserLimitCase{"TwoUsersOverCapacityPercent25", {6, 6}, {}, 25, 1, 7},
                             UserLimitCase{"TwoUsersOverCapacityPercent50", {6, 6}, {}, 50, 1, 7},
                             UserLimitCase{"TwoUsersOverCapacityPercent100", {6, 6}, {}, 100, 1, 8},  // floor 13, cap 8
                             UserLimitCase{"TwoUsersOverCapacityPercent100Factor2", {6, 6}, {}, 100, 2, 13},  // cap 16
                             UserLimitCase{"TwoUsersOverCapacityPercent25Factor2", {6, 6}, {}, 25, 2, 7},
                             // Over capacity, 3 active users holding 4 GPUs each: fair = ceil(13/3) = 5.
                             UserLimitCase{"ThreeUsersOverCapacityPercent25", {4, 4, 4}, {}, 25, 1, 5},
                             UserLimitCase{"ThreeUsersOverCapacityPercent50", {4, 4, 4}, {}, 50, 1, 7},
                             UserLimitCase{"ThreeUsersOverCapacityPercent100", {4, 4, 4}, {}, 100, 1, 8},
                             UserLimitCase{"ThreeUsersOverCapacityPercent100Factor2", {4, 4, 4}, {}, 100, 2, 13},
                             // A user with nothing waiting counts in what the queue consumes (8
                             // GPUs: current = {9, 33, ...}, floor at 50% = ceil(4.5) = 5) but not
                             // in the division (fair = ceil(5/2) = 3).
                             UserLimitCase{"InactiveUserCountsInConsumedOnly", {2, 2}, {4}, 50, 1, 5},
                             // Nobody holds anything: fair = ceil(1/2) = 1 GPU, floor at 25% = 2.
                             UserLimitCase{"EmptyQueuePercent25", {0, 0}, {}, 25, 1, 2}),
                         [](const ::testing::TestParamInfo<UserLimitCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(UserLimitFormula, FactorMinusOneCapsAtTheQueueMaximum) {
  const DominantResourceCalculator drc(kCluster);
  std::map<std::string, UserUsage> users{{"a", UserUsage{{6, 0, 0}, 1}}, {"b", UserUsage{{6, 0, 0}, 1}}};
  const UserLimitQueue queue{kCluster.scaled(0.5), kCluster.scaled(0.75), 100, -1};
  EXPECT_DOUBLE_EQ(compute_user_limit(drc, queue, users).gpus, 12);  // floor 13, cap = 75% of 16
}

TEST(UserLimitFormula, AUserAtItsLimitMayStartOneMoreJob) {
  // YARN's test is "used > limit": the job being started is not counted.
  const DominantResourceCalculator drc(kCluster);
  const ResourceVector limit{4, 1, 1};
  EXPECT_TRUE(within_user_limit(drc, {4, 0, 0}, limit));
  EXPECT_FALSE(within_user_limit(drc, {5, 0, 0}, limit));
}

TEST(UserLimits, AnotherUserOvertakesAUserAboveTheLimit) {
  // One queue, 8 GPUs, minimum-user-limit-percent 50: with alice and bob both
  // waiting the limit is 4 GPUs (50% of 8). Alice starts jobs until she holds
  // more than 4 (the fifth starts at 4), then bob's jobs overtake her sixth;
  // once bob waits for nothing, alice alone is active and her limit grows.
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 6; ++i) jobs.push_back(queued_job("a" + std::to_string(i), 1, 0, "default", "alice"));
  jobs.push_back(queued_job("b1", 1, 0, "default", "bob"));
  jobs.push_back(queued_job("b2", 1, 0, "default", "bob"));
  CapacityBench bench(crafted_cluster(1, 8), jobs);
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "default",
    "yarn.scheduler.capacity.root.default.capacity": 100,
    "yarn.scheduler.capacity.root.default.minimum-user-limit-percent": 50})");
  bench.advance(0);
  EXPECT_EQ(bench.ids(bench.step(policy).started), (Ids{"a1", "a2", "a3", "a4", "a5", "b1", "b2", "a6"}));
}

TEST(UserLimits, TheFactorStopsASingleUserAtItsShare) {
  // Queue a has 50% of 8 GPUs and user-limit-factor 1: one user stops after
  // the job that takes it past 4 GPUs, although a may grow to 100%.
  std::vector<JobSpec> jobs;
  for (int i = 1; i <= 8; ++i) jobs.push_back(queued_job("a" + std::to_string(i), 1, 0, "a", "alice"));
  CapacityBench bench(crafted_cluster(1, 8), jobs);
  CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "a,b",
    "yarn.scheduler.capacity.root.a.capacity": 50, "yarn.scheduler.capacity.root.b.capacity": 50})");
  bench.advance(0);
  EXPECT_EQ(bench.step(policy).started.size(), 5u);
}

}  // namespace
}  // namespace gcsim
