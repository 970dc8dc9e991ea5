// number_text.hpp: numbers as gcsim's output files and reports write them.
//
//   fixed(2.5, 3)        -> "2.500"  (times, fixed decimals)
//   significant(2/3., 3) -> "0.667"  (figures for people, `digits` significant)
//   exact_number(0.1)    -> "0.1"    (the shortest text that reads back exactly)
// and the one rule for reading a number a person wrote:
//   finite_number("2.5") -> 2.5, finite_number("2.5x") and finite_number("inf") -> nullopt
// and when a count read as a double may become an integer:
//   below_uint64_limit(1e19) -> true, below_uint64_limit(2e19) -> false
#pragma once

#include <optional>
#include <string>

namespace gcsim {

/// `value` with exactly `decimals` decimals.
std::string fixed(double value, int decimals);

/// `value` with at most `digits` significant digits (printf's %g: no trailing zeros).
std::string significant(double value, int digits);

/// The shortest decimal text that reads back as exactly `value`.
std::string exact_number(double value);

/// The number `text` is when all of it is one finite number, else nullopt.
std::optional<double> finite_number(const std::string& text);

/// Whether `value` is below 2^64, so that a non-negative one converts to
/// std::uint64_t (converting a double at or above it is undefined). NaN: false.
inline bool below_uint64_limit(double value) { return value < 18446744073709551616.0; }

}  // namespace gcsim
