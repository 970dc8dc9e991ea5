#include "real/alltoall/alltoall_blocks.hpp"

#include <stdexcept>
#include <string>

namespace gcsim::real {

namespace {

// Odd multipliers: multiplying by an odd number is a bijection of the 32-bit
// integers, so different pairs get different bases and different indices
// different offsets.
constexpr std::uint32_t kPairMultiplier = 0x9E3779B1u;
constexpr std::uint32_t kIndexMultiplier = 0x85EBCA77u;

void require_blocks(std::uint32_t ranks, std::size_t block, const std::vector<std::uint32_t>& buffer) {
  if (buffer.size() != static_cast<std::size_t>(ranks) * block)
    throw std::invalid_argument("all-to-all buffer of " + std::to_string(buffer.size()) + " elements is not " +
                                std::to_string(ranks) + " blocks of " + std::to_string(block));
}

}  // namespace

std::uint32_t block_value(std::uint32_t source, std::uint32_t destination, std::size_t index) {
  const std::uint32_t pair = (source << 16) ^ destination;  // distinct for ranks below 2^16
  return pair * kPairMultiplier + static_cast<std::uint32_t>(index) * kIndexMultiplier;
}

std::size_t block_elements(double buffer_bytes, std::uint32_t ranks) {
  if (ranks == 0 || buffer_bytes < 0) throw std::invalid_argument("all-to-all of no ranks or a negative size");
  return static_cast<std::size_t>(buffer_bytes) / ranks / sizeof(std::uint32_t);
}

void fill_send_blocks(std::uint32_t rank, std::uint32_t ranks, std::size_t block, std::vector<std::uint32_t>& buffer) {
  require_blocks(ranks, block, buffer);
  for (std::uint32_t d = 0; d < ranks; ++d)
    for (std::size_t k = 0; k < block; ++k) buffer[d * block + k] = block_value(rank, d, k);
}

BlockCheck check_received_blocks(std::uint32_t rank, std::uint32_t ranks, std::size_t block,
                                 const std::vector<std::uint32_t>& buffer) {
  require_blocks(ranks, block, buffer);
  BlockCheck check;
  for (std::uint32_t s = 0; s < ranks; ++s)
    for (std::size_t k = 0; k < block; ++k) {
      const std::uint32_t want = block_value(s, rank, k);
      const std::uint32_t got = buffer[s * block + k];
      if (got == want) continue;
      if (check.mismatches == 0) {
        check.first_source = s;
        check.first_index = k;
        check.expected = want;
        check.actual = got;
      }
      ++check.mismatches;
    }
  return check;
}

}  // namespace gcsim::real
