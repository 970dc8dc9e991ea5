// locality.hpp: the locality questions a policy may ask about two GPUs.
//
// Implemented by sim/topology's ClusterGraph (Boost.Graph); policies see only
// this interface, so they build and test without Boost or SimGrid.
//
//   if (locality.hops(a, b) <= 2) ...  // same node
#pragma once

#include <cstddef>

#include "sim/core/ids.hpp"

namespace gcsim {

class Locality {
 public:
  virtual ~Locality() = default;
  /// Number of links a message from GPU a to GPU b crosses (0 when a == b).
  virtual std::size_t hops(GpuId a, GpuId b) const = 0;
  /// Smallest link bandwidth on the path from a to b, bytes/s (infinity when a == b).
  virtual double bottleneck_bandwidth(GpuId a, GpuId b) const = 0;
  /// Sum of link latencies on the path from a to b, seconds.
  virtual double path_latency(GpuId a, GpuId b) const = 0;
};

}  // namespace gcsim
