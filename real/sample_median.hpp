// sample_median.hpp: the median of repeated measurements, shared by the
// real microbenchmarks (one hiccup of the machine moves a mean, not a median).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace gcsim::real {

/// Median of a non-empty sample (mean of the two middle values for an even count).
inline double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of an empty sample");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace gcsim::real
