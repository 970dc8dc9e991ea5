// gpu_power_states.hpp: a GPU's power states (power limits and the speed it
// computes at under each), the caps set on GPUs, and the state a capped GPU
// runs in: what the engine's compute times and the energy accounting read.
//
// A GPU type's table is the cluster's own (`power_states` in the cluster
// file) or the bundled one for its name below. A GPU is capped by the least
// of the `power_cap_watts` of the cluster, of its type and of its node group,
// and by the limit of the run on it: the lower of its job's
// `power_limit_watts` and of the limit its policy started the run under
// (Plan::allocate), where set (run_power_limit()). A capped GPU runs
// in the highest state whose watts are within the cap (the lowest state when
// none is: a GPU does not go below its lowest limit), computes at that
// state's speed and draws its watts while computing; communicating and idle
// draws are unchanged. A GPU under no cap runs at full speed and draws its
// type's busy_watts, as without any table.
//
// The bundled tables are assumptions shaped after the power-limit curves
// Zeus (You, Chung and Chowdhury, NSDI'23, Fig. 2 and 13) measured on V100
// and A100: throughput falls slowly from the TDP down to about 60% of it,
// then quickly, so the energy of a fixed amount of work (watts over speed)
// is lowest at an intermediate limit:
//
//   type   watts : speed
//   K80    300:1.0  250:0.92  200:0.78  150:0.55
//   P100   300:1.0  250:0.94  200:0.82  150:0.6
//   V100   300:1.0  250:0.95  200:0.85  150:0.66  100:0.4
//   A100   400:1.0  300:0.92  250:0.84  200:0.7   150:0.48
//   H100   700:1.0  500:0.9   400:0.8   300:0.62  200:0.36
//
//   const std::optional<PowerState> state = capped_state(layout, gpu, job.power_limit_watts);
//   double speed = state ? state->speed : 1.0;
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/cluster_spec.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

/// The bundled power-state table for a GPU type of this name, highest
/// first; empty for other names.
std::vector<PowerState> bundled_power_states(const std::string& type_name);

/// The bundled power (idle and busy watts) for a GPU type of this name; none for other names.
std::optional<GpuPower> bundled_gpu_power(const std::string& type_name);

/// The type's own power, or the bundled one for its name; none when it has neither.
std::optional<GpuPower> power_of(const GpuType& type);

/// The type's own table, or the bundled one for its name (empty: none).
std::vector<PowerState> power_states_of(const GpuType& type);

/// The highest state of `states` (highest first) within `limit_watts`; the
/// lowest when none is. `states` must not be empty.
PowerState state_within(const std::vector<PowerState>& states, double limit_watts);

/// The cluster's cap on `gpu`: the least `power_cap_watts` of the cluster,
/// its GPU type and its node group; kNever when none is set.
double gpu_power_cap(const ClusterLayout& layout, GpuId gpu);

/// The power limit per GPU a run is under: the lower of the job's own
/// (JobSpec::power_limit_watts) and the one its policy started the run with
/// (Plan::allocate), where set; 0 when neither is.
double run_power_limit(double job_limit_watts, double run_limit_watts);

/// The state `gpu` runs in for a job asking `job_limit_watts` (0: none):
/// none when neither the cluster nor the job caps it, or when its type has
/// no table (the cluster reader refuses a cluster cap on such a type; a
/// job's limit is then not honoured).
std::optional<PowerState> capped_state(const ClusterLayout& layout, GpuId gpu, double job_limit_watts);

}  // namespace gcsim
