// sample_comparison.hpp: how far one sample of values lies from another, the
// figures a replay is scored by (sim/report/replay_score.hpp).
//
// The Kolmogorov-Smirnov distance is the largest gap between the two
// samples' empirical CDFs, sup over x of |F_a(x) - F_b(x)|, each CDF
// counting the values <= x: 0 for the same sample, 1 when every value of
// one lies below every value of the other. A relative error is the
// simulated figure's distance from the recorded one, as a share of the
// recorded one, with its sign: (simulated - recorded) / recorded.
//
//   ks_distance({1, 2, 3}, {2, 3, 4});   // 1/3: at x = 1 the first CDF is 1/3, the second 0
//   relative_error(110, 100);            // 0.1
#pragma once

#include <optional>
#include <vector>

namespace gcsim {

/// The two-sample Kolmogorov-Smirnov distance in [0, 1]; 0 when either sample is empty.
double ks_distance(std::vector<double> a, std::vector<double> b);

/// (simulated - recorded) / recorded; nothing when `recorded` is 0 (no scale to measure against).
std::optional<double> relative_error(double simulated, double recorded);

/// The share of `values` at most `bound`; 0 when empty.
double share_at_most(const std::vector<double>& values, double bound);

}  // namespace gcsim
