// Specification of the all-to-all's blocks and their check: every received
// block is the one its sender put there for this rank, element by element.
#include "real/alltoall/alltoall_blocks.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "real/alltoall/alltoall_report.hpp"

namespace gcsim::real {
namespace {

// What MPI_Alltoall leaves in rank `rank`'s receive buffer: block s of rank s's send buffer.
std::vector<std::uint32_t> exchanged(std::uint32_t rank, std::uint32_t ranks, std::size_t block) {
  std::vector<std::uint32_t> received(ranks * block), sent(ranks * block);
  for (std::uint32_t s = 0; s < ranks; ++s) {
    fill_send_blocks(s, ranks, block, sent);
    std::copy(sent.begin() + rank * block, sent.begin() + (rank + 1) * block, received.begin() + s * block);
  }
  return received;
}

TEST(AlltoallBlocks, TheExchangedBlocksPassOnEveryRank) {
  for (std::uint32_t rank = 0; rank < 4; ++rank)
    EXPECT_EQ(check_received_blocks(rank, 4, 1000, exchanged(rank, 4, 1000)).mismatches, 0u) << rank;
}

TEST(AlltoallBlocks, ACorruptedBlockFailsAtEveryChangedElementAndNamesItsSender) {
  std::vector<std::uint32_t> received = exchanged(1, 3, 500);
  received[2 * 500 + 7] ^= 1u;  // block from rank 2, element 7
  received[2 * 500 + 9] = 0;
  const BlockCheck check = check_received_blocks(1, 3, 500, received);
  EXPECT_EQ(check.mismatches, 2u);
  EXPECT_EQ(check.first_source, 2u);
  EXPECT_EQ(check.first_index, 7u);
  EXPECT_EQ(check.expected, block_value(2, 1, 7));
  EXPECT_EQ(check.actual, block_value(2, 1, 7) ^ 1u);
}

TEST(AlltoallBlocks, ABlockMeantForAnotherRankFailsEverywhere) {
  // Rank 1 holds, from rank 0, the block rank 0 sent to rank 2.
  std::vector<std::uint32_t> received = exchanged(1, 3, 400);
  for (std::size_t k = 0; k < 400; ++k) received[k] = block_value(0, 2, k);
  EXPECT_EQ(check_received_blocks(1, 3, 400, received).mismatches, 400u);
}

TEST(AlltoallBlocks, BlocksFromTwoSendersSwappedFail) {
  std::vector<std::uint32_t> received = exchanged(0, 3, 300);
  std::swap_ranges(received.begin() + 300, received.begin() + 600, received.begin() + 600);
  EXPECT_EQ(check_received_blocks(0, 3, 300, received).mismatches, 600u);
}

TEST(AlltoallBlocks, ABlockStoredOneElementOffFails) {
  std::vector<std::uint32_t> received = exchanged(2, 4, 256);
  std::copy(received.begin() + 256 + 1, received.begin() + 512, received.begin() + 256);
  EXPECT_GE(check_received_blocks(2, 4, 256, received).mismatches, 255u);
}

TEST(AlltoallBlocks, ABlockNeverReceivedFails) {
  std::vector<std::uint32_t> received = exchanged(0, 2, 100);
  std::fill(received.begin() + 100, received.end(), 0xFFFFFFFFu);
  EXPECT_EQ(check_received_blocks(0, 2, 100, received).mismatches, 100u);
}

TEST(AlltoallBlocks, ABufferOfTheWrongSizeIsAnError) {
  std::vector<std::uint32_t> buffer(10);
  EXPECT_THROW(fill_send_blocks(0, 3, 4, buffer), std::invalid_argument);
  EXPECT_THROW(check_received_blocks(0, 3, 4, buffer), std::invalid_argument);
}

TEST(AlltoallBlocks, BlocksAreTheWholeElementsOfTheBufferOverTheRanks) {
  EXPECT_EQ(block_elements(16 * 1048576.0, 4), 1048576u);
  EXPECT_EQ(block_elements(16 * 1048576.0, 3), 1398101u);  // 5592405.33 bytes: 1398101 elements
  EXPECT_EQ(block_elements(10, 3), 0u);
}

TEST(AlltoallReport, BusBandwidthIsAlgorithmBandwidthTimesNMinusOneOverN) {
  // N = 4 blocks of 1 MB: S = 4 MB in 0.2 s, algbw 20 MB/s, busbw 15 MB/s.
  const AlltoallRow row{"mpi-alltoall", "tcp", 4, 4e6, 1e6, 1, 3, {0.3, 0.2, 0.1}, 0};
  EXPECT_EQ(alltoall_csv_row(row), "mpi-alltoall,tcp,4,4000000,1000000,1,3,0.2,0.1,0.3,20000000,15000000,0");
}

}  // namespace
}  // namespace gcsim::real
