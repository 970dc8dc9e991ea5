// The transfers of a PhasedWork exchange among a job's ranks and the
// latencies a message pays, counted by hand (sim/core/phased_work.hpp).
#include "sim/core/phased_work.hpp"

#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

std::vector<Transfer> of(Exchange exchange, RankGroups groups, std::uint32_t ranks) {
  return exchange_transfers({exchange, groups, 1, 1}, ranks);
}

TEST(ExchangeTransfers, ARingStepGoesToTheNextOfTheGroupTheLastToTheFirst) {
  // 8 ranks in groups of 4 ranks 2 apart: {0, 2, 4, 6} and {1, 3, 5, 7}.
  const std::vector<Transfer> expected = {{0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}, {6, 0}, {7, 1}};
  EXPECT_EQ(of(Exchange::kRingStep, {4, 2}, 8), expected);
  // Groups of 2 consecutive ranks: {0, 1}, {2, 3}.
  EXPECT_EQ(of(Exchange::kRingStep, {2, 1}, 4), (std::vector<Transfer>{{0, 1}, {1, 0}, {2, 3}, {3, 2}}));
}

TEST(ExchangeTransfers, AnAllToAllSendsToEveryOtherRankOfTheGroup) {
  // Groups of 3 ranks 2 apart among 6: {0, 2, 4} and {1, 3, 5}.
  const std::vector<Transfer> expected = {{0, 2}, {0, 4}, {1, 3}, {1, 5}, {2, 4}, {2, 0},
                                          {3, 5}, {3, 1}, {4, 0}, {4, 2}, {5, 1}, {5, 3}};
  EXPECT_EQ(of(Exchange::kAllToAll, {3, 2}, 6), expected);
}

TEST(ExchangeTransfers, AChainSendsToTheNextStageOrThePreviousButNotAroundTheEnd) {
  // 3 stages of 2 ranks: stage k holds ranks 2k and 2k + 1.
  EXPECT_EQ(of(Exchange::kChainNext, {3, 2}, 6), (std::vector<Transfer>{{0, 2}, {1, 3}, {2, 4}, {3, 5}}));
  EXPECT_EQ(of(Exchange::kChainPrev, {3, 2}, 6), (std::vector<Transfer>{{2, 0}, {3, 1}, {4, 2}, {5, 3}}));
}

TEST(ExchangeTransfers, ABroadcastGoesDownTheChainFromEachGroupsFirstRank) {
  // 2 groups of 3 ranks 2 apart, {0, 2, 4} and {1, 3, 5}: their roots 0 and 1.
  EXPECT_EQ(of(Exchange::kBroadcast, {3, 2}, 6), (std::vector<Transfer>{{0, 2}, {1, 3}, {2, 4}, {3, 5}}));
}

TEST(LatenciesPerMessage, ABroadcastPaysOneAHopDownItsChainTheOthersOne) {
  EXPECT_EQ(latencies_per_message({Exchange::kBroadcast, {8, 1}, 1, 1}), 7u);
  EXPECT_EQ(latencies_per_message({Exchange::kBroadcast, {1, 1}, 1, 1}), 1u);
  for (Exchange other : {Exchange::kRingStep, Exchange::kAllToAll, Exchange::kChainNext, Exchange::kChainPrev})
    EXPECT_EQ(latencies_per_message({other, {8, 1}, 1, 1}), 1u);
}

TEST(ExchangeTransfers, AGroupOfOneRankSendsNothing) { EXPECT_TRUE(of(Exchange::kRingStep, {1, 1}, 4).empty()); }

}  // namespace
}  // namespace gcsim
