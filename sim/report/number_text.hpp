// number_text.hpp: numbers as the output files write them.
//
//   fixed(2.5, 3)        -> "2.500"  (times, fixed decimals)
//   exact_number(0.1)    -> "0.1"    (the shortest text that reads back exactly)
#pragma once

#include <string>

namespace gcsim {

/// `value` with exactly `decimals` decimals.
std::string fixed(double value, int decimals);

/// The shortest decimal text that reads back as exactly `value`.
std::string exact_number(double value);

}  // namespace gcsim
