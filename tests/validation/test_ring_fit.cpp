// The ring's link parameters fitted over every measured size: exact times
// give back the latency and goodput they were made from, noise moves them
// little, and a fit that cannot be made says so.
#include "validation/ring_fit.hpp"

#include <gtest/gtest.h>

namespace gcsim::validation {
namespace {

// 2(N-1)(alpha + S/(N B))
double ring_seconds(std::uint32_t n, double bytes, double alpha, double goodput) {
  return 2.0 * (n - 1) * (alpha + bytes / (n * goodput));
}

const double kSizes[] = {4096, 65536, 1 << 20, 4 << 20, 16 << 20, 64 << 20};

TEST(RingFit, ExactTimesGiveBackTheirLink) {
  for (const std::uint32_t n : {2u, 3u, 6u}) {
    std::vector<RingTiming> timings;
    for (double s : kSizes) timings.push_back({s, ring_seconds(n, s, 25e-6, 24.8e6)});
    const auto fit = fit_ring_link(n, timings);
    ASSERT_TRUE(fit) << n;
    EXPECT_NEAR(fit->hop_latency_s, 25e-6, 25e-6 * 1e-9) << n;
    EXPECT_NEAR(fit->goodput_Bps, 24.8e6, 24.8e6 * 1e-9) << n;
    EXPECT_LT(fit->max_relative_residual, 1e-12) << n;
    EXPECT_EQ(fit->points, 6u);
  }
}

TEST(RingFit, OnePercentNoiseMovesTheGoodputByAboutAsMuch) {
  // Sizes alternately 1% slow and 1% fast: the slope stays within about 1%.
  std::vector<RingTiming> timings;
  int sign = 1;
  for (double s : kSizes) {
    timings.push_back({s, ring_seconds(3, s, 25e-6, 24.8e6) * (1 + 0.01 * sign)});
    sign = -sign;
  }
  const auto fit = fit_ring_link(3, timings);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->goodput_Bps, 24.8e6, 24.8e6 * 0.015);
  EXPECT_NEAR(fit->max_relative_residual, 0.01, 0.006);
}

TEST(RingFit, ANegativeInterceptIsClampedToZeroLatency) {
  // Small sizes faster than any latency allows: the line through the origin.
  // With alpha = 0 every point is t = 4/3 S / B; the two points agree on B = 2e7.
  const std::vector<RingTiming> timings{{1 << 20, 4.0 / 3 * (1 << 20) / 2e7 * 0.5},
                                        {64 << 20, 4.0 / 3 * (64 << 20) / 2e7}};
  const auto fit = fit_ring_link(3, timings);
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->hop_latency_s, 0);
  EXPECT_GT(fit->goodput_Bps, 2e7);  // pulled up by the fast small size
  EXPECT_LT(fit->goodput_Bps, 2 * 2e7);
}

TEST(RingFit, NeedsTwoSizesAndPositiveTimes) {
  EXPECT_FALSE(fit_ring_link(3, {{4096, 1e-3}, {4096, 1.1e-3}}));
  EXPECT_FALSE(fit_ring_link(3, {{4096, 1e-3}, {65536, 0}}));
  EXPECT_FALSE(fit_ring_link(1, {{4096, 1e-3}, {65536, 2e-3}}));
  EXPECT_FALSE(fit_ring_link(3, {}));
}

}  // namespace
}  // namespace gcsim::validation
