// flat_locality.hpp: a Locality for unit tests whose subject only stores or
// passes the locality on and never depends on its answers: every pair of
// distinct GPUs is two hops apart over 1 GB/s with no latency.
//
//   FlatLocality locality;
//   SchedulerState state(layout, locality, jobs);
#pragma once

#include "sim/core/locality.hpp"

namespace gcsim::testing {

class FlatLocality final : public Locality {
 public:
  std::size_t hops(GpuId a, GpuId b) const override { return a == b ? 0 : 2; }
  double bottleneck_bandwidth(GpuId, GpuId) const override { return 1e9; }
  double path_latency(GpuId, GpuId) const override { return 0; }
};

}  // namespace gcsim::testing
