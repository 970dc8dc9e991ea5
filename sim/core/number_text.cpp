#include "sim/core/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <system_error>

namespace gcsim {

namespace {

// The powers of ten a time is written with; each is a double exactly.
constexpr double kPowersOfTen[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

// Writes `value` rounded to `decimals` decimals as printf does (to the
// nearest of the exact binary value) into `text`, for a non-negative value
// below 10^9 whose rounding is no tie: the common case of times and shares
// written to millions of rows. Returns the length written, 0 otherwise.
std::size_t fixed_fast(double value, int decimals, char (&text)[32]) {
  const bool positive_zero = value == 0 && !std::signbit(value);
  if (!((value >= 0x1p-60 || positive_zero) && value < 1e9) || decimals < 0 || decimals > 9) return 0;
  // Truncation is the floor here: the value is not negative.
  const auto whole = static_cast<std::uint64_t>(value);
  const double fraction = value - static_cast<double>(whole);  // exact: the bits of `value` below 1
  // Rounding to nearest is monotonic: the rounded product lies on the same
  // side of the half as the exact one, or on it when the exact one is near
  // it; the signs of the differences are exact.
  const double scaled = fraction * kPowersOfTen[decimals];
  const auto below = static_cast<std::uint64_t>(scaled);
  const double from_half = scaled - static_cast<double>(below) - 0.5;
  if (from_half == 0) return 0;  // maybe a tie: the general path decides
  const std::uint64_t units =
      whole * static_cast<std::uint64_t>(kPowersOfTen[decimals]) + below + (from_half > 0 ? 1 : 0);
  char digits[24];
  const std::size_t count = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, units).ptr - digits);
  const std::size_t decimal_count = static_cast<std::size_t>(decimals);
  // At least one digit before the point: 0.000123 has zeros before the digits.
  const std::size_t zeros = count <= decimal_count ? decimal_count + 1 - count : 0;
  const std::size_t integer_digits = count + zeros - decimal_count;
  char* out = text;
  for (std::size_t i = 0; i < zeros; ++i) *out++ = '0';
  out = std::copy(digits, digits + count, out);
  if (decimal_count == 0) return static_cast<std::size_t>(out - text);
  std::copy_backward(text + integer_digits, out, out + 1);
  text[integer_digits] = '.';
  return static_cast<std::size_t>(out + 1 - text);
}

}  // namespace

std::string fixed(double value, int decimals) {
  char fast[32];
  if (const std::size_t length = fixed_fast(value, decimals, fast)) return std::string(fast, length);
  // std::to_chars gives printf's "%.*f" digits (both round the exact binary
  // value) without parsing a format.
  char buffer[400];  // the longest finite double in fixed notation, with decimals
  if (decimals >= 0 && decimals <= 40) {
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    if (error == std::errc()) return std::string(buffer, end);
  }
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string significant(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

std::string exact_number(double value) {
  // A whole number below 10^5 (a count of GPUs, most often) is its digits:
  // std::to_chars picks the shorter of fixed and scientific notation, ties
  // to fixed, and below 10^5 fixed is never the longer ("10000", "1e+04").
  if (value >= 0 && value < 1e5 && !std::signbit(value)) {
    const auto whole = static_cast<std::uint32_t>(value);
    if (static_cast<double>(whole) == value) return std::to_string(whole);
  }
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (error != std::errc()) return fixed(value, 17);
  return std::string(buffer, end);
}

std::optional<double> finite_number(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace gcsim
