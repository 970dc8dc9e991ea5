// crafted_specs.hpp: cluster pieces built in code for unit tests, so each
// test states only what its hand computation depends on.
//
//   spec.node_groups = {crafted_node_group("dgx", 4, 8, "V100")};
#pragma once

#include <cstdint>
#include <string>

#include "sim/core/cluster_spec.hpp"

namespace gcsim::testing {

/// `count` nodes of `gpus_per_node` GPUs of `gpu_type`, NVLink inside
/// (150 GB/s, 2 us), a 100 Gb/s NIC (5 us), 32 cores and 256 GB each.
inline NodeGroup crafted_node_group(const std::string& name, std::uint32_t count, std::uint32_t gpus_per_node,
                                    const std::string& gpu_type) {
  NodeGroup group;
  group.name = name;
  group.count = count;
  group.gpus_per_node = gpus_per_node;
  group.gpu_type = gpu_type;
  group.cpu_cores = 32;
  group.memory_bytes = 256e9;
  group.intra = {150e9, 2e-6};
  group.nic = {12.5e9, 5e-6};
  return group;
}

}  // namespace gcsim::testing
