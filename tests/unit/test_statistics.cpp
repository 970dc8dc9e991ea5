// Specification of the one percentile rule (linear interpolation between
// order statistics) and of the distribution summary every report uses.
#include "sim/core/statistics.hpp"

#include <ostream>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(Summarize, PercentilesOfOneToFourInterpolateLinearly) {
  const Distribution d = summarize({4, 1, 3, 2});
  EXPECT_EQ(d.count, 4u);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  EXPECT_DOUBLE_EQ(d.p50, 2.5);   // rank 1.5: halfway between 2 and 3
  EXPECT_DOUBLE_EQ(d.p95, 3.85);  // rank 2.85
  EXPECT_DOUBLE_EQ(d.p99, 3.97);  // rank 2.97
  EXPECT_DOUBLE_EQ(d.max, 4);
}

TEST(Summarize, SingleValueIsEveryPercentile) {
  const Distribution d = summarize({7.5});
  EXPECT_EQ(d.count, 1u);
  EXPECT_DOUBLE_EQ(d.mean, 7.5);
  EXPECT_DOUBLE_EQ(d.p50, 7.5);
  EXPECT_DOUBLE_EQ(d.p95, 7.5);
  EXPECT_DOUBLE_EQ(d.p99, 7.5);
  EXPECT_DOUBLE_EQ(d.max, 7.5);
}

TEST(Summarize, EmptyIsAllZero) {
  const Distribution d = summarize({});
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.mean, 0);
  EXPECT_EQ(d.p50, 0);
  EXPECT_EQ(d.p99, 0);
  EXPECT_EQ(d.max, 0);
}

struct PercentileCase {
  double q;
  double expected;
};

std::ostream& operator<<(std::ostream& out, const PercentileCase& c) { return out << "p" << c.q; }

// Sorted values 10, 20, 30, 40, 50: rank = q/100 * 4.
const PercentileCase kPercentiles[] = {
    {0, 10}, {25, 20}, {50, 30}, {60, 34}, {90, 46}, {100, 50},
};

class PercentileOfSorted : public ::testing::TestWithParam<PercentileCase> {};

TEST_P(PercentileOfSorted, InterpolatesBetweenOrderStatistics) {
  EXPECT_DOUBLE_EQ(percentile_of_sorted({10, 20, 30, 40, 50}, GetParam().q), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(FiveValues, PercentileOfSorted, ::testing::ValuesIn(kPercentiles));

TEST(PercentileOfSortedValues, EmptyIsZero) { EXPECT_EQ(percentile_of_sorted({}, 50), 0); }

}  // namespace
}  // namespace gcsim
