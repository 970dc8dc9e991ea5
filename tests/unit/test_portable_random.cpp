// The portable random source: draws in range and with the moments they
// promise, and log and exp within a few ulps of the platform's libm.
#include "sim/core/portable_random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(PortableMath, LogAndExpAgreeWithTheLibraryToAFewUlps) {
  for (double x : {1e-300, 1e-10, 0.001, 0.5, 0.7071, 0.99999, 1.0, 1.0000001, 2.0, 3.14159, 1e5, 1e300}) {
    EXPECT_NEAR(portable_log(x), std::log(x), 4e-16 * std::max(1.0, std::fabs(std::log(x)))) << x;
  }
  for (double x : {-700.0, -20.0, -1.0, -1e-8, 0.0, 1e-8, 0.3466, 1.0, 2.5, 50.0, 700.0}) {
    EXPECT_NEAR(portable_exp(x), std::exp(x), 4e-16 * std::exp(x)) << x;
  }
  EXPECT_EQ(portable_log(1.0), 0.0);
  EXPECT_EQ(portable_exp(0.0), 1.0);
}

TEST(PortableRandom, UniformStaysInTheUnitInterval) {
  PortableRandom random(3);
  for (int i = 0; i < 100000; ++i) {
    const double u = random.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(PortableRandom, NormalHasMeanZeroAndVarianceOne) {
  PortableRandom random(4);
  const int n = 200000;
  double sum = 0, sum_squares = 0;
  for (int i = 0; i < n; ++i) {
    const double z = random.normal();
    sum += z;
    sum_squares += z * z;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum_squares / n, 1.0, 0.01);
}

TEST(PortableRandom, BelowCoversEveryValueEvenly) {
  PortableRandom random(5);
  std::map<std::uint64_t, int> seen;
  for (int i = 0; i < 70000; ++i) ++seen[random.below(7)];
  ASSERT_EQ(seen.size(), 7u);
  for (const auto& [value, count] : seen) EXPECT_NEAR(count, 10000, 400) << value;
}

TEST(PortableRandom, DiscreteNeverPicksAZeroWeight) {
  PortableRandom random(6);
  for (int i = 0; i < 10000; ++i) EXPECT_NE(random.discrete({0.5, 0.0, 0.5, 0.0}) % 2, 1u);
}

}  // namespace
}  // namespace gcsim
