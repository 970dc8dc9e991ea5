// stage_power_plan.hpp: the power state each pipeline stage of a job runs
// in under its StagePowerPlan (sim/core/phased_work.hpp), and how much that
// stretches the pipeline: what the compute times (sim/model/placement_costs.hpp)
// and the energy accounting (sim/report/energy_meter.hpp) read.
//
// A stage's state is the highest of its GPU type's table within the stage's
// limit (state_within(), gpu_power_states.hpp) or, without limits, the one
// Perseus's rule picks (Chung et al., "Reducing Energy Bloat in Large Model
// Training", SOSP'24): the stages off the pipeline's critical path slow down
// so that the iteration keeps its time and draws less. gcsim's rule is a
// greedy: from every stage at full power, repeatedly lower by one state the
// stage whose lowering keeps the 1F1B pipeline (one_f_one_b.hpp, each
// stage's times over its state's speed) within (1 + slack) x its time at
// full power and leaves the least energy, until no lowering does and saves
// energy. The energy counted is the pipeline's time x the sum of the
// stages' watts: every GPU draws its state's watts for the whole pipeline
// (the bubble counts as computation). Perseus itself plans each forward and
// backward apart (a frequency per computation, not per stage), finds the
// whole time-energy frontier by a graph cut, and slows the other pipelines
// to a straggler's pace; none of that is modelled.
//
// A GPU the cluster caps lower than its stage's state runs in the cap's
// state; the pipeline stretches by its slowest stage's GPUs. A GPU type
// without a table has no state to run in: its GPUs run at full speed and
// draw their busy watts.
//
//   const std::vector<PowerState> states = stage_power_states(plan, bundled_power_states("H100"));
//   const double stretch = planned_stretch(plan, planned_rank_states(plan, ranks));
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/core/cluster_spec.hpp"
#include "sim/core/phased_work.hpp"

namespace gcsim {

/// The stage of rank `rank`: (rank / stride) % size.
std::uint32_t stage_of_rank(const StagePowerPlan& plan, std::uint32_t rank);

/// The 1F1B pipeline's computation, in FLOPs of one GPU at full speed, with
/// each stage computing at `speeds[s]` (one per stage, each in (0, 1]).
double planned_pipeline_flops(const StagePowerPlan& plan, const std::vector<double>& speeds);

/// Each stage's state from `table` (a GPU type's, highest first, not
/// empty): within its limit, or by Perseus's rule (above).
std::vector<PowerState> stage_power_states(const StagePowerPlan& plan, const std::vector<PowerState>& table);

/// One rank's GPU: its type's table (empty: none) and the cluster's cap on it (kNever: none).
struct RankPower {
  const std::vector<PowerState>* table = nullptr;
  double cap_watts = kNever;
};
/// Per rank, the state its GPU runs in: its stage's state from its type's
/// table, or the cluster cap's state where that is lower; none where the
/// type has no table.
std::vector<std::optional<PowerState>> planned_rank_states(const StagePowerPlan& plan,
                                                           const std::vector<RankPower>& ranks);

/// The pipeline's time under `rank_states` over its time at full power
/// (>= 1): each stage computing at its slowest rank's speed.
double planned_stretch(const StagePowerPlan& plan, const std::vector<std::optional<PowerState>>& rank_states);

}  // namespace gcsim
