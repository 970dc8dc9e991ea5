// alltoall_blocks.hpp: what every rank of an all-to-all sends to every other,
// and the check that each received block is the one its sender put there, as
// nccl-tests checks results and not only times.
//
// Rank s's send buffer holds N blocks of `block` 32-bit elements, block d for
// rank d; after MPI_Alltoall, rank d's receive buffer holds block s from rank
// s. Element k of the block from s to d is block_value(s, d, k): a base that
// differs for every (source, destination) pair, so that a block from the wrong
// sender or for the wrong receiver differs in every element, plus k times an
// odd constant, so that a block stored k elements off differs in every element
// too. Integers compare exactly.
//
//   std::vector<std::uint32_t> send(ranks * block), recv(ranks * block);
//   fill_send_blocks(rank, ranks, block, send);
//   ... MPI_Alltoall(send, block, MPI_UINT32_T, recv, block, MPI_UINT32_T, comm) ...
//   BlockCheck check = check_received_blocks(rank, ranks, block, recv);
//   if (check.mismatches != 0) ... check.first_source, check.first_index ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gcsim::real {

/// Element `index` of the block rank `source` sends to rank `destination`.
std::uint32_t block_value(std::uint32_t source, std::uint32_t destination, std::size_t index);

/// Elements per block of an all-to-all of `buffer_bytes` per rank among
/// `ranks` ranks: the whole 32-bit elements of buffer_bytes / ranks.
std::size_t block_elements(double buffer_bytes, std::uint32_t ranks);

/// Fills rank `rank`'s send buffer: block d (elements [d * block, (d + 1) * block)) for rank d.
/// Throws std::invalid_argument when `buffer` does not hold `ranks` blocks.
void fill_send_blocks(std::uint32_t rank, std::uint32_t ranks, std::size_t block, std::vector<std::uint32_t>& buffer);

struct BlockCheck {
  std::size_t mismatches = 0;
  std::uint32_t first_source = 0;  // the block holding the first mismatch, when mismatches > 0
  std::size_t first_index = 0;     // its element within that block
  std::uint32_t expected = 0;
  std::uint32_t actual = 0;
};

/// Compares rank `rank`'s receive buffer with what every sender put in its
/// block for `rank` (the rank's own block included). Throws
/// std::invalid_argument when `buffer` does not hold `ranks` blocks.
BlockCheck check_received_blocks(std::uint32_t rank, std::uint32_t ranks, std::size_t block,
                                 const std::vector<std::uint32_t>& buffer);

}  // namespace gcsim::real
