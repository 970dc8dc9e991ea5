// Specification of the allreduce result check: inputs whose sum is exact in
// floats, every wrong element counted, the first one located.
#include "real/allreduce/result_check.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "real/allreduce/allreduce_report.hpp"

namespace gcsim::real {
namespace {

std::vector<float> correct_output(std::uint32_t ranks, std::size_t count) {
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = expected_sum(ranks, i);
  return out;
}

TEST(RankInput, IsASmallIntegerThatDependsOnRankAndElement) {
  bool rank_matters = false, element_matters = false;
  for (std::size_t i = 0; i < 1000; ++i) {
    const float v = rank_input_value(0, i);
    EXPECT_EQ(v, std::floor(v));
    EXPECT_LE(std::fabs(v), 128.0f);
    rank_matters = rank_matters || rank_input_value(1, i) != v;
    element_matters = element_matters || rank_input_value(0, i + 1) != v;
  }
  EXPECT_TRUE(rank_matters);
  EXPECT_TRUE(element_matters);
}

TEST(RankInput, FillWritesRankInputValueEverywhere) {
  std::vector<float> buf(600);
  fill_rank_input(3, buf);
  for (std::size_t i = 0; i < buf.size(); ++i) ASSERT_EQ(buf[i], rank_input_value(3, i)) << i;
}

TEST(ExpectedSum, AddsEveryRanksInput) {
  for (std::size_t i : {0u, 1u, 256u, 257u, 12345u})
    EXPECT_EQ(expected_sum(3, i), rank_input_value(0, i) + rank_input_value(1, i) + rank_input_value(2, i));
}

TEST(CheckAllreduceResult, TheExactSumPasses) {
  EXPECT_EQ(check_allreduce_result(4, correct_output(4, 10000)).mismatches, 0u);
}

TEST(CheckAllreduceResult, CountsEveryWrongElementAndLocatesTheFirst) {
  auto out = correct_output(4, 10000);
  out[17] += 1;
  out[9000] = 0.5f;
  const ResultCheck check = check_allreduce_result(4, out);
  EXPECT_EQ(check.mismatches, 2u);
  EXPECT_EQ(check.first_mismatch, 17u);
  EXPECT_EQ(check.expected, expected_sum(4, 17));
  EXPECT_EQ(check.actual, expected_sum(4, 17) + 1);
}

TEST(CheckAllreduceResult, AnInputLeftUnreducedFails) {
  std::vector<float> out(1000);
  fill_rank_input(0, out);  // rank 0's own input, as if nothing had been received
  EXPECT_GT(check_allreduce_result(2, out).mismatches, 900u);
}

TEST(CheckAllreduceResult, AChunkStoredOneElementOffFails) {
  auto out = correct_output(3, 3000);
  std::vector<float> shifted(out.begin() + 1001, out.begin() + 2001);
  std::copy(shifted.begin(), shifted.end(), out.begin() + 1000);
  EXPECT_GT(check_allreduce_result(3, out).mismatches, 900u);
}

TEST(CheckAllreduceResult, TheSumForTheWrongRankCountFails) {
  EXPECT_GT(check_allreduce_result(3, correct_output(4, 1000)).mismatches, 900u);
}

TEST(ParseSize, ReadsBytesAndDecimalAndBinaryUnits) {
  EXPECT_DOUBLE_EQ(parse_size("4096"), 4096);
  EXPECT_DOUBLE_EQ(parse_size("1MB"), 1e6);
  EXPECT_DOUBLE_EQ(parse_size("64MiB"), 64.0 * 1048576);
  EXPECT_DOUBLE_EQ(parse_size("4KiB"), 4096);
  EXPECT_THROW(parse_size("4 parsecs"), std::invalid_argument);
  EXPECT_THROW(parse_size("MiB"), std::invalid_argument);
}

TEST(AllreduceCsv, RowHasOneFieldPerHeaderColumnAndTheMedianTime) {
  AllreduceRow row{"tcp-ring", "loopback", 4, 1e6, 1, 3, {0.3, 0.1, 0.2}, 0, 2e-5, 1e8};
  const std::string header = allreduce_csv_header();
  const std::string line = allreduce_csv_row(row);
  EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(line.begin(), line.end(), ','));
  // median 0.2 s: algbw 5e6 B/s, busbw 5e6 * 2 * 3 / 4 = 7.5e6 B/s
  EXPECT_EQ(line, "tcp-ring,loopback,4,1000000,1,3,0.2,0.1,0.3,5000000,7500000,0,2e-05,100000000");
}

}  // namespace
}  // namespace gcsim::real
