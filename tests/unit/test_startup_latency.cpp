// The start-up latency model: fixed, lognormal and empirical draws, each
// run's from a stream of its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/model/startup_latency.hpp"

namespace gcsim {
namespace {

TEST(StartupLatencyModel, OffByDefaultAndZero) {
  const StartupLatency none;
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.draw(0, 0), 0);
}

TEST(StartupLatencyModel, FixedIsTheSameForEveryRun) {
  const StartupLatency latency = StartupLatency::fixed(30);
  EXPECT_EQ(latency.draw(0, 0), 30);
  EXPECT_EQ(latency.draw(7, 3), 30);
  EXPECT_THROW(StartupLatency::fixed(-1), std::invalid_argument);
}

TEST(StartupLatencyModel, ALognormalOfSigmaZeroIsItsMedianEToTheMu) {
  EXPECT_DOUBLE_EQ(StartupLatency::lognormal(0, 0, 1).draw(2, 0), 1);
  EXPECT_NEAR(StartupLatency::lognormal(std::log(20.0), 0, 1).draw(2, 0), 20, 1e-9);
}

TEST(StartupLatencyModel, ALognormalsDrawsHaveTheirMedianNearEToTheMu) {
  const StartupLatency latency = StartupLatency::lognormal(std::log(10.0), 1, 5);
  std::vector<double> draws;
  for (JobIndex job = 0; job < 4001; ++job) draws.push_back(latency.draw(job, 0));
  std::nth_element(draws.begin(), draws.begin() + 2000, draws.end());
  // The sample median of 4001 draws lies within 10% of 10 (its standard error is about 2%).
  EXPECT_NEAR(draws[2000], 10, 1);
}

TEST(StartupLatencyModel, EachRunDrawsFromItsOwnStream) {
  const StartupLatency latency = StartupLatency::lognormal(3, 1, 42);
  EXPECT_EQ(latency.draw(5, 0), latency.draw(5, 0));                              // the same run, the same latency
  EXPECT_NE(latency.draw(5, 0), latency.draw(5, 1));                              // its next run draws another
  EXPECT_NE(latency.draw(5, 0), latency.draw(6, 0));                              // another job another
  EXPECT_NE(latency.draw(5, 0), StartupLatency::lognormal(3, 1, 43).draw(5, 0));  // another seed another
}

TEST(StartupLatencyModel, EmpiricalDrawsOnlyItsSamplesAndEachOfThem) {
  const StartupLatency latency = StartupLatency::empirical({0, 5, 60}, 1);
  std::set<double> seen;
  for (JobIndex job = 0; job < 200; ++job) seen.insert(latency.draw(job, 0));
  EXPECT_EQ(seen, (std::set<double>{0, 5, 60}));
  EXPECT_THROW(StartupLatency::empirical({}, 1), std::invalid_argument);
  EXPECT_THROW(StartupLatency::empirical({3, -1}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim
