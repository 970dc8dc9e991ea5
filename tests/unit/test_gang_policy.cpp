// Gang: a job gets its whole GPU set in one decision or nothing.
#include <gtest/gtest.h>

#include "policies/gang/gang_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim {
namespace {

using testing::crafted_cluster;
using testing::measured_job;
using testing::PolicyBench;
using Jobs = std::vector<JobIndex>;

GangPolicy gang(bool head_blocking = false) { return GangPolicy(std::make_unique<PackPlacement>(), head_blocking); }

TEST(GangReservation, CommitsOnlyAtQuorum) {
  PolicyBench bench(crafted_cluster(1, 8), {measured_job("short", 4, 0), measured_job("complete", 4, 0)});
  RoomLeft room(bench.state());
  Plan plan;
  GangReservation short_of_quorum(0, 4);
  short_of_quorum.reserve({0, 1, 2});
  EXPECT_FALSE(short_of_quorum.commit_or_roll_back(plan, room, bench.state().spec(0)));
  EXPECT_TRUE(plan.decisions().empty());
  EXPECT_EQ(room.view().free_gpu_count(), 8u);

  GangReservation complete(1, 4);
  complete.reserve({4, 5});
  complete.reserve({6, 7});
  EXPECT_TRUE(complete.commit_or_roll_back(plan, room, bench.state().spec(1)));
  ASSERT_EQ(plan.decisions().size(), 1u);
  EXPECT_EQ(plan.decisions()[0].gpus, (std::vector<GpuId>{4, 5, 6, 7}));
  EXPECT_TRUE(!room.view().is_free(4) && !room.view().is_free(7) && room.view().is_free(0));
}

TEST(GangPolicy, NeverAllocatesPartOfAJob) {
  // 4 GPUs, 2 busy: a 4-GPU job gets nothing, not the 2 free ones.
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("busy", 2, 0), measured_job("wide", 4, 1)});
  bench.submit_all();
  Plan first;
  first.allocate(0, {0, 1});
  bench.apply(first);
  GangPolicy policy = gang();
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());
  EXPECT_TRUE(bench.state().holding().empty());
}

TEST(GangPolicy, AJobThatCannotStartDoesNotBlockOnesThatCan) {
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("busy", 2, 0), measured_job("wide", 4, 1), measured_job("narrow", 2, 2)});
  bench.submit_all();
  Plan first;
  first.allocate(0, {0, 1});
  bench.apply(first);
  GangPolicy policy = gang();
  const auto applied = bench.step(policy);
  EXPECT_EQ(applied.started, (Jobs{2}));
}

TEST(GangPolicy, HeadBlockingOptionKeepsFifoOrder) {
  PolicyBench bench(crafted_cluster(1, 4),
                    {measured_job("busy", 2, 0), measured_job("wide", 4, 1), measured_job("narrow", 2, 2)});
  bench.submit_all();
  Plan first;
  first.allocate(0, {0, 1});
  bench.apply(first);
  GangPolicy policy = gang(/*head_blocking=*/true);
  EXPECT_TRUE(bench.schedule(policy).decisions().empty());
}

TEST(GangPolicy, CreateValidatesItsOption) {
  EXPECT_THROW(GangPolicy::create({{"head_blocking", "yes"}}, std::make_unique<PackPlacement>()),
               std::invalid_argument);
  EXPECT_NO_THROW(GangPolicy::create({{"head_blocking", "true"}}, std::make_unique<PackPlacement>()));
}

}  // namespace
}  // namespace gcsim
