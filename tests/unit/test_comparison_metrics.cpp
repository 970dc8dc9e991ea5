// Specification of the figures compare adds to a run's summary: slowdown and
// finish-time fairness per job, Jain's index over users, the share of GPU
// time left free while jobs wait, and capacity queues' guarantee attainment.
// Every expected value is worked out by hand in the comment beside it.
#include "sim/report/comparison_metrics.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

// ---- slowdown and finish-time fairness ---------------------------------------------------

TEST(Slowdown, IsJctOverUncontendedRunTime) {
  EXPECT_DOUBLE_EQ(*slowdown({"alice", 30, 10}), 3);
  EXPECT_DOUBLE_EQ(*slowdown({"bob", 20, 20}), 1);
}

TEST(Slowdown, IsUndefinedWithoutAPositiveUncontendedTime) {
  EXPECT_FALSE(slowdown({"alice", 30, kNever}).has_value());
  EXPECT_FALSE(slowdown({"alice", 30, 0}).has_value());
}

TEST(SummarizeSlowdowns, MeanAndMaxOverJobsThatHaveOne) {
  // Slowdowns 3 and 1; the third job has no uncontended time and is left out.
  const SlowdownSummary s = summarize_slowdowns({{"alice", 30, 10}, {"bob", 20, 20}, {"carol", 5, kNever}});
  EXPECT_EQ(s.count, 2u);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.max, 3);
}

TEST(SummarizeSlowdowns, NoJobsIsAllZero) {
  const SlowdownSummary s = summarize_slowdowns({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.max, 0);
}

TEST(MeanSlowdownByUser, AveragesEachUsersJobs) {
  // alice: slowdowns 3 and 1, mean 2; bob: 4; carol has none and is absent.
  const auto by_user =
      mean_slowdown_by_user({{"alice", 30, 10}, {"bob", 40, 10}, {"alice", 5, 5}, {"carol", 7, kNever}});
  ASSERT_EQ(by_user.size(), 2u);
  EXPECT_DOUBLE_EQ(by_user.at("alice"), 2);
  EXPECT_DOUBLE_EQ(by_user.at("bob"), 4);
  EXPECT_EQ(user_values(by_user), (std::vector<double>{2, 4}));
}

// ---- Jain's index ----------------------------------------------------------------------

TEST(JainIndex, EqualValuesAreFair) { EXPECT_DOUBLE_EQ(*jain_index({2, 2, 2}), 1); }

TEST(JainIndex, OneValueHoldingEverythingIsOneOverN) { EXPECT_DOUBLE_EQ(*jain_index({1, 0, 0, 0}), 0.25); }

TEST(JainIndex, TwoUnequalValues) {
  // (3 + 1)^2 / (2 * (9 + 1)) = 16 / 20
  EXPECT_DOUBLE_EQ(*jain_index({3, 1}), 0.8);
}

TEST(JainIndex, ThreeUsers) {
  // (1 + 2 + 3)^2 / (3 * (1 + 4 + 9)) = 36 / 42
  EXPECT_DOUBLE_EQ(*jain_index({1, 2, 3}), 36.0 / 42.0);
}

TEST(JainIndex, IsUndefinedForNoValuesOrAllZero) {
  EXPECT_FALSE(jain_index({}).has_value());
  EXPECT_FALSE(jain_index({0, 0}).has_value());
}

TEST(JainIndex, IsUndefinedForOneUser) {
  // (x)^2 / (1 * x^2) = 1 whatever x: one user says nothing of fairness.
  EXPECT_FALSE(jain_index({5}).has_value());
  EXPECT_FALSE(jain_index({1}).has_value());
}

// ---- fragmentation ---------------------------------------------------------------------

// Four GPUs over [0, 40):
//   [0, 10)   4 allocated, 1 queued   no GPU free
//   [10, 20)  1 allocated, 1 queued   3 free while a job waits: 30 GPU-s
//   [20, 30)  4 allocated, 0 queued
//   [30, 40)  2 allocated, 0 queued   free, but nothing waits
const std::vector<TimelinePoint> kTimeline{{0, 4, 4, 1}, {10, 1, 1, 1}, {20, 4, 4, 0}, {30, 2, 2, 0}};

TEST(FragmentationShare, CountsFreeGpusOnlyWhileAJobWaits) {
  // 30 GPU-s / (4 GPUs * 40 s)
  EXPECT_DOUBLE_EQ(fragmentation_share(kTimeline, 4, 0, 40), 30.0 / 160.0);
}

TEST(FragmentationShare, IsClippedToTheWindow) {
  // [15, 20): 3 free while waiting for 5 s = 15 GPU-s, over 4 GPUs * 10 s.
  EXPECT_DOUBLE_EQ(fragmentation_share(kTimeline, 4, 15, 25), 15.0 / 40.0);
}

TEST(FragmentationShare, TheLastPointHoldsUntilTheEndOfTheWindow) {
  // From 10 on: 1 allocated, 1 queued until 50; 3 free * 40 s over 4 * 50.
  const std::vector<TimelinePoint> stuck{{0, 4, 4, 1}, {10, 1, 1, 1}};
  EXPECT_DOUBLE_EQ(fragmentation_share(stuck, 4, 0, 50), 120.0 / 200.0);
}

TEST(FragmentationShare, NothingIsCountedBeforeTheFirstPoint) {
  // The window starts at 0 but the timeline at 10: [10, 20) gives 3 * 10.
  const std::vector<TimelinePoint> late{{10, 1, 1, 2}, {20, 4, 4, 0}};
  EXPECT_DOUBLE_EQ(fragmentation_share(late, 4, 0, 20), 30.0 / 80.0);
}

TEST(FragmentationShare, IsZeroWhenNothingWaits) {
  const std::vector<TimelinePoint> idle{{0, 0, 0, 0}, {10, 2, 2, 0}};
  EXPECT_EQ(fragmentation_share(idle, 4, 0, 20), 0);
}

TEST(FragmentationShare, IsZeroForAnEmptyWindowOrNoGpus) {
  EXPECT_EQ(fragmentation_share(kTimeline, 4, 10, 10), 0);
  EXPECT_EQ(fragmentation_share(kTimeline, 0, 0, 40), 0);
}

// ---- guarantee attainment -------------------------------------------------------------

// One queue guaranteed 4 GPUs, over [0, 20):
//   a  2 GPUs  submitted 0, runs 0-10
//   b  4 GPUs  submitted 0, waits 0-5, runs 5-15
//   c  2 GPUs  submitted 10, never starts
//   [0, 5)    demand 6, owed min(6, 4) = 4, running 2: 2/4    x 5 s = 2.5
//   [5, 10)   demand 6, owed 4, running 6: min(1, 6/4) = 1   x 5 s = 5
//   [10, 15)  demand 6 (b, c), owed 4, running 4 (b): 1       x 5 s = 5
//   [15, 20)  demand 2 (c), owed 2, running 0: 0              x 5 s = 0
// 12.5 over 20 s of demand.
const std::vector<QueueGuarantee> kOneQueue{{"root.q", 4}};
const std::vector<QueueJobSpan> kQueueJobs{{0, 2, 0, 0, 10}, {0, 4, 0, 5, 15}, {0, 2, 10, kNever, kNever}};

TEST(GuaranteeAttainment, WeighsEachInstantByTheShareOfItsGuaranteeTheQueueHeld) {
  const auto queues = guarantee_attainment(kOneQueue, kQueueJobs, 20);
  ASSERT_EQ(queues.size(), 1u);
  EXPECT_EQ(queues[0].queue, "root.q");
  EXPECT_DOUBLE_EQ(queues[0].guaranteed_gpus, 4);
  EXPECT_DOUBLE_EQ(queues[0].demand_time, 20);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 12.5 / 20);
}

