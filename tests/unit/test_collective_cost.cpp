// Specification of the collectives' closed forms (sim/model/collective_cost.hpp),
// counted by hand on 4 ranks, a buffer of S = 100 MB, links of L = 2 us and
// B = 25 GB/s (S/n = 25 MB, which takes 1 ms), and nccl-tests' algbw/busbw.
#include "sim/model/collective_cost.hpp"

#include <string>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

const GroupLink kLink{2e-6, 25e9};

struct CollectiveCase {
  std::string name;
  Collective kind;
  double seconds;  // counted in the comment of each row
  double bytes_sent;
};

std::ostream& operator<<(std::ostream& out, const CollectiveCase& c) { return out << c.name; }

const CollectiveCase kFourRanks[] = {
    // 2(n-1) = 6 steps of (2 us + 1 ms); each rank sends 6 x 25 MB
    {"Allreduce", Collective::kAllreduce, 6.012e-3, 150e6},
    // n-1 = 3 steps of (2 us + 1 ms); each rank sends 3 x 25 MB
    {"ReduceScatter", Collective::kReduceScatter, 3.006e-3, 75e6},
    {"AllGather", Collective::kAllGather, 3.006e-3, 75e6},
    // 3 latencies down the chain + 100 MB / 25 GB/s = 6 us + 4 ms; the root sends all of it
    {"Broadcast", Collective::kBroadcast, 4.006e-3, 100e6},
    // one latency + 3 pieces of 25 MB through the rank's link: 2 us + 3 ms
    {"AllToAll", Collective::kAllToAll, 3.002e-3, 75e6},
    // 2 us + 4 ms
    {"PointToPoint", Collective::kPointToPoint, 4.002e-3, 100e6},
};

class FourRanks : public ::testing::TestWithParam<CollectiveCase> {};

TEST_P(FourRanks, TakesItsClosedFormTime) {
  EXPECT_DOUBLE_EQ(collective_cost(GetParam().kind, 4, 100e6, kLink).seconds, GetParam().seconds);
}

TEST_P(FourRanks, EachRankSendsItsShareOfTheBuffer) {
  EXPECT_DOUBLE_EQ(collective_cost(GetParam().kind, 4, 100e6, kLink).bytes_sent_per_rank, GetParam().bytes_sent);
}

TEST_P(FourRanks, OneRankExchangesNothing) {
  const CollectiveCost cost = collective_cost(GetParam().kind, 1, 100e6, kLink);
  EXPECT_EQ(cost.seconds, 0);
  EXPECT_EQ(cost.bytes_sent_per_rank, 0);
}

// What busbw is for: without latency every collective's busbw is the link's bandwidth.
TEST_P(FourRanks, BusBandwidthIsTheLinksBandwidthWithoutLatency) {
  for (std::uint32_t ranks : {2u, 3u, 4u, 8u, 64u}) {
    const double seconds = collective_cost(GetParam().kind, ranks, 96e6, {0, 25e9}).seconds;
    EXPECT_DOUBLE_EQ(bus_bandwidth(GetParam().kind, ranks, 96e6, seconds), 25e9) << ranks << " ranks";
  }
}

INSTANTIATE_TEST_SUITE_P(HandCounted, FourRanks, ::testing::ValuesIn(kFourRanks),
                         [](const ::testing::TestParamInfo<CollectiveCase>& info) { return info.param.name; });

TEST(CollectiveCost, AllreduceIsTheRingAllreduce) {
  // 8 ranks, 64 MB: 14 steps of (1 us + 8 MB / 8 GB/s = 1 ms)
  EXPECT_DOUBLE_EQ(collective_cost(Collective::kAllreduce, 8, 64e6, {1e-6, 8e9}).seconds, 14.014e-3);
}

TEST(CollectiveCost, UnboundedLinksCostLatencyOnly) {
  const GroupLink latency_only{3e-6, kNever};
  EXPECT_DOUBLE_EQ(collective_cost(Collective::kAllGather, 4, 100e6, latency_only).seconds, 9e-6);  // 3 steps
  EXPECT_DOUBLE_EQ(collective_cost(Collective::kBroadcast, 4, 100e6, latency_only).seconds, 9e-6);  // 3 hops
  EXPECT_DOUBLE_EQ(collective_cost(Collective::kAllToAll, 4, 100e6, latency_only).seconds, 3e-6);   // at once
  EXPECT_DOUBLE_EQ(collective_cost(Collective::kPointToPoint, 2, 100e6, latency_only).seconds, 3e-6);
}

TEST(CollectiveCost, AllToAllOfTwoRanksSendsHalfItsBuffer) {
  // 1 us + 50 MB / 10 GB/s = 1 us + 5 ms
  const CollectiveCost cost = collective_cost(Collective::kAllToAll, 2, 100e6, {1e-6, 10e9});
  EXPECT_DOUBLE_EQ(cost.seconds, 5.001e-3);
  EXPECT_DOUBLE_EQ(cost.bytes_sent_per_rank, 50e6);
}

TEST(BusBandwidthFactor, IsNcclTestsFactorForEachCollective) {
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kAllreduce, 8), 1.75);  // 2 x 7/8
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kAllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kAllToAll, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kBroadcast, 8), 1);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kPointToPoint, 2), 1);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kAllreduce, 1), 0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(Collective::kAllreduce, 0), 0);
}

TEST(AlgorithmBandwidth, IsTheBufferOverTheTime) {
  EXPECT_DOUBLE_EQ(algorithm_bandwidth(100e6, 4e-3), 25e9);
  EXPECT_EQ(algorithm_bandwidth(100e6, 0), 0);
}

TEST(BusBandwidth, ScalesTheAlgorithmBandwidthByTheFactor) {
  // allreduce of 100 MB on 4 ranks in 6 ms: algbw 16.67 GB/s x 3/2 = 25 GB/s
  EXPECT_DOUBLE_EQ(bus_bandwidth(Collective::kAllreduce, 4, 100e6, 6e-3), 25e9);
  // all-gather of 100 MB on 4 ranks in 3 ms: algbw 33.3 GB/s x 3/4 = 25 GB/s
  EXPECT_DOUBLE_EQ(bus_bandwidth(Collective::kAllGather, 4, 100e6, 3e-3), 25e9);
}

TEST(CollectiveName, FollowsNcclsCollectives) {
  EXPECT_STREQ(collective_name(Collective::kReduceScatter), "reduce_scatter");
  EXPECT_STREQ(collective_name(Collective::kAllToAll), "all_to_all");
  EXPECT_STREQ(collective_name(Collective::kPointToPoint), "send_recv");
}

}  // namespace
}  // namespace gcsim
