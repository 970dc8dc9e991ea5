// Workloads drawn by days from a given one (workloads/workload_resampling.hpp):
// which days a seed draws, where their jobs land, their ids, and the
// dependencies kept within a day or dropped across days.
#include "workloads/workload_resampling.hpp"

#include <set>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

JobSpec job_at(const std::string& id, Time submit) {
  JobSpec job;
  job.id = id;
  job.submit = submit;
  return job;
}

// Day 0: "a" at 1h, "b" at 2h waiting for "a"; day 1: "c" at 1 day + 3h waiting for "a" (another day).
std::vector<JobSpec> two_days() {
  std::vector<JobSpec> jobs{job_at("a", 3600), job_at("b", 7200), job_at("c", kDay + 3 * 3600)};
  jobs[1].change_relations().after = {0};
  jobs[1].change_relations().after_delay = 60;
  jobs[2].change_relations().after = {0};
  jobs[2].change_relations().after_delay = 60;
  return jobs;
}

// The draws of PortableRandom(seed).below(2), twice, pinned: every platform draws these.
TEST(WorkloadResampling, EachSeedDrawsItsDaysTheSameEverywhere) {
  const std::vector<std::vector<std::size_t>> expected{{0, 1}, {0, 0}, {0, 1}, {1, 1}, {1, 0},
                                                       {0, 0}, {0, 1}, {1, 0}, {1, 0}, {1, 0}};
  for (std::uint64_t seed = 0; seed < expected.size(); ++seed) {
    EXPECT_EQ(drawn_periods(2, seed), expected[seed]) << seed;
    EXPECT_EQ(resample_periods(two_days(), kDay, 'd', seed).periods_drawn, expected[seed]) << seed;
  }
}

// Seed 1 draws day 0 twice: "a" and "b" at their times and a day later, each
// "b" waiting for its own day's "a"; "c" (day 1) is not drawn.
TEST(WorkloadResampling, ADayDrawnTwiceIsCopiedWithItsDependenciesAndDistinctIds) {
  const ResampledWorkload days = resample_periods(two_days(), kDay, 'd', 1);
  ASSERT_EQ(days.jobs.size(), 4u);
  const std::vector<std::string> ids{"a@d0", "b@d0", "a@d1", "b@d1"};
  const std::vector<Time> submits{3600, 7200, kDay + 3600, kDay + 7200};
  for (std::size_t j = 0; j < 4; ++j) {
    EXPECT_EQ(days.jobs[j].id, ids[j]);
    EXPECT_DOUBLE_EQ(days.jobs[j].submit, submits[j]);
  }
  EXPECT_EQ(days.jobs[1].after(), std::vector<JobIndex>{0});
  EXPECT_EQ(days.jobs[3].after(), std::vector<JobIndex>{2});
  EXPECT_DOUBLE_EQ(days.jobs[3].after_delay(), 60);
  EXPECT_EQ(days.dependencies_dropped, 0u);
}

// Seed 3 draws day 1 twice: "c" at 3h and a day later at 3h, its wait for
// "a" (day 0) dropped in both copies, and its after_delay with it.
TEST(WorkloadResampling, ADependencyOnAnotherDayIsDroppedAndCounted) {
  const ResampledWorkload days = resample_periods(two_days(), kDay, 'd', 3);
  ASSERT_EQ(days.jobs.size(), 2u);
  EXPECT_EQ(days.jobs[0].id, "c@d0");
  EXPECT_DOUBLE_EQ(days.jobs[0].submit, 3 * 3600);
  EXPECT_EQ(days.jobs[1].id, "c@d1");
  EXPECT_DOUBLE_EQ(days.jobs[1].submit, kDay + 3 * 3600);
  for (const JobSpec& job : days.jobs) {
    EXPECT_TRUE(job.after().empty());
    EXPECT_DOUBLE_EQ(job.after_delay(), 0);
  }
  EXPECT_EQ(days.dependencies_dropped, 2u);
}

// Seed 4 draws day 1 then day 0: the days trade places.
TEST(WorkloadResampling, DaysTradePlacesAndTheLoadScaleCompressesArrivals) {
  ResampledWorkload days = resample_periods(two_days(), kDay, 'd', 4);
  ASSERT_EQ(days.jobs.size(), 3u);
  EXPECT_EQ(days.jobs[0].id, "c@d0");
  EXPECT_DOUBLE_EQ(days.jobs[0].submit, 3 * 3600);
  EXPECT_EQ(days.jobs[1].id, "a@d1");
  EXPECT_DOUBLE_EQ(days.jobs[1].submit, kDay + 3600);
  EXPECT_EQ(days.jobs[2].after(), std::vector<JobIndex>{1});
  scale_load(days.jobs, 2);
  EXPECT_DOUBLE_EQ(days.jobs[0].submit, 1.5 * 3600);
  EXPECT_DOUBLE_EQ(days.jobs[2].submit, (kDay + 7200) / 2);
  // Weeks: both jobs of the first week, the third too (all in week 0), whatever the seed.
  const ResampledWorkload weeks = resample_periods(two_days(), kWeek, 'w', 4);
  ASSERT_EQ(weeks.jobs.size(), 3u);
  EXPECT_EQ(weeks.jobs[2].id, "c@w0");
  EXPECT_EQ(weeks.jobs[2].after(), std::vector<JobIndex>{0});
}

}  // namespace
}  // namespace gcsim
