// ExactSums: kept sums equal sums made afresh only for whole amounts whose
// total stays below 2^53.
#include "policies/kit/exact_sums.hpp"

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(ExactSums, WholeAmountsBelowTwoToThe53AreExact) {
  ExactSums sums;
  sums.add(3e9);
  sums.add(0);
  sums.add(4096);
  EXPECT_TRUE(sums.exact());
}

TEST(ExactSums, AFractionalAmountIsNot) {
  // 3e9 + 0.1 - 3e9 is not 0.1 in doubles: a kept sum would drift.
  ExactSums sums;
  sums.add(3e9);
  sums.add(0.1);
  EXPECT_FALSE(sums.exact());
}

TEST(ExactSums, ATotalReachingTwoToThe53IsNot) {
  ExactSums sums;
  sums.add(4503599627370496.0);  // 2^52
  EXPECT_TRUE(sums.exact());
  sums.add(4503599627370496.0);  // the total is 2^53: 2^53 + 1 would round
  EXPECT_FALSE(sums.exact());
}

}  // namespace
}  // namespace gcsim
