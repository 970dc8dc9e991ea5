#include "policies/register_builtin.hpp"

#include "policies/fifo_backfill/fifo_backfill_policy.hpp"
#include "policies/capacity/capacity_policy.hpp"
#include "policies/consolidate/consolidate_placement.hpp"
#include "policies/crux/crux_policy.hpp"
#include "policies/drf/drf_policy.hpp"
#include "policies/fifo/fifo_policy.hpp"
#include "policies/gang/gang_policy.hpp"
#include "policies/incremental/incremental_policy.hpp"
#include "policies/piecemeal/piecemeal_policy.hpp"
#include "policies/placement/network_placement.hpp"
#include "policies/placement/pack_placement.hpp"
#include "policies/placement/spread_placement.hpp"
#include "policies/placement/topology_placement.hpp"
#include "policies/power_budget/power_budget_policy.hpp"
#include "policies/srtf/srtf_policy.hpp"
#include "policies/tiresias/tiresias_policy.hpp"

namespace gcsim {

void register_builtin(PolicyRegistry& registry) {
  registry.add_placement("pack", "fewest nodes, then fewest racks; best fit on a single node",
                         [](const PolicyOptions&) { return std::make_unique<PackPlacement>(); });
  registry.add_placement("consolidate",
                         "energy-aware: the nodes in use first (best fit), then idle nodes lowest index first, so the "
                         "others stay idle and sleep",
                         [](const PolicyOptions&) { return std::make_unique<ConsolidatePlacement>(); });
  registry.add_placement("spread", "one GPU per node, round-robin over the nodes with the most free GPUs",
                         [](const PolicyOptions&) { return std::make_unique<SpreadPlacement>(); });
  registry.add_placement("topology", "highest ring bottleneck bandwidth, then fewest nodes",
                         [](const PolicyOptions&) { return std::make_unique<TopologyPlacement>(); });
  registry.add_placement("network",
                         "a large model's TP groups inside nodes, its heaviest groups (DP rings) under one leaf each; "
                         "other jobs as topology",
                         [](const PolicyOptions&) { return std::make_unique<NetworkPlacement>(); });

  registry.add_policy("fifo",
                      "strict submission order, head-of-line blocking; shares GPUs among fractional jobs; "
                      "guaranteed jobs preempt spot jobs (preempt_spot=false: never; order=priority)",
                      "pack", FifoPolicy::create);
  registry.add_policy("fifo-backfill",
                      "FIFO with EASY backfilling: later jobs start if they do not delay the head; shares GPUs among "
                      "fractional jobs",
                      "pack", [](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                        return std::make_unique<FifoBackfillPolicy>(std::move(placement));
                      });
  registry.add_policy("srtf", "shortest remaining time first on oracle durations, preemptive (preemptive=false: never)",
                      "pack", SrtfPolicy::create);
  registry.add_policy("gang",
                      "all-or-nothing: a job gets its whole GPU set in one transaction or nothing; shares GPUs among "
                      "fractional jobs",
                      "pack", GangPolicy::create);
  registry.add_policy("incremental",
                      "hyperparameter studies start on one trial and grow to their maximum as GPUs free up; "
                      "they shrink to their minimum for higher-priority jobs",
                      "pack", [](const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
                        return std::make_unique<IncrementalPolicy>(std::move(placement));
                      });
  registry.add_policy(
      "piecemeal", "non-gang baseline: GPUs granted one at a time and held; can deadlock", "",
      [](const PolicyOptions& options, std::unique_ptr<PlacementPolicy>) { return PiecemealPolicy::create(options); });
  registry.add_policy("tiresias",
                      "discretized 2D-LAS: queues by attained GPU-seconds, higher queues preempt lower ones "
                      "(thresholds=3600, promote_knob=8)",
                      "pack", TiresiasPolicy::create);
  registry.add_policy("drf",
                      "dominant resource fairness across users over GPUs, CPU cores and memory; non-preemptive; "
                      "shares GPUs among fractional jobs",
                      "pack", DrfPolicy::create);
  registry.add_policy("crux",
                      "Crux (SIGCOMM'24): waiting jobs started by GPU intensity (FLOPs over their busiest link's "
                      "time), each placed away from the uplinks others load (order=intensity, patience=3600)",
                      "network", CruxPolicy::create);
  registry.add_policy("capacity",
                      "YARN CapacityScheduler: hierarchical queues with guaranteed and maximum capacity, user "
                      "limits, preemption, reservations (config=FILE of YARN properties)",
                      "pack", CapacityPolicy::create);

  registry.add_wrapper("power-budget",
                       "starts the inner policy's jobs, in its order, only while the cluster's projected IT power "
                       "(held GPUs computing) stays within budget_kw",
                       PowerBudgetPolicy::create);
}

}  // namespace gcsim
