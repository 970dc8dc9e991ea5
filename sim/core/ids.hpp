// ids.hpp: the small value types every part of gcsim shares.
//
// GPUs, nodes, racks and jobs are dense indices, assigned in the order the
// cluster description and the workload list them, so that tables can be plain
// vectors and iteration order is deterministic.
//
//   gcsim::GpuId g = layout.gpus_of_node(n).front();
#pragma once

#include <cstdint>
#include <limits>

namespace gcsim {

using GpuId = std::uint32_t;
using NodeId = std::uint32_t;
using RackId = std::uint32_t;
using JobIndex = std::uint32_t;

/// Simulated time in seconds since the start of the simulation.
using Time = double;

inline constexpr JobIndex kNoJob = std::numeric_limits<JobIndex>::max();
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
inline constexpr Time kNever = std::numeric_limits<double>::infinity();

}  // namespace gcsim
