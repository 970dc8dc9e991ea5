// Specification of the ring allreduce cost model: 2(N-1) steps of S/N bytes
// each, 2(N-1)/N * S bytes sent per rank, and an uncontended duration of
// 2(N-1) * (alpha + S / (N * B)); a single rank communicates nothing.
#include "sim/model/ring_allreduce_cost.hpp"

#include <string>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

struct RingCase {
  std::string name;
  std::uint32_t ranks;
  double bytes;           // S
  std::uint64_t steps;    // 2(N-1)
  double chunk;           // S/N
  double bytes_per_rank;  // 2(N-1)/N * S
};

std::ostream& operator<<(std::ostream& out, const RingCase& c) { return out << c.name; }

const RingCase kRingCases[] = {
    {"OneRank", 1, 100e6, 0, 0, 0},          {"TwoRanks", 2, 100e6, 2, 50e6, 100e6},
    {"FourRanks", 4, 100e6, 6, 25e6, 150e6}, {"EightRanks", 8, 64e6, 14, 8e6, 112e6},
    {"ThreeRanks", 3, 90, 4, 30, 120},       {"NoGradients", 4, 0, 6, 0, 0},
};

class RingShape : public ::testing::TestWithParam<RingCase> {};

TEST_P(RingShape, HasTwoTimesRanksMinusOneSteps) { EXPECT_EQ(ring_step_count(GetParam().ranks), GetParam().steps); }

TEST_P(RingShape, EachStepSendsOneNthOfTheGradients) {
  EXPECT_DOUBLE_EQ(ring_chunk_bytes(GetParam().ranks, GetParam().bytes), GetParam().chunk);
}

TEST_P(RingShape, EachRankSendsTwoTimesNMinusOneOverNOfTheGradients) {
  EXPECT_DOUBLE_EQ(ring_bytes_per_rank(GetParam().ranks, GetParam().bytes), GetParam().bytes_per_rank);
}

INSTANTIATE_TEST_SUITE_P(HandWorked, RingShape, ::testing::ValuesIn(kRingCases),
                         [](const ::testing::TestParamInfo<RingCase>& info) { return info.param.name; });

TEST(RingStepCount, ZeroRanksHaveNoSteps) { EXPECT_EQ(ring_step_count(0), 0u); }

TEST(RingStepCount, IsAvailableAtCompileTime) {
  static_assert(ring_step_count(8) == 14);
  constexpr std::uint64_t steps = ring_step_count(16);
  EXPECT_EQ(steps, 30u);
}

// ---- durations --------------------------------------------------------------------

struct DurationCase {
  std::string name;
  std::uint32_t ranks;
  double bytes, latency, bandwidth;
  double seconds;  // worked out by hand in the comment of each row
};

std::ostream& operator<<(std::ostream& out, const DurationCase& c) { return out << c.name; }

const DurationCase kDurations[] = {
    // 6 steps of (2 us + 25 MB / 25 GB/s = 1 ms) = 6 * 1.002 ms
    {"FourRanksNvlinkLike", 4, 100e6, 2e-6, 25e9, 6.012e-3},
    // 2 steps of (5 us + 50 MB / 12.5 GB/s = 4 ms) = 2 * 4.005 ms
    {"TwoRanksOverANic", 2, 100e6, 5e-6, 12.5e9, 8.010e-3},
    // 14 steps of (1 us + 8 MB / 8 GB/s = 1 ms) = 14 * 1.001 ms
    {"EightRanks", 8, 64e6, 1e-6, 8e9, 14.014e-3},
    // latency only: 6 steps of 3 us
    {"NoGradientsPaysLatencyOnly", 4, 0, 3e-6, 25e9, 18e-6},
    // bandwidth only: 6 steps of 25 MB / 25 GB/s
    {"ZeroLatency", 4, 100e6, 0, 25e9, 6e-3},
    // a single rank sends nothing and waits for nothing
    {"OneRankIsFree", 1, 100e6, 2e-6, 25e9, 0},
};

class RingDuration : public ::testing::TestWithParam<DurationCase> {};

TEST_P(RingDuration, MatchesTheClosedForm) {
  const DurationCase& c = GetParam();
  EXPECT_NEAR(ring_allreduce_seconds(c.ranks, c.bytes, c.latency, c.bandwidth), c.seconds, 1e-15);
}

INSTANTIATE_TEST_SUITE_P(HandWorked, RingDuration, ::testing::ValuesIn(kDurations),
                         [](const ::testing::TestParamInfo<DurationCase>& info) { return info.param.name; });

TEST(RingDuration, DoublingTheBandwidthHalvesOnlyTheTransferPart) {
  // 6 * (2 us + 25 MB / 50 GB/s = 0.5 ms) = 6 * 0.502 ms
  EXPECT_NEAR(ring_allreduce_seconds(4, 100e6, 2e-6, 50e9), 3.012e-3, 1e-15);
}

TEST(TrainingIterationSeconds, IsComputeThenAllreduce) {
  // compute: 1 TFLOP at 100 TFLOP/s = 10 ms; allreduce: 6.012 ms (see above)
  EXPECT_NEAR(training_iteration_seconds(1e12, 100e12, 4, 100e6, 2e-6, 25e9), 10e-3 + 6.012e-3, 1e-15);
}

TEST(TrainingIterationSeconds, SingleGpuIsComputeOnly) {
  EXPECT_DOUBLE_EQ(training_iteration_seconds(1e12, 100e12, 1, 100e6, 2e-6, 25e9), 10e-3);
}

}  // namespace
}  // namespace gcsim
