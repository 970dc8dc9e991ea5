// cluster_spec.hpp: a cluster description as plain data (units: bytes,
// bytes/s, seconds, FLOP/s).
//
// The same ClusterSpec feeds the locality graph (sim/topology), the SimGrid
// platform (sim/engine) and the layout policies see (cluster_layout.hpp), so
// the three cannot disagree about the hardware.
//
// Fabric: nodes are grouped into racks of `nodes_per_rack` under a top-of-rack
// switch; racks hang off a non-blocking spine. Each rack's uplink carries
// nodes_per_rack * nic_bandwidth / oversubscription.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gcsim {

struct GpuType {
  std::string name;
  double flops = 0;         // sustained FLOP/s
  double memory_bytes = 0;  // device memory
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
  LinkSpec nic;    // node to its top-of-rack switch
};

struct FabricSpec {
  std::uint32_t nodes_per_rack = 1;
  double oversubscription = 1.0;  // rack downlink capacity / rack uplink capacity
  double uplink_latency = 0;      // top-of-rack switch to spine, seconds
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
};

}  // namespace gcsim
