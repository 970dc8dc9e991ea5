// stage_power_plan.hpp: the power state each computation of a pipeline runs
// in under its StagePowerPlan (sim/core/phased_work.hpp), how much that
// stretches the pipeline and what each of its GPUs draws: what the compute
// times (sim/model/placement_costs.hpp) and the energy accounting
// (sim/report/energy_meter.hpp) read.
//
// A computation is one op of the 1F1B schedule (one_f_one_b.hpp): the
// forward or the backward of one micro-batch on one stage, 2 x p x m of
// them. Under per-stage limits every computation of stage s runs in the
// highest state of its GPU type's table within the stage's limit
// (state_within(), gpu_power_states.hpp). Under Perseus's rule (Chung et
// al., "Reducing Energy Bloat in Large Model Training", SOSP'24) each
// computation gets its own state: the computations off the pipeline's
// critical path (the light stages' steady-state ops, which wait for the
// heavy stage anyway) slow down into their float, so that the iteration
// keeps its time and draws less. gcsim's rule is a greedy: from every
// computation at full power (the table's highest state), repeatedly lower
// by one state the computation whose lowering saves the most energy (ties:
// the lowest pipeline_op() number) while the DAG's longest path stays
// within (1 + slack) x its time at full power, until no lowering fits and
// saves. Whether a lowering fits comes from the op's float: lengthening an
// op by d makes the longest path through it T - float + d, every other path
// unchanged. Cost: at most ops x (states - 1) lowerings, each one forward
// and one backward pass over the DAG and a scan of the ops, all O(ops):
// O(ops^2 x states), 2,048 ops of p = 16 and m = 64 in well under a second
// (benchmarks/bench_stage_power_plan.cpp).
//
// Energy: a GPU draws its computation's state's watts while it computes
// and its busy watts while it waits in the pipeline's bubble (the rule of a
// job without a plan, so that plan and no plan compare alike), or under a
// stage limit or a cluster cap the cap's state's watts (a capped GPU never
// draws more): per iteration, on a GPU of stage s, sum over its ops of
// (watts x the op's time at its state's speed) + that bubble draw x (the
// pipeline's time - the sum of its ops' times). The greedy counts that over one GPU per stage (every stage
// has as many), so lengthening the critical path costs every stage's busy
// watts for the added time. Perseus itself finds the whole time-energy
// frontier by a graph cut and slows the other pipelines to a straggler's
// pace; neither is modelled.
//
// A GPU the cluster caps lower than a computation's state runs it in the
// cap's state; each op of a stage takes its slowest GPU's time. A GPU type
// without a table has no state to run in: its GPUs run at full speed and
// draw their busy watts.
//
//   const std::vector<PowerState> table = bundled_power_states("H100");
//   const std::vector<PowerState> ops = computation_power_states(plan, table, 700);
//   const PlannedPipeline planned = planned_pipeline(plan, std::vector<RankPower>(8, {&table, kNever, 700}));
//   // planned.stretch, planned.rank_watts[r], planned.stages[s].ops_per_state
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core/cluster_spec.hpp"
#include "sim/core/phased_work.hpp"

namespace gcsim {

/// The stage of rank `rank`: (rank / stride) % size.
std::uint32_t stage_of_rank(const StagePowerPlan& plan, std::uint32_t rank);

/// Each computation's state from `table` (a GPU type's, highest first, not
/// empty), numbered by pipeline_op() (one_f_one_b.hpp): within its stage's
/// limit, or by Perseus's rule (above) for GPUs that draw `busy_watts`
/// waiting in the bubble.
std::vector<PowerState> computation_power_states(const StagePowerPlan& plan, const std::vector<PowerState>& table,
                                                 double busy_watts);

/// One rank's GPU: its type's table (empty: none), the cluster's cap on it
/// (kNever: none) and its busy watts (computing under no cap, and in the bubble
/// unless capped).
struct RankPower {
  const std::vector<PowerState>* table = nullptr;
  double cap_watts = kNever;
  double busy_watts = 0;
};

/// A stage as its first rank runs it.
struct PlannedStage {
  PowerState highest;  // the highest state its computations run in (under a limit: the stage's state)
  std::vector<std::pair<PowerState, std::uint32_t>> ops_per_state;  // each state it computes in, highest first
  double mean_watts = 0;                                            // its draw over the pipeline's time
};

/// A plan resolved on a job's ranks.
struct PlannedPipeline {
  double stretch = 1;                // the pipeline's time over its time at full power (>= 1)
  std::vector<double> rank_watts;    // per rank: its draw over the pipeline's time, the bubble included
  std::vector<PlannedStage> stages;  // per stage
};

/// The plan on `ranks` (the job's, stage by stage_of_rank()): each rank
/// runs its stage's computations in their states from its type's table, or
/// its cap's state where lower; the pipeline runs each op at its stage's
/// slowest rank's pace.
PlannedPipeline planned_pipeline(const StagePowerPlan& plan, const std::vector<RankPower>& ranks);

}  // namespace gcsim
