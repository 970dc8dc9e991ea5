// cluster_spec.hpp: a cluster description as plain data (units: bytes,
// bytes/s, seconds, FLOP/s).
//
// The same ClusterSpec feeds the locality graph (sim/topology), the SimGrid
// platform (sim/engine) and the layout policies see (cluster_layout.hpp), so
// the three cannot disagree about the hardware.
//
// Fabric: nodes are grouped into racks of `nodes_per_rack` under a top-of-rack
// switch (on a rail-optimized fabric, a rail group: one leaf switch per
// rail); racks hang off a non-blocking spine, or, in pods of
// `racks_per_pod`, off one spine per pod joined by a core. Each leaf's uplink
// carries the bandwidth of the NICs under it / oversubscription, each pod's
// the bandwidth of its leaves' uplinks / pod_oversubscription.
// sim/core/fabric_layout.hpp numbers these links, fabric_route.hpp routes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/node_role.hpp"

namespace gcsim {

/// A GPU's electrical power, watts, in the states the energy accounting
/// tells apart (sim/report/power_model.hpp).
struct GpuPower {
  double idle_watts = 0;           // powered on, running nothing
  double busy_watts = 0;           // computing
  double communicating_watts = 0;  // held by a job that is not computing (communicating, loading, checkpointing)
};

/// A power limit a GPU can be set to and the speed it computes at under it,
/// relative to its full speed (sim/core/gpu_power_states.hpp).
struct PowerState {
  double watts = 0;  // the limit, and the GPU's draw while it computes under it
  double speed = 1;  // in (0, 1]
};

struct GpuType {
  std::string name;
  double flops = 0;         // sustained FLOP/s
  double memory_bytes = 0;  // device memory
  // The cluster's own figures; none: the bundled defaults for its name
  // (power_model.hpp), needed only when energy is accounted.
  std::optional<GpuPower> power = std::nullopt;
  // Its power states, highest first; empty: the bundled table for its name
  // (gpu_power_states.hpp), if any.
  std::vector<PowerState> power_states = {};
  double power_cap_watts = kNever;  // every GPU of the type; kNever: no cap
};

enum class IntraNodeKind { kNvlink, kPcie };

/// A link as seen by the fabric: full duplex, `bandwidth` bytes/s each way.
struct LinkSpec {
  double bandwidth = 0;  // bytes/s
  double latency = 0;    // seconds
};

struct NodeGroup {
  std::string name;
  std::uint32_t count = 0;
  std::uint32_t gpus_per_node = 0;
  std::string gpu_type;
  std::uint32_t cpu_cores = 0;
  double memory_bytes = 0;
  IntraNodeKind intra_kind = IntraNodeKind::kNvlink;
  LinkSpec intra;  // GPU-to-GPU inside the node: bandwidth per GPU port, end-to-end latency
  LinkSpec nic;    // each NIC: the node's one NIC, or each GPU's own (nic_per_gpu), to its leaf switch
  // Every GPU has its own NIC of `nic` (NIC k is GPU k's, on rail k of a
  // rail-optimized fabric), reached without crossing the GPU's port; else the
  // node's GPUs share one NIC behind the node's switch.
  bool nic_per_gpu = false;
  // Last, so that a group written field by field in order keeps its meaning.
  // RDMA NICs (RNICs) whose bandwidth jobs ask a share of (JobSpec::rdma_percent):
  // a node of 2 has 200 percent to give; 0: none, no job asking RDMA fits.
  std::uint32_t rnics = 0;
  double disk_bytes = 0;            // host disk; 0: none, no job asking disk fits
  NodeRole role = NodeRole::kNone;  // CN or HN (node_role.hpp); kNone: none
  double base_watts = 0;            // each node's power besides its GPUs (CPUs, memory, NICs), always drawn
  double power_cap_watts = kNever;  // each of its GPUs' power cap; kNever: none
  // A node no run has held for sleep_after seconds sleeps, drawing
  // sleep_watts in all, until a run starts on it after waking for wake_up
  // seconds (sim/report/node_sleep_clock.hpp). kNever: it never sleeps.
  double sleep_after = kNever;
  double sleep_watts = 0;
  double wake_up = 0;
};

struct FabricSpec {
  std::uint32_t nodes_per_rack = 1;
  double oversubscription = 1.0;  // rack downlink capacity / rack uplink capacity
  double uplink_latency = 0;      // top-of-rack switch to spine, seconds
  // NIC k of every node of a rack plugs into the rack's leaf k (rail k);
  // else every NIC of a rack plugs into its one top-of-rack switch.
  bool rail_optimized = false;
  // NCCL's PXN: a transfer between GPUs of different nodes and rails first
  // crosses NVLink to the sender's GPU on the receiver's rail, whose NIC sends it.
  bool pxn = false;
  // Racks in a pod under one spine; pods are joined by a core. 0: one pod
  // (two tiers: leaves and one spine).
  std::uint32_t racks_per_pod = 0;
  double pod_oversubscription = 1.0;  // a pod's leaf-uplink capacity / its core uplink capacity
  double pod_uplink_latency = 0;      // a pod's spine to the core, seconds
};

/// How SimGrid turns link capacities into flow rates. The defaults make a
/// flow of S bytes over a path take exactly latency + S / bottleneck, so
/// hand-computed figures hold; LV08 reproduces TCP behaviour instead.
struct NetworkModelSpec {
  std::string model = "CM02";
  double latency_factor = 1.0;
  double bandwidth_factor = 1.0;
  double tcp_window_bytes = 0;  // 0: no TCP window cap
  bool crosstraffic = false;    // acknowledgements consuming reverse bandwidth
};

struct ClusterSpec {
  std::string name;
  std::vector<GpuType> gpu_types;
  std::vector<NodeGroup> node_groups;  // nodes are numbered group by group
  FabricSpec fabric;
  NetworkModelSpec network;
  double pue = 1.0;                     // power usage effectiveness: the facility's power / the IT equipment's
  double gpu_power_cap_watts = kNever;  // every GPU's power cap; kNever: none
};

}  // namespace gcsim
