// The 1F1B pipeline's longest path (sim/core/one_f_one_b.hpp): equal
// stages take (m + p - 1)(t_f + t_b); unequal ones, counted op by op; each
// op's float, from its earliest and latest ends.
#include "sim/core/one_f_one_b.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace gcsim {
namespace {

TEST(OneFOneB, EqualStagesTakeMPlusPMinusOneSlots) {
  // Times in whole units, so every sum is exact.
  for (std::uint32_t p : {1u, 2u, 3u, 4u, 8u})
    for (std::uint32_t m : {1u, 2u, 3u, 5u, 16u}) {
      const std::vector<double> forward(p, 3.0), backward(p, 7.0);
      EXPECT_EQ(one_f_one_b_seconds(forward, backward, m), (m + p - 1) * (3.0 + 7.0)) << "p " << p << ", m " << m;
    }
}

TEST(OneFOneB, UnequalStagesFollowTheLongestPath) {
  // p = 2, m = 3; stage 0: forward 1, backward 2; stage 1: forward 2, backward 4.
  // Stage 0 runs F0 F1 B0 F2 B1 B2 (one warm-up forward), stage 1 F0 B0 F1 B1 F2 B2:
  //   S0 F0 [0,1]   S1 F0 [1,3]   S0 F1 [1,2]   S1 B0 [3,7]
  //   S0 B0 [7,9]   S1 F1 [7,9]   S0 F2 [9,10]  S1 B1 [9,13]
  //   S0 B1 [13,15] S1 F2 [13,15] S1 B2 [15,19] S0 B2 [19,21]
  // 21, where a balanced pipeline at the heavier stage's pace takes (3 + 1)(2 + 4) = 24.
  EXPECT_EQ(one_f_one_b_seconds({1, 2}, {2, 4}, 3), 21);
}

TEST(OneFOneB, OpsOffTheCriticalPathHaveFloat) {
  // The pipeline of UnequalStagesFollowTheLongestPath. Latest ends within 21, back from S0 B2:
  //   S0 B2 21   S1 B2 19   S1 F2 15   S0 B1 19 (S0 B2 starts at 19)   S1 B1 13
  //   S0 F2 13 (S1 F2 starts at 13)   S1 F1 9   S0 B0 12 (S0 F2 starts at 12)   S1 B0 7
  //   S1 F0 3   S0 F1 7 (S1 F1 starts at 7)   S0 F0 1 (S1 F0 starts at 1)
  // Floats, latest less earliest end: stage 0's F1 5, B0 3, F2 3, B1 4; every other op 0
  // (S0 F0, stage 1's six ops and S0 B2 chain 1 + 18 + 2 = 21).
  const std::uint32_t m = 3;
  const OneFOneBDag dag(2, m);
  ASSERT_EQ(dag.size(), 12u);
  std::vector<double> durations(dag.size());
  for (std::uint32_t i = 0; i < m; ++i) {
    durations[pipeline_op(0, i, false, m)] = 1;
    durations[pipeline_op(0, i, true, m)] = 2;
    durations[pipeline_op(1, i, false, m)] = 2;
    durations[pipeline_op(1, i, true, m)] = 4;
  }
  const std::vector<double> earliest = dag.earliest_ends(durations);
  const std::vector<double> latest = dag.latest_ends(durations, 21);
  auto float_of = [&](std::uint32_t stage, std::uint32_t micro_batch, bool backward) {
    const std::size_t op = pipeline_op(stage, micro_batch, backward, m);
    return latest[op] - earliest[op];
  };
  EXPECT_EQ(earliest[pipeline_op(0, 2, true, m)], 21);
  EXPECT_EQ(earliest[pipeline_op(0, 1, true, m)], 15);
  EXPECT_EQ(float_of(0, 0, false), 0);
  EXPECT_EQ(float_of(0, 1, false), 5);
  EXPECT_EQ(float_of(0, 0, true), 3);
  EXPECT_EQ(float_of(0, 2, false), 3);
  EXPECT_EQ(float_of(0, 1, true), 4);
  EXPECT_EQ(float_of(0, 2, true), 0);
  for (std::uint32_t i = 0; i < m; ++i) {
    EXPECT_EQ(float_of(1, i, false), 0) << "S1 F" << i;
    EXPECT_EQ(float_of(1, i, true), 0) << "S1 B" << i;
  }
}

TEST(OneFOneB, HeavyFirstStageLeavesTheLastWaiting) {
  // p = 2, m = 3; stage 0: forward 2, backward 4; stage 1: forward 1, backward 2.
  //   S0 F0 [0,2]  S0 F1 [2,4]  S1 F0 [2,3]  S1 B0 [3,5]  S0 B0 [5,9]  S1 F1 [5,6]
  //   S1 B1 [6,8]  S0 F2 [9,11] S0 B1 [11,15] S1 F2 [11,12] S1 B2 [12,14] S0 B2 [15,19]
  EXPECT_EQ(one_f_one_b_seconds({2, 1}, {4, 2}, 3), 19);
}

TEST(OneFOneB, FewerMicroBatchesThanStagesWarmUpOnlyWhatThereIs) {
  // p = 3, m = 1: the micro-batch goes down and back, 3 x 1 + 3 x 2.
  EXPECT_EQ(one_f_one_b_seconds({1, 1, 1}, {2, 2, 2}, 1), 9);
  EXPECT_EQ(one_f_one_b_seconds({1, 2, 3}, {1, 1, 1}, 0), 0);
}

}  // namespace
}  // namespace gcsim
