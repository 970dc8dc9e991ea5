#include "real/allreduce/result_check.hpp"

namespace gcsim::real {

namespace {
// The inputs repeat every kPeriod elements, so filling and checking use a
// table of one period instead of recomputing every element.
constexpr std::size_t kPeriod = 257;
}  // namespace

float rank_input_value(std::uint32_t rank, std::size_t index) {
  // Varies with the element and the rank; small enough that sums of up to
  // 2^16 ranks stay exact in a float (24-bit significand).
  const std::size_t mixed = ((index % kPeriod) * 2654435761u + (rank + 1) * 40503u) % kPeriod;
  return static_cast<float>(static_cast<int>(mixed) - 128);
}

void fill_rank_input(std::uint32_t rank, std::vector<float>& buffer) {
  float period[kPeriod];
  for (std::size_t i = 0; i < kPeriod; ++i) period[i] = rank_input_value(rank, i);
  for (std::size_t i = 0, k = 0; i < buffer.size(); ++i, k = (k + 1 == kPeriod ? 0 : k + 1)) buffer[i] = period[k];
}

float expected_sum(std::uint32_t ranks, std::size_t index) {
  float sum = 0;
  for (std::uint32_t r = 0; r < ranks; ++r) sum += rank_input_value(r, index);
  return sum;
}

ResultCheck check_allreduce_result(std::uint32_t ranks, const float* buffer, std::size_t count) {
  float period[kPeriod];
  for (std::size_t i = 0; i < kPeriod; ++i) period[i] = expected_sum(ranks, i);
  ResultCheck check;
  for (std::size_t i = 0, k = 0; i < count; ++i, k = (k + 1 == kPeriod ? 0 : k + 1)) {
    const float want = period[k];
    if (buffer[i] != want) {
      if (check.mismatches == 0) {
        check.first_mismatch = i;
        check.expected = want;
        check.actual = buffer[i];
      }
      ++check.mismatches;
    }
  }
  return check;
}

}  // namespace gcsim::real
