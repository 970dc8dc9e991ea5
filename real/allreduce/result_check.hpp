// result_check.hpp: inputs whose sum is known exactly, and the check that an
// allreduce produced it, as nccl-tests checks results and not only times.
//
// Rank r's element i is a small integer (rank_input_value), so any order of
// float additions gives the exact sum: the check compares bit for bit. The
// inputs repeat every 257 elements (a prime): data landing in the wrong
// place is caught unless it moved by a multiple of 257 elements.
//
//   std::vector<float> buf(count);
//   fill_rank_input(rank, buf);
//   ... allreduce over `ranks` ranks ...
//   ResultCheck check = check_allreduce_result(ranks, buf);
//   if (check.mismatches != 0) ... check.first_mismatch ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gcsim::real {

/// The value rank `rank` contributes at element `index`: an integer in [-128, 128].
float rank_input_value(std::uint32_t rank, std::size_t index);

/// Fills `buffer` with rank `rank`'s input.
void fill_rank_input(std::uint32_t rank, std::vector<float>& buffer);

/// The expected value of element `index` after an allreduce over `ranks` ranks.
float expected_sum(std::uint32_t ranks, std::size_t index);

struct ResultCheck {
  std::size_t mismatches = 0;
  std::size_t first_mismatch = 0;  // meaningful when mismatches > 0
  float expected = 0;              // at first_mismatch
  float actual = 0;                // at first_mismatch
};

/// Compares every element of `buffer` with expected_sum(ranks, i).
ResultCheck check_allreduce_result(std::uint32_t ranks, const float* buffer, std::size_t count);
inline ResultCheck check_allreduce_result(std::uint32_t ranks, const std::vector<float>& buffer) {
  return check_allreduce_result(ranks, buffer.data(), buffer.size());
}

}  // namespace gcsim::real
