// power_model.hpp: each GPU's and node's power, watts, as the energy
// accounting (energy_meter.hpp) charges them.
//
// A GPU type's power is the cluster's own (`power` in the cluster file) or,
// when the cluster gives none, the bundled default for its name below
// (power_of() in sim/core/gpu_power_states.hpp); a type with neither cannot
// be accounted and is an InputError naming it. The defaults are the vendors'
// TDPs for computing and assumed idle draws (docs/cluster-format.md gives
// their sources):
//
//   type   idle  busy (W)
//   K80     25   300    (board TDP; idle assumed)
//   P100    30   300    (SXM2 TDP; idle assumed)
//   V100    50   300    (SXM2 TDP; idle assumed)
//   A100    60   400    (SXM TDP; idle assumed)
//   H100    80   700    (SXM TDP; idle assumed)
//
// and communicating draws the idle figure. A capped GPU computes at its
// power state's watts instead of busy_watts (gpu_power_states.hpp).
//
//   const PowerModel power = power_model(layout, "cluster.json");
//   double w = power.gpus[g].busy_watts;
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

struct PowerModel {
  std::vector<GpuPower> gpus;  // by GpuId
  double base_watts = 0;       // every node's base_watts summed
  double pue = 1.0;
  // Power states (sim/core/gpu_power_states.hpp); empty: no GPU is capped.
  std::vector<double> gpu_caps;                      // by GpuId: the cluster's cap, kNever for none
  std::vector<std::uint32_t> gpu_type;               // by GpuId: index into type_states
  std::vector<std::vector<PowerState>> type_states;  // by GPU type: its table, highest first

  // Each node's sleep (node_sleep_clock.hpp); empty: none sleeps.
  struct NodePower {
    Time sleep_after = kNever;  // kNever: never sleeps
    double sleep_watts = 0;     // in all, while asleep
    double base_watts = 0;      // awake: its base_watts and its GPUs' idle draw
    double idle_gpu_watts = 0;
  };
  std::vector<NodePower> nodes;  // by NodeId
  std::vector<NodeId> gpu_node;  // by GpuId

  /// What GPU `gpu` draws computing for a job asking `job_limit_watts` (0:
  /// none): its busy_watts, or its capped state's watts.
  double busy_watts(GpuId gpu, double job_limit_watts) const;
};

/// The power of every GPU of `layout` and of its nodes. Throws InputError
/// naming `cluster_file` and the GPU type that has no `power` and no default.
PowerModel power_model(const ClusterLayout& layout, const std::string& cluster_file);

}  // namespace gcsim
