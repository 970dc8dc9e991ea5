// number_text.hpp: numbers as gcsim's output files and reports write them.
//
//   fixed(2.5, 3)        -> "2.500"  (times, fixed decimals)
//   significant(2/3., 3) -> "0.667"  (figures for people, `digits` significant)
//   exact_number(0.1)    -> "0.1"    (the shortest text that reads back exactly)
// and the one rule for reading a number a person wrote:
//   finite_number("2.5") -> 2.5, finite_number("2.5x") and finite_number("inf") -> nullopt
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

}  // namespace gcsim
