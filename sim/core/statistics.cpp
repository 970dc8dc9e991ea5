#include "sim/core/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gcsim {

double percentile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(rank));
  const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(lower);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

Distribution summarize(std::vector<double> values) {
  Distribution d;
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.count = values.size();
  d.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  d.p50 = percentile_of_sorted(values, 50);
  d.p95 = percentile_of_sorted(values, 95);
  d.p99 = percentile_of_sorted(values, 99);
  d.max = values.back();
  return d;
}

}  // namespace gcsim
