// ring_scenario.hpp: a measured ring allreduce as a gcsim scenario.
//
// The link is described by what was measured on it: the hop latency (half a
// small-message round trip between neighbours) and the goodput of a bulk ring
// step. gcsim simulates one training job on N single-GPU nodes whose NICs
// have that goodput and half the hop latency each (a ring edge crosses two
// NICs), gradients of S bytes and negligible compute; its time per iteration
// is one allreduce.
//
//   RingCalibration link{2.4e-5, 24.8e6};
//   write(ring_cluster_json(3, link)); write(ring_workload_json(3, 16 << 20, 5));
//   double expected = ring_closed_form_seconds(3, 16 << 20, link);
#pragma once

#include <cstdint>
#include <string>

namespace gcsim::validation {

struct RingCalibration {
  double hop_latency_s = 0;
  double goodput_Bps = 0;
};

/// The cluster (docs/cluster-format.md): N nodes of one GPU, NICs of the calibrated link.
std::string ring_cluster_json(std::uint32_t ranks, const RingCalibration& link);

/// One job of N GPUs allreducing `bytes` every iteration, `iterations` times, with 1 FLOP of compute.
std::string ring_workload_json(std::uint32_t ranks, double bytes, std::uint64_t iterations);

/// The closed form of the same iteration: 2(N-1)(alpha + S/(N B)) and the 1-FLOP compute.
double ring_closed_form_seconds(std::uint32_t ranks, double bytes, const RingCalibration& link);

/// "16MiB", "4KiB" for whole binary multiples, else "1000004B".
std::string size_label(double bytes);

}  // namespace gcsim::validation
