#include "sim/core/number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <system_error>

namespace gcsim {

std::string fixed(double value, int decimals) {
  // std::to_chars gives printf's "%.*f" digits (both round the exact binary
  // value) without parsing a format, which matters when writing a million rows.
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
