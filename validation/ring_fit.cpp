#include "validation/ring_fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <Eigen/Dense>

namespace gcsim::validation {

std::optional<RingLinkFit> fit_ring_link(std::uint32_t ranks, const std::vector<RingTiming>& timings) {
  std::set<double> sizes;
  for (const RingTiming& t : timings) {
    if (!(t.seconds > 0) || !(t.bytes > 0)) return std::nullopt;
    sizes.insert(t.bytes);
  }
  if (ranks < 2 || sizes.size() < 2) return std::nullopt;
  const double n = ranks;
  const double steps = 2 * (n - 1);  // t = steps * alpha + (steps / n) * S * (1 / B)

  // Rows divided by the measured time: the residuals are relative.
  const auto m = static_cast<Eigen::Index>(timings.size());
  Eigen::MatrixXd a(m, 2);
  Eigen::VectorXd ones = Eigen::VectorXd::Ones(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const RingTiming& t = timings[static_cast<std::size_t>(i)];
    a(i, 0) = steps / t.seconds;
    a(i, 1) = steps / n * t.bytes / t.seconds;
  }
  Eigen::Vector2d x = a.colPivHouseholderQr().solve(ones);
  if (x(0) < 0) {  // no negative latency: the best slope through the origin
    x(0) = 0;
    x(1) = a.col(1).dot(ones) / a.col(1).squaredNorm();
  }
  if (!(x(1) > 0)) return std::nullopt;

  RingLinkFit fit;
  fit.hop_latency_s = x(0);
  fit.goodput_Bps = 1 / x(1);
  fit.points = timings.size();
  for (const RingTiming& t : timings) {
    const double fitted = steps * (fit.hop_latency_s + t.bytes / (n * fit.goodput_Bps));
    fit.max_relative_residual = std::max(fit.max_relative_residual, std::fabs(fitted - t.seconds) / t.seconds);
  }
  return fit;
}

}  // namespace gcsim::validation
