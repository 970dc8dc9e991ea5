#include "sim/core/gpu_power_states.hpp"

#include <algorithm>
#include <cassert>

namespace gcsim {
namespace {

struct BundledType {
  const char* name;
  double idle_watts, busy_watts;
  std::vector<PowerState> states;
};

// docs/cluster-format.md gives the sources of the idle and busy figures and
// the shape of the tables (gpu_power_states.hpp).
const std::vector<BundledType>& bundled_types() {
  static const std::vector<BundledType> types = {
      {"K80", 25, 300, {{300, 1.0}, {250, 0.92}, {200, 0.78}, {150, 0.55}}},
      {"P100", 30, 300, {{300, 1.0}, {250, 0.94}, {200, 0.82}, {150, 0.6}}},
      {"V100", 50, 300, {{300, 1.0}, {250, 0.95}, {200, 0.85}, {150, 0.66}, {100, 0.4}}},
      {"A100", 60, 400, {{400, 1.0}, {300, 0.92}, {250, 0.84}, {200, 0.7}, {150, 0.48}}},
      {"H100", 80, 700, {{700, 1.0}, {500, 0.9}, {400, 0.8}, {300, 0.62}, {200, 0.36}}},
      {"H200", 79, 700, {{700, 1.0}, {500, 0.9}, {400, 0.8}, {300, 0.62}, {200, 0.36}}},
  };
  return types;
}

const BundledType* bundled_type(const std::string& name) {
  for (const BundledType& type : bundled_types())
    if (name == type.name) return &type;
  return nullptr;
}

}  // namespace

std::vector<PowerState> bundled_power_states(const std::string& type_name) {
  const BundledType* type = bundled_type(type_name);
  return type ? type->states : std::vector<PowerState>{};
}

std::optional<GpuPower> bundled_gpu_power(const std::string& type_name) {
  const BundledType* type = bundled_type(type_name);
  if (!type) return std::nullopt;
  return GpuPower{type->idle_watts, type->busy_watts, type->idle_watts};
}

std::optional<GpuPower> power_of(const GpuType& type) { return type.power ? type.power : bundled_gpu_power(type.name); }

std::vector<PowerState> power_states_of(const GpuType& type) {
  return type.power_states.empty() ? bundled_power_states(type.name) : type.power_states;
}

PowerState state_within(const std::vector<PowerState>& states, double limit_watts) {
  assert(!states.empty() && "a capped GPU has a power-state table");
  for (const PowerState& state : states)
    if (state.watts <= limit_watts) return state;
  return states.back();
}

double gpu_power_cap(const ClusterLayout& layout, GpuId gpu) {
  const NodeGroup& group = layout.group_of_node(layout.node_of(gpu));
  return std::min({layout.spec().gpu_power_cap_watts, layout.gpu_type_of(gpu).power_cap_watts, group.power_cap_watts});
}

double run_power_limit(double job_limit_watts, double run_limit_watts) {
  if (job_limit_watts <= 0) return std::max(run_limit_watts, 0.0);
  return run_limit_watts > 0 ? std::min(job_limit_watts, run_limit_watts) : job_limit_watts;
}

std::optional<PowerState> capped_state(const ClusterLayout& layout, GpuId gpu, double job_limit_watts) {
  const double cap = std::min(gpu_power_cap(layout, gpu), job_limit_watts > 0 ? job_limit_watts : kNever);
  if (cap == kNever) return std::nullopt;
  const std::vector<PowerState> states = power_states_of(layout.gpu_type_of(gpu));
  if (states.empty()) return std::nullopt;
  return state_within(states, cap);
}

}  // namespace gcsim
