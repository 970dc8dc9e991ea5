// cluster_layout.hpp: the cluster flattened into dense GPU, node and rack
// indices.
//
// Nodes are numbered in the order of the description's node groups; racks take
// `nodes_per_rack` consecutive nodes; GPUs are numbered node by node; the
// network's links are numbered in fabric() (fabric_layout.hpp). Built once
// from a ClusterSpec and never changed.
//
//   ClusterLayout layout(spec);
//   for (GpuId g : layout.gpus_of_node(0)) ...
#pragma once

#include <string>
#include <vector>

#include "sim/core/cluster_spec.hpp"
#include "sim/core/fabric_layout.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

struct NodeInfo {
  std::string name;         // e.g. "dgx-3"
  std::uint32_t group = 0;  // index into ClusterSpec::node_groups
  RackId rack = 0;
  std::uint32_t gpu_type = kNoGpuType;  // index into ClusterSpec::gpu_types; kNoGpuType on a CPU node
  std::vector<GpuId> gpus;              // empty on a CPU node (its group's gpus_per_node is 0)

  static constexpr std::uint32_t kNoGpuType = static_cast<std::uint32_t>(-1);
};

class ClusterLayout {
 public:
  /// Requires a spec that passed validation (known GPU types, positive
  /// counts); a group of no GPU per node is a CPU node group.
  explicit ClusterLayout(const ClusterSpec& spec);

  const ClusterSpec& spec() const { return spec_; }
  std::size_t gpu_count() const { return gpu_node_.size(); }
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t rack_count() const { return racks_.size(); }

  NodeId node_of(GpuId gpu) const { return gpu_node_[gpu]; }
  RackId rack_of_node(NodeId node) const { return nodes_[node].rack; }
  /// Position of the GPU within its node (0 .. gpus_per_node-1).
  std::uint32_t local_index(GpuId gpu) const { return gpu_local_[gpu]; }
  const NodeInfo& node(NodeId node) const { return nodes_[node]; }
  /// Whether the node carries GPUs (a node of a CPU node group does not).
  bool has_gpus(NodeId node) const { return !nodes_[node].gpus.empty(); }
  const std::vector<NodeId>& nodes_of_rack(RackId rack) const { return racks_[rack]; }
  const GpuType& gpu_type_of(GpuId gpu) const { return spec_.gpu_types[nodes_[gpu_node_[gpu]].gpu_type]; }
  /// The GPU's type as an index into ClusterSpec::gpu_types.
  std::uint32_t gpu_type_index(GpuId gpu) const { return nodes_[gpu_node_[gpu]].gpu_type; }
  const NodeGroup& group_of_node(NodeId node) const { return spec_.node_groups[nodes_[node].group]; }
  /// "node:gpu" label used in outputs, e.g. "dgx-3:5".
  std::string gpu_label(GpuId gpu) const;
  /// The name of the node's GPU type; "" on a CPU node.
  const std::string& gpu_type_name(NodeId node) const;
  /// Index of the GPU type with that name, or -1.
  int find_gpu_type(const std::string& name) const;
  /// The smallest memory of any GPU the nodes carry (0 without nodes): a job
  /// asking at most that much fits the memory of every GPU.
  double smallest_gpu_memory() const { return smallest_gpu_memory_; }
  /// The network's links, numbered, and where each GPU and node sits among them.
  const FabricLayout& fabric() const { return fabric_; }

 private:
  ClusterSpec spec_;
  std::vector<NodeInfo> nodes_;
  std::vector<std::vector<NodeId>> racks_;
  std::vector<NodeId> gpu_node_;
  std::vector<std::uint32_t> gpu_local_;
  double smallest_gpu_memory_ = 0;
  FabricLayout fabric_;
};

}  // namespace gcsim
