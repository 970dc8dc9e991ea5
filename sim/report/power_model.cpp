#include "sim/report/power_model.hpp"

#include <algorithm>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/input_error.hpp"

namespace gcsim {

double PowerModel::busy_watts(GpuId gpu, double job_limit_watts) const {
  double cap = gpu < gpu_caps.size() ? gpu_caps[gpu] : kNever;
  if (job_limit_watts > 0) cap = std::min(cap, job_limit_watts);
  if (cap == kNever || gpu >= gpu_type.size() || type_states[gpu_type[gpu]].empty()) return gpus[gpu].busy_watts;
  return state_within(type_states[gpu_type[gpu]], cap).watts;
}

PowerModel power_model(const ClusterLayout& layout, const std::string& cluster_file) {
  const ClusterSpec& spec = layout.spec();
  std::vector<GpuPower> of_type;
  for (std::size_t t = 0; t < spec.gpu_types.size(); ++t) {
    const GpuType& type = spec.gpu_types[t];
    const std::optional<GpuPower> power = power_of(type);
    if (!power)
      throw InputError(cluster_file, "gpu_types[" + std::to_string(t) + "] (name '" + type.name + "')", "power",
                       "energy accounting needs the power of GPU type '" + type.name +
                           "', which has no bundled default: give idle_watts and busy_watts");
    of_type.push_back(*power);
  }
  PowerModel model;
  model.pue = spec.pue;
  model.gpus.reserve(layout.gpu_count());
  for (std::size_t g = 0; g < layout.gpu_count(); ++g)
    model.gpus.push_back(of_type[layout.gpu_type_index(static_cast<GpuId>(g))]);
  for (const GpuType& type : spec.gpu_types) model.type_states.push_back(power_states_of(type));
  model.gpu_caps.reserve(layout.gpu_count());
  model.gpu_type.reserve(layout.gpu_count());
  for (std::size_t g = 0; g < layout.gpu_count(); ++g) {
    model.gpu_caps.push_back(gpu_power_cap(layout, static_cast<GpuId>(g)));
    model.gpu_type.push_back(layout.gpu_type_index(static_cast<GpuId>(g)));
  }
  const bool sleeps = std::any_of(spec.node_groups.begin(), spec.node_groups.end(),
                                  [](const NodeGroup& group) { return group.sleep_after != kNever; });
  if (sleeps) {
    model.nodes.resize(layout.node_count());
    for (NodeId n = 0; n < layout.node_count(); ++n) {
      const NodeGroup& group = layout.group_of_node(n);
      model.nodes[n] = {group.sleep_after, group.sleep_watts, group.base_watts, 0.0};
    }
    for (std::size_t g = 0; g < layout.gpu_count(); ++g) {
      model.gpu_node.push_back(layout.node_of(static_cast<GpuId>(g)));
      model.nodes[model.gpu_node.back()].idle_gpu_watts += model.gpus[g].idle_watts;
    }
  }
  for (const NodeGroup& group : spec.node_groups) model.base_watts += group.count * group.base_watts;
  return model;
}

}  // namespace gcsim
