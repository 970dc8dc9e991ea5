// What a job's ranks send each other in one iteration, as policies read it
// (policies/kit/rank_traffic.hpp): the transfers the engine runs
// (exchange_transfers, sim/core/phased_work.hpp), each carrying its exchange's
// bytes x messages, and a ring allreduce's 2 (n - 1) / n of the gradients.
#include "policies/kit/rank_traffic.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "sim/core/phased_work.hpp"
#include "tests/support/crafted_work.hpp"

namespace gcsim {
namespace {

TEST(RankTraffic, EachExchangeMakesTheTransfersTheEngineRunsEachCarryingItsBytes) {
  for (const Exchange kind :
       {Exchange::kRingStep, Exchange::kAllToAll, Exchange::kChainNext, Exchange::kChainPrev, Exchange::kBroadcast})
    for (const RankGroups groups : {RankGroups{4, 1}, RankGroups{2, 4}, RankGroups{4, 2}, RankGroups{1, 1}}) {
      const PhaseExchange exchange{kind, groups, 1e6, 3};
      const std::vector<Transfer> engine = exchange_transfers(exchange, 16);
      const std::vector<RankTransfer> ours = exchange_rank_transfers(exchange, 16, 3e6);
      ASSERT_EQ(ours.size(), engine.size());
      for (std::size_t i = 0; i < ours.size(); ++i) {
        EXPECT_EQ(ours[i].from, engine[i].from);
        EXPECT_EQ(ours[i].to, engine[i].to);
        EXPECT_EQ(ours[i].bytes, 3e6);
      }
    }
}

TEST(RankTraffic, AnIterationCarriesEveryMessageOfEveryExchange) {
  PhasedWork work;
  work.phases = {{.flops = 5, .exchanges = {{Exchange::kRingStep, {2, 1}, 10, 4}}},
                 {.flops = 7, .exchanges = {{Exchange::kChainNext, {2, 2}, 100, 1}}}};
  const std::vector<RankTransfer> traffic = iteration_traffic(work, 4);
  // Ring: 0->1, 1->0, 2->3, 3->2 of 40 bytes; chain: 0->2, 1->3 of 100.
  ASSERT_EQ(traffic.size(), 6u);
  EXPECT_EQ(traffic[0].to, 1u);
  EXPECT_EQ(traffic[0].bytes, 40);
  EXPECT_EQ(traffic[4].from, 0u);
  EXPECT_EQ(traffic[4].to, 2u);
  EXPECT_EQ(traffic[5].bytes, 100);
  EXPECT_EQ(iteration_flops_per_rank(work), 12);
}

TEST(RankTraffic, ARingAllreduceSendsTwiceItsShareOfTheGradientsPerStepToTheNextRank) {
  const TrainingWork ring = testing::ring_training(1e12, 4e9, 5);
  const std::vector<RankTransfer> traffic = iteration_traffic(ring, 4);
  ASSERT_EQ(traffic.size(), 4u);
  EXPECT_EQ(traffic[3].from, 3u);
  EXPECT_EQ(traffic[3].to, 0u);
  EXPECT_DOUBLE_EQ(traffic[3].bytes, 2.0 * 3 * 4e9 / 4);
  TrainingWork servers = ring;
  servers.parameter_servers = 2;
  EXPECT_TRUE(iteration_traffic(servers, 4).empty());
  EXPECT_TRUE(iteration_traffic(MeasuredWork{100, "GPU"}, 4).empty());
}

}  // namespace
}  // namespace gcsim
