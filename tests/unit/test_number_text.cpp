// Specification of the number formatter every output file and report uses.
#include "sim/core/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(NumberText, FixedGivesExactlyTheDecimalsAskedFor) {
  EXPECT_EQ(fixed(2.5, 3), "2.500");
  EXPECT_EQ(fixed(1.0 / 3, 2), "0.33");
  EXPECT_EQ(fixed(-0.25, 1), "-0.2");  // round half to even, as printf
  EXPECT_EQ(fixed(1e9, 0), "1000000000");
}

// Outputs written before fixed() stopped formatting through printf must
// read the same: halves, tiny and huge values, negatives, every precision.
TEST(NumberText, FixedWritesWhatPrintfWrites) {
  const double values[] = {0.0,
                           -0.0,
                           0.5,
                           1.5,
                           2.5,
                           0.125,
                           0.0625,
                           1e-7,
                           -3.14159265358979,
                           1234.5678,
                           36798.59472297636,
                           9.999999999,
                           1e15 + 0.5,
                           1e300,
                           0.1 + 0.2};
  for (double value : values)
    for (int decimals = 0; decimals <= 9; ++decimals) {
      char expected[400];
      std::snprintf(expected, sizeof expected, "%.*f", decimals, value);
      EXPECT_EQ(fixed(value, decimals), expected) << value << " with " << decimals << " decimals";
    }
}

// Times are written through a fast path that must round as printf does:
// every magnitude it takes, values a hair either side of a half, and exact
// halves (ties), which it leaves to the general path.
TEST(NumberText, FixedWritesWhatPrintfWritesOverManyValues) {
  std::vector<double> values;
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1p-53;  // in [0, 1)
  };
  for (int i = 0; i < 20000; ++i) values.push_back(next() * std::pow(10.0, static_cast<int>(next() * 20) - 10));
  for (int whole : {0, 1, 7, 86399, 999999999})
    for (int halves = 1; halves < 64; halves += 2) {
      const double tie = whole + halves / 128.0;
      values.insert(values.end(), {tie, std::nextafter(tie, 0.0), std::nextafter(tie, 2e9)});
    }
  for (double decimal_half = 0.5e-6; decimal_half < 1; decimal_half *= 10)
    for (double at : {3.0, 36798.0})
      values.insert(values.end(), {at + decimal_half, std::nextafter(at + decimal_half, 0.0),
                                   std::nextafter(at + decimal_half, 2e9)});
  values.insert(values.end(), {0.0, 1e9 - 1e-7, 1e9, 0x1p-60, 0x1p-61, 0.9999999995, 0.99999999949999});
  for (double value : values)
    for (int decimals = 0; decimals <= 9; ++decimals) {
      char expected[400];
      std::snprintf(expected, sizeof expected, "%.*f", decimals, value);
      ASSERT_EQ(fixed(value, decimals), expected) << std::hexfloat << value << " with " << decimals << " decimals";
    }
}

TEST(NumberText, SignificantKeepsDigitsAndDropsTrailingZeros) {
  EXPECT_EQ(significant(2.0 / 3, 3), "0.667");
  EXPECT_EQ(significant(12345.678, 6), "12345.7");
  EXPECT_EQ(significant(1.5, 6), "1.5");
  EXPECT_EQ(significant(1e-9, 3), "1e-09");
}

// Whole numbers take a short cut that must write what std::to_chars writes,
// which turns to scientific notation where it is shorter (1e+05).
TEST(NumberText, ExactNumberWritesWholeNumbersAsToCharsDoes) {
  std::vector<double> values = {0.0, -0.0, 1.0, 9.0, 10.0, 99999.0, 100000.0, 120000.0, 1e6, 99999.5, 4.5, 3e-5};
  for (double power = 1; power < 1e5; power *= 10)
    values.insert(values.end(), {power, power * 7, power + 1, std::nextafter(power, 0.0)});
  for (double value : values) {
    char expected[64];
    const auto end = std::to_chars(expected, expected + sizeof expected, value).ptr;
    EXPECT_EQ(exact_number(value), std::string(expected, end)) << value;
  }
  EXPECT_EQ(exact_number(100000.0), "1e+05");
  EXPECT_EQ(exact_number(10000.0), "10000");
}

TEST(NumberText, ExactNumberReadsBackAsTheSameDouble) {
  EXPECT_EQ(exact_number(0.1), "0.1");
  EXPECT_EQ(exact_number(6.7), "6.7");
  EXPECT_EQ(exact_number(3), "3");
  for (const double value : {0.1 + 0.2, 1.0 / 3, 5400.000001, 1e-6, 123456789.123})
    EXPECT_EQ(std::stod(exact_number(value)), value) << exact_number(value);
}

TEST(NumberText, FiniteNumberIsAllOfTheTextOrNothing) {
  EXPECT_EQ(finite_number("2.5"), 2.5);
  EXPECT_EQ(finite_number("-1e3"), -1000.0);
  EXPECT_EQ(finite_number("2.5x"), std::nullopt);
  EXPECT_EQ(finite_number(""), std::nullopt);
  EXPECT_EQ(finite_number("inf"), std::nullopt);
  EXPECT_EQ(finite_number("nan"), std::nullopt);
  EXPECT_EQ(finite_number("1e999"), std::nullopt);  // out of range
}

}  // namespace
}  // namespace gcsim
