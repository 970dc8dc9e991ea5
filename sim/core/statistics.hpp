// statistics.hpp: the one percentile rule and the distribution summary every
// report of gcsim uses (run metrics, comparisons, trace statistics, trace fit).
//
// Percentiles interpolate linearly between order statistics (Hyndman and
// Fan's type 7, numpy's and R's default): the q-th percentile of n sorted
// values lies at rank q/100 x (n - 1), so p50 of {1, 2, 3, 4} is 2.5 and p0
// and p100 are the minimum and the maximum.
//
//   Distribution d = summarize({3, 1, 4, 1, 5});  // d.p50 == 3
//   double p90 = percentile_of_sorted({1, 2, 3, 4}, 90);  // 3.7
#pragma once

#include <cstddef>
#include <vector>

namespace gcsim {

/// Linear-interpolation percentile of sorted values, q in [0, 100]; 0 when empty.
double percentile_of_sorted(const std::vector<double>& sorted, double q);

struct Distribution {
  std::size_t count = 0;
  double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
};

/// Summary of `values` (any order); all zero when empty.
Distribution summarize(std::vector<double> values);

}  // namespace gcsim
