#include "sim/core/number_text.hpp"

#include <charconv>
#include <cstdio>
#include <system_error>

namespace gcsim {

std::string fixed(double value, int decimals) {
  char buffer[64];
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

}  // namespace gcsim
