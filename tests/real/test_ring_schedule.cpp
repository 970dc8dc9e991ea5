// Specification of the real ring allreduce's schedule: how the buffer is cut
// into chunks, which chunk each rank sends and receives at each step, that
// the steps run in memory give every rank the elementwise sum, and the
// bandwidth figures nccl-tests reports.
#include "real/allreduce/ring_schedule.hpp"

#include <numeric>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "real/allreduce/result_check.hpp"

namespace gcsim::real {
namespace {

TEST(ChunkRange, CutsTenElementsIntoFourChunksOfTwoOrThree) {
  EXPECT_EQ(chunk_range(10, 4, 0).begin, 0u);
  EXPECT_EQ(chunk_range(10, 4, 0).end, 2u);
  EXPECT_EQ(chunk_range(10, 4, 1).end, 5u);
  EXPECT_EQ(chunk_range(10, 4, 2).end, 7u);
  EXPECT_EQ(chunk_range(10, 4, 3).end, 10u);
}

TEST(ChunkRange, ChunksTileTheBufferAndDifferByAtMostOneElement) {
  for (std::size_t count : {0u, 1u, 7u, 100u, 262144u, 1000001u})
    for (std::uint32_t n = 1; n <= 9; ++n) {
      std::size_t next = 0, smallest = count, largest = 0;
      for (std::uint32_t c = 0; c < n; ++c) {
        const ChunkRange r = chunk_range(count, n, c);
        EXPECT_EQ(r.begin, next) << count << " elements, " << n << " ranks, chunk " << c;
        next = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      EXPECT_EQ(next, count);
      EXPECT_LE(largest - smallest, 1u);
    }
}

TEST(RingStep, TwoTimesNMinusOneSteps) {
  EXPECT_EQ(ring_steps(1), 0u);
  EXPECT_EQ(ring_steps(2), 2u);
  EXPECT_EQ(ring_steps(4), 6u);
}

TEST(RingStep, FirstNMinusOneStepsReduceThenTheRestGather) {
  for (std::uint32_t s = 0; s < 6; ++s)
    EXPECT_EQ(ring_step(0, 4, s).phase, s < 3 ? RingPhase::kReduceScatter : RingPhase::kAllGather) << "step " << s;
}

TEST(RingStep, RankOneOfFourByHand) {
  // Reduce-scatter sends chunks 1, 0, 3 and receives 0, 3, 2; all-gather sends 2, 1, 0 and receives 1, 0, 3.
  const std::uint32_t sends[] = {1, 0, 3, 2, 1, 0};
  const std::uint32_t receives[] = {0, 3, 2, 1, 0, 3};
  for (std::uint32_t s = 0; s < 6; ++s) {
    EXPECT_EQ(ring_step(1, 4, s).send_chunk, sends[s]) << "step " << s;
    EXPECT_EQ(ring_step(1, 4, s).recv_chunk, receives[s]) << "step " << s;
  }
}

TEST(RingStep, EveryRankReceivesWhatItsPredecessorSends) {
  for (std::uint32_t n = 2; n <= 8; ++n)
    for (std::uint32_t s = 0; s < ring_steps(n); ++s)
      for (std::uint32_t r = 0; r < n; ++r)
        EXPECT_EQ(ring_step(r, n, s).recv_chunk, ring_step((r + n - 1) % n, n, s).send_chunk)
            << n << " ranks, step " << s << ", rank " << r;
}

TEST(RingStep, AtEveryStepTheRanksSendDistinctChunks) {
  for (std::uint32_t n = 2; n <= 8; ++n)
    for (std::uint32_t s = 0; s < ring_steps(n); ++s) {
      std::set<std::uint32_t> chunks;
      for (std::uint32_t r = 0; r < n; ++r) chunks.insert(ring_step(r, n, s).send_chunk);
      EXPECT_EQ(chunks.size(), n) << n << " ranks, step " << s;
    }
}

TEST(RingStep, AllGatherStartsBySendingTheChunkReduceScatterCompleted) {
  for (std::uint32_t n = 2; n <= 8; ++n)
    for (std::uint32_t r = 0; r < n; ++r) {
      EXPECT_EQ(ring_step(r, n, n - 1).send_chunk, reduced_chunk(r, n));
      EXPECT_EQ(ring_step(r, n, n - 2).recv_chunk, reduced_chunk(r, n)) << "the last reduce-scatter step completes it";
    }
}

TEST(RingInMemory, EveryRankEndsWithTheElementwiseSum) {
  for (std::uint32_t n = 1; n <= 7; ++n)
    for (std::size_t count : {1u, 5u, 64u, 1031u}) {
      std::vector<std::vector<float>> buffers(n, std::vector<float>(count));
      for (std::uint32_t r = 0; r < n; ++r) fill_rank_input(r, buffers[r]);
      ring_allreduce_in_memory(buffers);
      for (std::uint32_t r = 0; r < n; ++r)
        EXPECT_EQ(check_allreduce_result(n, buffers[r]).mismatches, 0u)
            << n << " ranks, " << count << " elements, rank " << r;
    }
}

TEST(RingInMemory, RejectsBuffersOfDifferentSizes) {
  std::vector<std::vector<float>> buffers{std::vector<float>(4), std::vector<float>(5)};
  EXPECT_THROW(ring_allreduce_in_memory(buffers), std::invalid_argument);
}

TEST(Bandwidth, AlgbwIsBytesOverTime) { EXPECT_DOUBLE_EQ(algorithm_bandwidth(100e6, 2.0), 50e6); }

TEST(Bandwidth, BusbwScalesAlgbwByTwoTimesNMinusOneOverN) {
  // nccl-tests doc/PERFORMANCE.md: busbw = algbw * 2(n-1)/n.
  EXPECT_DOUBLE_EQ(bus_bandwidth(100e6, 2.0, 2), 50e6);
  EXPECT_DOUBLE_EQ(bus_bandwidth(100e6, 2.0, 4), 75e6);
  EXPECT_DOUBLE_EQ(bus_bandwidth(100e6, 2.0, 8), 87.5e6);
  EXPECT_DOUBLE_EQ(bus_bandwidth(100e6, 2.0, 1), 0.0);
}

TEST(Median, OddCountTakesTheMiddleEvenCountAveragesTheTwoMiddleOnes) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_THROW(median({}), std::invalid_argument);
}

}  // namespace
}  // namespace gcsim::real
