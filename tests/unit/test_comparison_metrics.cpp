// Specification of the figures compare adds to a run's summary: slowdown and
// finish-time fairness per job, Jain's index over users, and the share of GPU
// time left free while jobs wait. Every expected value is worked out by hand
// in the comment beside it.
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

}  // namespace
}  // namespace gcsim
