// Two samples compared: the Kolmogorov-Smirnov distance and the relative
// error, on samples small enough to count by hand.
#include <gtest/gtest.h>

#include "sim/core/sample_comparison.hpp"

namespace gcsim {
namespace {

TEST(KsDistance, SameSampleInAnyOrderIsZero) { EXPECT_EQ(ks_distance({3, 1, 2}, {1, 2, 3}), 0); }

TEST(KsDistance, DisjointSamplesAreOneApart) { EXPECT_EQ(ks_distance({1, 2}, {5, 6, 7}), 1); }

TEST(KsDistance, ShiftedByOneOfThreeIsAThirdApart) {
  // At x = 1: F_a = 1/3, F_b = 0; at 2: 2/3 and 1/3; at 3: 1 and 2/3; at 4: 1 and 1.
  EXPECT_DOUBLE_EQ(ks_distance({1, 2, 3}, {2, 3, 4}), 1.0 / 3);
}

TEST(KsDistance, TiesStepBothCdfsBeforeTheGapIsMeasured) {
  // a = {0, 0, 10}, b = {0, 10}: at 0 F_a = 2/3, F_b = 1/2; at 10 both 1. Largest gap 1/6.
  EXPECT_DOUBLE_EQ(ks_distance({0, 0, 10}, {0, 10}), 1.0 / 6);
}

TEST(KsDistance, SamplesOfDifferentSizes) {
  // a = {1, 5}, b = {2, 3, 4}: at 1 F_a = 1/2, F_b = 0; at 4 F_a = 1/2, F_b = 1; at 5 both 1. Largest 1/2.
  EXPECT_DOUBLE_EQ(ks_distance({1, 5}, {2, 3, 4}), 0.5);
}

TEST(KsDistance, AnEmptySampleIsNoDistance) { EXPECT_EQ(ks_distance({}, {1}), 0); }

TEST(RelativeError, SignedShareOfTheRecordedFigure) {
  EXPECT_DOUBLE_EQ(*relative_error(110, 100), 0.1);
  EXPECT_DOUBLE_EQ(*relative_error(50, 100), -0.5);
  EXPECT_FALSE(relative_error(5, 0).has_value());
}

TEST(ShareAtMost, CountsValuesAtOrBelowTheBound) {
  EXPECT_DOUBLE_EQ(share_at_most({0, 60, 61, 120}, 60), 0.5);
  EXPECT_EQ(share_at_most({}, 60), 0);
}

}  // namespace
}  // namespace gcsim
