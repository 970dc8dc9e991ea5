// Specification of the number formatter every output file and report uses.
#include "sim/core/number_text.hpp"

#include <string>

#include <gtest/gtest.h>

namespace gcsim {
namespace {

TEST(NumberText, FixedGivesExactlyTheDecimalsAskedFor) {
  EXPECT_EQ(fixed(2.5, 3), "2.500");
  EXPECT_EQ(fixed(1.0 / 3, 2), "0.33");
  EXPECT_EQ(fixed(-0.25, 1), "-0.2");  // round half to even, as printf
  EXPECT_EQ(fixed(1e9, 0), "1000000000");
}

TEST(NumberText, SignificantKeepsDigitsAndDropsTrailingZeros) {
  EXPECT_EQ(significant(2.0 / 3, 3), "0.667");
  EXPECT_EQ(significant(12345.678, 6), "12345.7");
  EXPECT_EQ(significant(1.5, 6), "1.5");
  EXPECT_EQ(significant(1e-9, 3), "1e-09");
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
