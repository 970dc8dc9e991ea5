// The Kubernetes Horizontal Pod Autoscaler's rule, sync by sync, on hand-counted cases.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/model/horizontal_autoscaler.hpp"

namespace gcsim {
namespace {

AutoscalerSpec utilization_spec(double target, std::uint32_t min_replicas, std::uint32_t max_replicas) {
  AutoscalerSpec spec;
  spec.target = target;
  spec.min_replicas = min_replicas;
  spec.max_replicas = max_replicas;
  return spec;
}

TEST(HorizontalAutoscaler, DoublingTheUtilizationDoublesTheReplicas) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  EXPECT_EQ(hpa.decide(0, 4, 4, 0.5), 4u);
  EXPECT_EQ(hpa.decide(15, 4, 4, 1.0), 8u);  // ceil(4 x 1.0 / 0.5)
}

TEST(HorizontalAutoscaler, WithinTheToleranceKeepsTheCurrentCount) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  EXPECT_EQ(hpa.decide(0, 4, 4, 0.54), 4u);   // ratio 1.08
  EXPECT_EQ(hpa.decide(15, 4, 4, 0.46), 4u);  // ratio 0.92
  EXPECT_EQ(hpa.decide(30, 4, 4, 0.56), 5u);  // ratio 1.12: ceil(4.48)
}

TEST(HorizontalAutoscaler, ClampsToTheMaximum) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  EXPECT_EQ(hpa.decide(0, 4, 4, 5.0), 16u);  // ceil(4 x 10) = 40
}

TEST(HorizontalAutoscaler, ClampsToTheMinimum) {
  // A fresh autoscaler has no earlier recommendation holding the count up.
  HorizontalAutoscaler hpa(utilization_spec(0.5, 2, 16));
  EXPECT_EQ(hpa.decide(0, 4, 4, 0.0), 2u);
}

TEST(HorizontalAutoscaler, ScaleDownWaitsForTheWindowThenTakesItsHighestRecommendation) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  ASSERT_EQ(hpa.decide(0, 8, 8, 0.5), 8u);      // recommends 8
  EXPECT_EQ(hpa.decide(15, 8, 8, 0.3125), 8u);  // recommends ceil(8 x 0.625) = 5
  for (Time now = 30; now < 300; now += 15) EXPECT_EQ(hpa.decide(now, 8, 8, 0.25), 8u) << now;  // recommend 4
  // At 300 s the recommendation of 0 s leaves the window (0, 300]; 5, of 15 s, is its highest.
  EXPECT_EQ(hpa.decide(300, 8, 8, 0.25), 5u);
  // The same load on 5 replicas: 0.4 each, recommends 4; the window (15, 315] holds only 4s.
  EXPECT_EQ(hpa.decide(315, 5, 5, 0.4), 4u);
}

TEST(HorizontalAutoscaler, ScaleUpIsImmediateWhateverTheWindowHolds) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  ASSERT_EQ(hpa.decide(0, 8, 8, 0.25), 4u);
  EXPECT_EQ(hpa.decide(15, 4, 4, 1.5), 12u);  // ceil(4 x 3)
}

TEST(HorizontalAutoscaler, NotReadyReplicasCountedAtZeroSuppressAScaleUp) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 32));
  // 5 of 10 ready at 1.05: ratio 2.1 would ask ceil(10.5) = 11, but counting the
  // 5 not ready at 0 the ratio is 2.1 x 5 / 10 = 1.05, within the tolerance.
  EXPECT_EQ(hpa.decide(0, 10, 5, 1.05), 10u);
  // At 1.2: 2.4 x 5 / 10 = 1.2 is past it, so ceil(2.4 x 5) = 12.
  EXPECT_EQ(hpa.decide(15, 10, 5, 1.2), 12u);
}

TEST(HorizontalAutoscaler, ScaleDownCountsOnlyTheReadyReplicas) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 32));
  EXPECT_EQ(hpa.decide(0, 10, 5, 0.25), 3u);  // ceil(5 x 0.5)
}

TEST(HorizontalAutoscaler, NoReadyReplicaKeepsTheCurrentCount) {
  HorizontalAutoscaler hpa(utilization_spec(0.5, 1, 16));
  EXPECT_EQ(hpa.decide(0, 3, 0, 0.0), 3u);
}

TEST(HorizontalAutoscaler, CeilingForgivesFloatingErrorAboveAnInteger) {
  HorizontalAutoscaler hpa(utilization_spec(0.7, 1, 16));
  ASSERT_GT(0.98 / 0.7 * 5, 7.0);            // 7.000000000000001 in doubles
  EXPECT_EQ(hpa.decide(0, 5, 5, 0.98), 7u);  // not 8
}

TEST(HorizontalAutoscaler, RequestsPerReplicaFollowTheSameRule) {
  AutoscalerSpec spec = utilization_spec(50, 1, 16);
  spec.metric = AutoscalerSpec::Metric::kRequestsPerReplica;
  HorizontalAutoscaler hpa(spec);
  EXPECT_EQ(hpa.decide(0, 3, 3, 120), 8u);  // ceil(3 x 120 / 50) = ceil(7.2)
}

}  // namespace
}  // namespace gcsim
