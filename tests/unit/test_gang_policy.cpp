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

// One 4-GPU node; `r` holds 3. Jobs larger than the GPU left wait, call
// after call, while the 1-GPU jobs that arrive behind them start as the GPU
// frees up; once r ends, the first 2-GPU job starts and the other waits.
TEST(GangPolicy, SmallJobsArrivingBehindLargerOnesStartAcrossCalls) {
  constexpr JobIndex r = 0, b = 1, d = 2, c = 3, e = 4;
  PolicyBench bench(crafted_cluster(1, 4), {measured_job("r", 3, 0), measured_job("b", 2, 1), measured_job("d", 2, 2),
                                            measured_job("c", 1, 3), measured_job("e", 1, 4)});
  GangPolicy policy(std::make_unique<PackPlacement>(), /*head_blocking=*/false);
  bench.submit(r);
  EXPECT_EQ(bench.step(policy).started, (Jobs{r}));
  for (JobIndex job : {b, d}) {
    bench.now = bench.now + 1;
    bench.submit(job);
    EXPECT_TRUE(bench.step(policy).started.empty());
  }
  bench.now = 3;
  bench.submit(c);
  EXPECT_EQ(bench.step(policy).started, (Jobs{c}));
  bench.now = 4;
  bench.submit(e);
  EXPECT_TRUE(bench.step(policy).started.empty());
  bench.now = 5;
  bench.finish(c);
  EXPECT_EQ(bench.step(policy).started, (Jobs{e}));
  bench.now = 6;
  bench.finish(r);
  EXPECT_EQ(bench.step(policy).started, (Jobs{b}));
}

TEST(GangPolicy, CreateValidatesItsOption) {
  EXPECT_THROW(GangPolicy::create({{"head_blocking", "yes"}}, std::make_unique<PackPlacement>()),
               std::invalid_argument);
  EXPECT_NO_THROW(GangPolicy::create({{"head_blocking", "true"}}, std::make_unique<PackPlacement>()));
}

}  // namespace
}  // namespace gcsim
