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

/// Two nodes of two GPUs in one rail group of a rail-optimized fabric:
///
///   n-0: GPU 0 (rail 0), GPU 1 (rail 1)     n-1: GPU 2 (rail 0), GPU 3 (rail 1)
///   ports: NVLink 450 GB/s, 1 us each (GPU to GPU 2 us)
///   NICs:  one per GPU, 400 Gb/s = 50 GB/s, 2 us, GPU i's to leaf i
///   leaves: rail 0 (NICs of GPUs 0, 2), rail 1 (of GPUs 1, 3); each uplink
///           carries (2 x 50 GB/s) / oversubscription 4 = 25 GB/s, 3 us
inline ClusterSpec tiny_rail_cluster(bool pxn = false) {
  ClusterSpec spec;
  spec.name = pxn ? "rails-pxn" : "rails";
  spec.gpu_types = {GpuType{"H", 1e15, 80e9}};
  NodeGroup group = crafted_node_group("n", 2, 2, "H");
  group.intra = {450e9, 2e-6};
  group.nic = {50e9, 2e-6};
  group.nic_per_gpu = true;
  spec.node_groups = {group};
  spec.fabric.nodes_per_rack = 2;
  spec.fabric.oversubscription = 4;
  spec.fabric.uplink_latency = 3e-6;
  spec.fabric.rail_optimized = true;
  spec.fabric.pxn = pxn;
  return spec;
}

/// Three tiers: four nodes of two GPUs with a NIC each (rails), a rack per
/// node, two racks per pod.
///
///   rack r = node n-r, in pod r / 2; GPU 2r is on rail 0, GPU 2r+1 on rail 1
///   ports 450 GB/s, 1 us; NICs 50 GB/s, 2 us
///   leaf uplinks: 1 NIC x 50 GB/s / 1 = 50 GB/s, 3 us
///   pod uplinks:  (4 leaves x 50 GB/s) / pod oversubscription 8 = 25 GB/s, 4 us
inline ClusterSpec three_tier_rail_cluster(bool pxn = false) {
  ClusterSpec spec = tiny_rail_cluster(pxn);
  spec.name = "three-tiers";
  spec.node_groups[0].count = 4;
  spec.fabric.nodes_per_rack = 1;
  spec.fabric.oversubscription = 1;
  spec.fabric.racks_per_pod = 2;
  spec.fabric.pod_oversubscription = 8;
  spec.fabric.pod_uplink_latency = 4e-6;
  return spec;
}

}  // namespace gcsim::testing
