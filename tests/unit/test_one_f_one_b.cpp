// The 1F1B pipeline's longest path (sim/core/one_f_one_b.hpp): equal
// stages take (m + p - 1)(t_f + t_b); unequal ones, counted op by op.
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
