#include "sim/core/cluster_layout.hpp"

#include <cassert>

namespace gcsim {

ClusterLayout::ClusterLayout(const ClusterSpec& spec) : spec_(spec) {
  const std::uint32_t per_rack = spec.fabric.nodes_per_rack == 0 ? 1 : spec.fabric.nodes_per_rack;
  bool carries_gpus = false;  // a group with nodes came before
  for (std::uint32_t g = 0; g < spec.node_groups.size(); ++g) {
    const NodeGroup& group = spec.node_groups[g];
    const bool cpu_group = group.gpus_per_node == 0;
    const int type = cpu_group ? -1 : find_gpu_type(group.gpu_type);
    assert((cpu_group || type >= 0) && "ClusterLayout needs a validated spec: every GPU node group names a known type");
    for (std::uint32_t i = 0; i < group.count; ++i) {
      NodeInfo info;
      info.name = group.name + "-" + std::to_string(i);
      info.group = g;
      if (!cpu_group) info.gpu_type = static_cast<std::uint32_t>(type);
      const auto id = static_cast<NodeId>(nodes_.size());
      info.rack = id / per_rack;
      if (info.rack >= racks_.size()) racks_.resize(info.rack + 1);
      racks_[info.rack].push_back(id);
      for (std::uint32_t k = 0; k < group.gpus_per_node; ++k) {
        info.gpus.push_back(static_cast<GpuId>(gpu_node_.size()));
        gpu_node_.push_back(id);
        gpu_local_.push_back(k);
      }
      nodes_.push_back(std::move(info));
    }
    if (cpu_group || group.count == 0) continue;
    const double memory = spec.gpu_types[static_cast<std::size_t>(type)].memory_bytes;
    if (!carries_gpus || memory < smallest_gpu_memory_) smallest_gpu_memory_ = memory;
    carries_gpus = true;
  }
  fabric_ = FabricLayout(*this);
}

std::string ClusterLayout::gpu_label(GpuId gpu) const {
  return nodes_[gpu_node_[gpu]].name + ":" + std::to_string(gpu_local_[gpu]);
}

const std::string& ClusterLayout::gpu_type_name(NodeId node) const {
  static const std::string kNone;
  const std::uint32_t type = nodes_[node].gpu_type;
  return type == NodeInfo::kNoGpuType ? kNone : spec_.gpu_types[type].name;
}

int ClusterLayout::find_gpu_type(const std::string& name) const {
  for (std::size_t i = 0; i < spec_.gpu_types.size(); ++i)
    if (spec_.gpu_types[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace gcsim
