#include "sim/core/sample_comparison.hpp"

#include <algorithm>
#include <cmath>

namespace gcsim {

double ks_distance(std::vector<double> a, std::vector<double> b) {
  if (a.empty() || b.empty()) return 0;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double largest = 0;
  // Walk both samples in order; at each distinct value both CDFs step past
  // every copy of it before the gap is measured.
  while (i < a.size() || j < b.size()) {
    const double x = j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    while (i < a.size() && a[i] == x) ++i;
    while (j < b.size() && b[j] == x) ++j;
    largest = std::max(largest, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return largest;
}

std::optional<double> relative_error(double simulated, double recorded) {
  if (recorded == 0) return std::nullopt;
  return (simulated - recorded) / recorded;
}

double share_at_most(const std::vector<double>& values, double bound) {
  if (values.empty()) return 0;
  const auto within = std::count_if(values.begin(), values.end(), [&](double v) { return v <= bound; });
  return static_cast<double>(within) / static_cast<double>(values.size());
}

}  // namespace gcsim
