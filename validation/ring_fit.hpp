// ring_fit.hpp: the ring's link parameters fitted to every measured size at
// once, beside the calibration that measures them directly.
//
// A ring allreduce of S bytes over N ranks takes 2(N-1)(alpha + S/(N B)):
// linear in S, with intercept 2(N-1) alpha and slope 2(N-1)/(N B). Over the
// measured (S, t) pairs of one N, the least-squares fit of that line in
// relative terms (each residual divided by its measured time, so a 4 KiB run
// weighs as much as a 64 MiB one) gives the hop latency alpha and the goodput
// B that explain all sizes together. A negative intercept (noise on small
// sizes) is clamped: the slope is then refitted with alpha = 0.
//
//   std::optional<RingLinkFit> fit = fit_ring_link(3, {{4096, 1.2e-4}, {16 << 20, 0.45}});
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gcsim::validation {

struct RingTiming {
  double bytes = 0;
  double seconds = 0;
};

struct RingLinkFit {
  double hop_latency_s = 0;
  double goodput_Bps = 0;
  /// The largest |fitted - measured| / measured over the points.
  double max_relative_residual = 0;
  std::size_t points = 0;
};

/// The fit over `timings` of one ring of `ranks` >= 2 ranks; nullopt with
/// fewer than two distinct sizes, a time <= 0, or no positive slope.
std::optional<RingLinkFit> fit_ring_link(std::uint32_t ranks, const std::vector<RingTiming>& timings);

}  // namespace gcsim::validation
