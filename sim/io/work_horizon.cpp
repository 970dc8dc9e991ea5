#include "sim/io/work_horizon.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gcsim {
namespace {

// "%g" without the exponent's sign and leading zeros: 1e300, 2.5e-7, 1e9.
std::string short_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%g", value);
  std::string out(text);
  const auto e = out.find('e');
  if (e == std::string::npos) return out;
  std::string exponent = out.substr(e + 1);
  const bool negative = exponent[0] == '-';
  if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return out.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

}  // namespace

std::optional<std::string> beyond_horizon(double value, HorizonQuantity quantity) {
  double limit = kHorizonSeconds;
  const char* unit = " s";
  const char* why = "about 31.7 years";
  if (quantity == HorizonQuantity::kFlops) {
    limit = kHorizonFlops;
    unit = " FLOPs";
    why = "1e9 s on a GPU of 1e15 FLOP/s";
  } else if (quantity == HorizonQuantity::kBytes) {
    limit = kHorizonBytes;
    unit = " bytes";
    why = "1e9 s at 1 GB/s";
  }
  if (std::isfinite(value) && value <= limit) return std::nullopt;
  return "expected at most " + short_number(limit) + unit + " (" + why + ", the horizon gcsim simulates), got " +
         short_number(value) + unit;
}

}  // namespace gcsim
