// The search and the statistics of `gcsim plan`.
#include "sim/report/capacity_plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>

namespace gcsim {
namespace {

// Runs the search against a verdict per size; returns the answer and the sizes tried.
std::pair<std::optional<int>, std::vector<int>> search(int low, int high, const std::function<bool(int)>& meets) {
  PlanSearch s(low, high);
  std::vector<int> tried;
  while (const std::optional<int> size = s.next()) {
    tried.push_back(*size);
    s.record(*size, meets(*size));
  }
  return {s.answer(), tried};
}

TEST(PlanSearch, BisectsToTheFirstSizeThatMeetsAndChecksItsNeighbours) {
  const auto [answer, tried] = search(1, 64, [](int n) { return n >= 23; });
  EXPECT_EQ(answer, 23);
  EXPECT_EQ(tried.front(), 64);  // the largest first
  EXPECT_TRUE(std::set<int>(tried.begin(), tried.end()).count(22));
  EXPECT_TRUE(std::set<int>(tried.begin(), tried.end()).count(24));
  EXPECT_LE(tried.size(), 10u);  // log2(64) + the neighbour
}

TEST(PlanSearch, NoAnswerWhenTheLargestFailsAndTheSmallestWhenEverySizeMeets) {
  EXPECT_EQ(search(1, 16, [](int) { return false; }).first, std::nullopt);
  EXPECT_EQ(search(1, 16, [](int) { return false; }).second, std::vector<int>{16});
  EXPECT_EQ(search(3, 16, [](int) { return true; }).first, 3);
}

TEST(PlanSearch, AnAnswerWhoseUpperNeighbourFailsIsSoughtAgainAbove) {
  // Meets at 3 and from 5 on, not at 4: 3 is met by chance; 5 is the answer whose neighbours agree.
  const auto [answer, tried] = search(1, 8, [](int n) { return n == 3 || n >= 5; });
  EXPECT_EQ(answer, 5);
  EXPECT_TRUE(std::set<int>(tried.begin(), tried.end()).count(4));
}

TEST(PlanStatistics, StudentsIntervalOverTheSeeds) {
  const MeanInterval m = mean_interval({1, 2, 3});
  EXPECT_DOUBLE_EQ(m.mean, 2);
  EXPECT_NEAR(m.half_width, 4.303 / std::sqrt(3.0), 1e-12);  // t(0.975, 2) x s / sqrt(n), s = 1
  EXPECT_DOUBLE_EQ(mean_interval({7}).half_width, 0);
  const Slo slo = parse_slo("wait_p95<=4.4");
  EXPECT_TRUE(meets(slo, {2, 2.4}));
  EXPECT_FALSE(meets(slo, {2, 2.5}));
  EXPECT_TRUE(meets(parse_slo("utilization>=0.5"), {0.75, 0.25}));
  EXPECT_FALSE(meets(parse_slo("utilization>=0.5"), {0.75, 0.26}));
}

TEST(PlanSlo, AliasesAndPathsAndTheirErrors) {
  EXPECT_EQ(parse_slo("wait_p95<=3600").metric, "queueing_delay_s.p95");
  EXPECT_EQ(parse_slo("jct_mean<=3600").metric, "jct_s.mean");
  EXPECT_EQ(parse_slo("utilization>=0.6").metric, "gpu_utilization.busy_share");
  EXPECT_FALSE(parse_slo("utilization>=0.6").at_most);
  EXPECT_EQ(parse_slo("job_types.training.jct_s.p95<=7200").metric, "job_types.training.jct_s.p95");
  EXPECT_THROW(parse_slo("wait_p95<3600"), std::invalid_argument);
  EXPECT_THROW(parse_slo("wait_p96<=3600"), std::invalid_argument);
  EXPECT_THROW(parse_slo("wait_p95<=soon"), std::invalid_argument);
  EXPECT_THROW(parse_slo("<=5"), std::invalid_argument);
}

TEST(PlanSlo, EnergyAliasesNameTheSummarysEnergyAndAreTold) {
  EXPECT_EQ(parse_slo("energy_kwh<=900").metric, "energy.facility_kwh");
  EXPECT_EQ(parse_slo("it_kwh<=900").metric, "energy.it_kwh");
  EXPECT_EQ(parse_slo("peak_kw<=40").metric, "energy.peak_kw");
  EXPECT_EQ(parse_slo("mean_kw<=30").metric, "energy.mean_kw");
  EXPECT_TRUE(bounds_energy(parse_slo("peak_kw<=40")));
  EXPECT_TRUE(bounds_energy(parse_slo("energy.lost_work_kwh<=1")));
  EXPECT_FALSE(bounds_energy(parse_slo("wait_p95<=3600")));
  EXPECT_FALSE(bounds_energy(parse_slo("job_types.training.jct_s.p95<=7200")));
}

// "METRIC<=BOUND@P": met when at least a share P of the runs are within the
// bound, whatever their mean. The share needs at least 1/(1-P) runs.
TEST(PlanSlo, AChanceConstraintCountsTheRunsWithinTheBound) {
  const Slo slo = parse_slo("wait_mean<=1600@0.9");
  EXPECT_EQ(slo.metric, "queueing_delay_s.mean");
  EXPECT_DOUBLE_EQ(slo.bound, 1600);
  ASSERT_TRUE(slo.share);
  EXPECT_DOUBLE_EQ(*slo.share, 0.9);
  EXPECT_FALSE(parse_slo("wait_mean<=1600").share);
  // Ten runs, two above the bound: 8 of 10 within, short of 9. Their mean's
  // interval (1200 + 2.262 x 154.92 = 1550.4) is within it.
  const std::vector<double> runs{1200, 1800, 1200, 0, 1200, 1800, 1200, 1200, 1200, 1200};
  EXPECT_EQ(runs_within(slo, runs), 8u);
  EXPECT_FALSE(slo_met(slo, runs));
  EXPECT_TRUE(slo_met(parse_slo("wait_mean<=1600"), runs));
  EXPECT_TRUE(slo_met(parse_slo("wait_mean<=1600@0.8"), runs));  // 8 of 10 is a share of 0.8
  EXPECT_TRUE(slo_met(parse_slo("utilization>=0.5@0.5"), {0.5, 0.7, 0.2, 0.1}));
  EXPECT_FALSE(slo_met(parse_slo("utilization>=0.5@0.75"), {0.5, 0.7, 0.2, 0.1}));
  // 1/(1-P) runs at the least: 10 for 0.9 (1 - 0.9 is not exactly 0.1 in binary), 20 for 0.95, 5 for 0.8.
  EXPECT_EQ(fewest_runs_for(0.9), 10u);
  EXPECT_EQ(fewest_runs_for(0.95), 20u);
  EXPECT_EQ(fewest_runs_for(0.8), 5u);
  EXPECT_EQ(fewest_runs_for(0.5), 2u);
  EXPECT_THROW(parse_slo("wait_p95<=1800@1"), std::invalid_argument);
  EXPECT_THROW(parse_slo("wait_p95<=1800@0"), std::invalid_argument);
  EXPECT_THROW(parse_slo("wait_p95<=1800@often"), std::invalid_argument);
  EXPECT_THROW(parse_slo("wait_p95<=1800@"), std::invalid_argument);
}

TEST(PlanStatistics, RunsAreIdenticalWhenEveryValueIsTheSame) {
  EXPECT_TRUE(identical_runs({5, 5, 5}));
  EXPECT_FALSE(identical_runs({5, 5, 5.000001}));
  EXPECT_TRUE(identical_runs({1528.5336305732478, 1528.5336305732476}));  // the same sum in another order
  EXPECT_FALSE(identical_runs({5}));                                      // one run says nothing of a spread
  EXPECT_FALSE(identical_runs({}));
}

}  // namespace
}  // namespace gcsim
