#include "sim/model/horizontal_autoscaler.hpp"

#include <algorithm>
#include <cmath>

namespace gcsim {
namespace {

/// ceil(x), forgiving a relative 1e-9 above an integer.
double forgiving_ceil(double x) { return std::ceil(x - 1e-9 * std::max(1.0, std::abs(x))); }

}  // namespace

HorizontalAutoscaler::HorizontalAutoscaler(AutoscalerSpec spec) : spec_(spec) {}

std::uint32_t HorizontalAutoscaler::decide(Time now, std::uint32_t current, std::uint32_t ready, double metric) {
  return stabilize(now, current, recommend(current, ready, metric));
}

std::uint32_t HorizontalAutoscaler::recommend(std::uint32_t current, std::uint32_t ready, double metric) const {
  std::uint32_t wanted = current;
  const double ratio = metric / spec_.target;
  if (ready > 0 && std::abs(ratio - 1) > spec_.tolerance) {
    const bool up_past_unready = ratio > 1 && current > ready && ratio * ready / current <= 1 + spec_.tolerance;
    if (!up_past_unready) wanted = static_cast<std::uint32_t>(std::max(0.0, forgiving_ceil(ratio * ready)));
  }
  return std::clamp(wanted, spec_.min_replicas, std::max(spec_.min_replicas, spec_.max_replicas));
}

std::uint32_t HorizontalAutoscaler::stabilize(Time now, std::uint32_t current, std::uint32_t recommendation) {
  while (!recommendations_.empty() && recommendations_.front().first <= now - spec_.scale_down_window)
    recommendations_.pop_front();
  recommendations_.emplace_back(now, recommendation);
  std::uint32_t highest = 0;
  for (const auto& [time, replicas] : recommendations_) highest = std::max(highest, replicas);
  return std::min(std::max(current, recommendation), highest);
}

}  // namespace gcsim
