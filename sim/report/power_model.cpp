#include "sim/report/power_model.hpp"

#include "sim/core/input_error.hpp"

namespace gcsim {

std::optional<GpuPower> default_gpu_power(const std::string& type_name) {
  struct Default {
    const char* name;
    double idle, busy;
  };
  static constexpr Default kDefaults[] = {
      {"K80", 25, 300}, {"P100", 30, 300}, {"V100", 50, 300}, {"A100", 60, 400}, {"H100", 80, 700},
  };
  for (const Default& d : kDefaults)
    if (type_name == d.name) return GpuPower{d.idle, d.busy, d.idle};
  return std::nullopt;
}

PowerModel power_model(const ClusterLayout& layout, const std::string& cluster_file) {
  const ClusterSpec& spec = layout.spec();
  std::vector<GpuPower> of_type;
  for (std::size_t t = 0; t < spec.gpu_types.size(); ++t) {
    const GpuType& type = spec.gpu_types[t];
    const std::optional<GpuPower> power = type.power ? type.power : default_gpu_power(type.name);
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
  for (const NodeGroup& group : spec.node_groups) model.base_watts += group.count * group.base_watts;
  return model;
}

}  // namespace gcsim
