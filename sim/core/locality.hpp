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

  /// Both figures of the path from a to b. Asked for each edge of a job's
  /// ring at its every start: an implementation that finds a path once for
  /// both overrides it.
  struct PathFigures {
    double bottleneck_bandwidth = 0;
    double latency = 0;
  };
  virtual PathFigures path_figures(GpuId a, GpuId b) const { return {bottleneck_bandwidth(a, b), path_latency(a, b)}; }
};

}  // namespace gcsim