TEST(GuaranteeAttainment, AQueueAskingLessThanItsGuaranteeIsOwedOnlyWhatItAsks) {
  // 2 GPUs of a guarantee of 8: waiting 0-10 (0), running 10-30 (2/2 = 1).
  const auto queues = guarantee_attainment({{"small", 8}}, {{0, 2, 0, 10, 30}}, 30);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 20.0 / 30);
}

TEST(GuaranteeAttainment, BorrowingBeyondTheGuaranteeCountsAsOne) {
  // A guarantee of 2: 6 GPUs run 0-10; 10-20 a 2-GPU job waits while 4 run; 20-30 it runs. 1 throughout.
  const auto queues = guarantee_attainment({{"q", 2}}, {{0, 4, 0, 0, 20}, {0, 2, 0, 0, 10}, {0, 2, 10, 20, 30}}, 30);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 1);
}

TEST(GuaranteeAttainment, TimeWithoutDemandDoesNotCount) {
  // Served 0-10; nothing 10-20; waiting 20-25, served 25-30: 15 of 20 s of demand.
  const auto queues = guarantee_attainment({{"q", 4}}, {{0, 4, 0, 0, 10}, {0, 4, 20, 25, 30}}, 40);
  EXPECT_DOUBLE_EQ(queues[0].demand_time, 20);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 0.75);
}

TEST(GuaranteeAttainment, JobsNotEndedDemandAndRunUntilTheEndOfTheRun) {
  // Waiting 0-10, running from 10 and not ended by 40: 30 of 40 s; nothing after 40 counts.
  const auto queues = guarantee_attainment({{"q", 4}}, {{0, 4, 0, 10, kNever}, {0, 4, 50, kNever, kNever}}, 40);
  EXPECT_DOUBLE_EQ(queues[0].demand_time, 40);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 0.75);
}

TEST(GuaranteeAttainment, AQueueGuaranteedNothingAttainsItWheneverItHasDemand) {
  const auto queues = guarantee_attainment({{"zero", 0}}, {{0, 2, 0, kNever, kNever}}, 10);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 1);
}

TEST(GuaranteeAttainment, EachJobCountsInItsOwnQueueAndAQueueWithoutDemandHasNone) {
  // "busy" as kQueueJobs; "served" always holds its 2 GPUs; "idle" has no job.
  std::vector<QueueJobSpan> jobs = kQueueJobs;
  jobs.push_back({1, 2, 0, 0, 20});
  const auto queues = guarantee_attainment({{"busy", 4}, {"served", 2}, {"idle", 4}}, jobs, 20);
  ASSERT_EQ(queues.size(), 3u);
  EXPECT_DOUBLE_EQ(*queues[0].attainment, 12.5 / 20);
  EXPECT_DOUBLE_EQ(*queues[1].attainment, 1);
  EXPECT_FALSE(queues[2].attainment.has_value());
  EXPECT_DOUBLE_EQ(queues[2].demand_time, 0);
  EXPECT_DOUBLE_EQ(*minimum_attainment(queues), 12.5 / 20);
}

TEST(MinimumAttainment, IsUndefinedWhenNoQueueHadDemand) {
  EXPECT_FALSE(minimum_attainment({}).has_value());
  EXPECT_FALSE(minimum_attainment(guarantee_attainment({{"idle", 4}}, {}, 10)).has_value());
}

}  // namespace
}  // namespace gcsim
