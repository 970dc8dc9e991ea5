// The accuracy bounds of `gcsim validate` and their checks over compared rows.
#include <gtest/gtest.h>

#include "validation/error_bounds.hpp"

namespace gcsim::validation {
namespace {

constexpr double kMiB = 1048576.0;

ValidationRow row(double reference, double simulated, std::optional<BoundGroup> bound) {
  return {"e", "c", reference, "measured", simulated, std::move(bound)};
}

TEST(ErrorBounds, ErrorIsSimulatedMinusReferenceOverReference) {
  EXPECT_NEAR(error_pct(row(2.0, 2.1, std::nullopt)), 5.0, 1e-12);
  EXPECT_NEAR(error_pct(row(2.0, 1.9, std::nullopt)), -5.0, 1e-12);
  EXPECT_THROW(error_pct(row(0.0, 1.0, std::nullopt)), std::invalid_argument);
}

TEST(ErrorBounds, ShapedAllreduceBoundsBySizeClass) {
  EXPECT_FALSE(shaped_allreduce_bound(4096));
  EXPECT_FALSE(shaped_allreduce_bound(64 * 1024));
  EXPECT_EQ(shaped_allreduce_bound(1 * kMiB)->limit_pct, 5);
  EXPECT_EQ(shaped_allreduce_bound(4 * kMiB)->limit_pct, 5);
  EXPECT_FALSE(shaped_allreduce_bound(8 * kMiB));  // between the classes: reported only
  EXPECT_EQ(shaped_allreduce_bound(16 * kMiB)->limit_pct, 2);
  EXPECT_EQ(shaped_allreduce_bound(64 * kMiB)->limit_pct, 2);
  EXPECT_EQ(shaped_allreduce_bound(64 * kMiB)->rule, BoundRule::kMedianAbsError);
}

TEST(ErrorBounds, ShapedAlltoallIsBoundedFrom16MiBPerRank) {
  EXPECT_FALSE(shaped_alltoall_bound(1 * kMiB));
  EXPECT_FALSE(shaped_alltoall_bound(4 * kMiB));
  EXPECT_EQ(shaped_alltoall_bound(16 * kMiB)->limit_pct, 3);
  EXPECT_EQ(shaped_alltoall_bound(64 * kMiB)->limit_pct, 3);
  EXPECT_EQ(shaped_alltoall_bound(64 * kMiB)->rule, BoundRule::kMedianAbsError);
  EXPECT_NE(shaped_alltoall_bound(16 * kMiB)->name, shaped_allreduce_bound(16 * kMiB)->name);  // checked apart
}

TEST(ErrorBounds, RenderFarmBoundsByTaskLength) {
  EXPECT_EQ(renderfarm_bound(0.05)->limit_pct, 2);
  EXPECT_EQ(renderfarm_bound(0.2)->limit_pct, 2);
  EXPECT_EQ(renderfarm_bound(0.01)->limit_pct, 5);
  EXPECT_EQ(renderfarm_bound(0.03)->limit_pct, 5);
  EXPECT_FALSE(renderfarm_bound(0.005));
  EXPECT_EQ(renderfarm_bound(0.05)->rule, BoundRule::kEveryAbsError);
}

TEST(ErrorBounds, MedianGroupHoldsWhenOneOutlierIsOutvoted) {
  // |errors| 1%, 1.5%, 3%: median 1.5% <= 2% although one row is at 3%.
  const auto big = shaped_allreduce_bound(16 * kMiB);
  const std::vector<ValidationRow> rows{row(1, 1.01, big), row(1, 0.985, big), row(1, 1.03, big)};
  const auto checks = check_bounds(rows);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].rows, 3u);
  EXPECT_NEAR(checks[0].value, 1.5, 1e-9);
  EXPECT_TRUE(checks[0].holds);
}

TEST(ErrorBounds, MedianGroupBreaksWhenMostRowsAreOut) {
  const auto big = shaped_allreduce_bound(64 * kMiB);
  const auto checks = check_bounds({row(1, 1.025, big), row(1, 0.97, big), row(1, 1.001, big)});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_NEAR(checks[0].value, 2.5, 1e-9);
  EXPECT_FALSE(checks[0].holds);
}

TEST(ErrorBounds, EveryRowGroupBreaksOnItsWorstRow) {
  const auto farm = renderfarm_bound(0.05);
  const auto checks = check_bounds({row(2, 2.002, farm), row(1, 1.021, farm)});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_NEAR(checks[0].value, 2.1, 1e-9);
  EXPECT_FALSE(checks[0].holds);
}

TEST(ErrorBounds, UnboundedRowsAreNotChecked) { EXPECT_TRUE(check_bounds({row(1, 2, std::nullopt)}).empty()); }

TEST(ErrorBounds, GroupsAreCheckedSeparatelyInOrderOfAppearance) {
  const auto checks = check_bounds({row(1, 1.0005, closed_form_bound()), row(1, 1.04, shaped_allreduce_bound(kMiB)),
                                    row(1, 1.002, closed_form_bound())});
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].name, closed_form_bound().name);
  EXPECT_FALSE(checks[0].holds);  // 0.2% > 0.1%
  EXPECT_TRUE(checks[1].holds);   // 4% <= 5%
}

TEST(ErrorBounds, BusbwMustReach95PercentOfGoodput) {
  EXPECT_TRUE(busbw_check(3, 24.0e6, 25.0e6).holds);   // 96%
  EXPECT_FALSE(busbw_check(3, 23.5e6, 25.0e6).holds);  // 94%
  EXPECT_NEAR(busbw_check(3, 23.5e6, 25.0e6).value, 94.0, 1e-9);
  EXPECT_THROW(busbw_check(3, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim::validation
