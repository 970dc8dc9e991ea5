// placement_costs.hpp: what a job's placement costs it, as pure functions of
// the job, its GPUs (in ring order), the layout and the locality.
//
// The engine asks these when a job starts on its GPUs: the latency and the
// bandwidth of one message of its gradient exchange (its ring's slowest edge
// and the narrowest share of a link its edges cross at once, or its
// parameter servers' slowest flow and busiest link; scaled by the
// network model's factors), each GPU's compute scale under a per-type
// throughput table, the slowest GPU in effect, and the speed a measured run
// time refers to.
//
//   const PlacementCosts costs = placement_costs(job, gpus, layout, locality);
//   JobActivityPlan plan(job, fidelity, costs.measured_type_flops, costs.exchange_latency);
//   Time work = plan.uncontended_work_seconds(costs.slowest_gpu_flops, costs.exchange_bandwidth);
#pragma once

#include <optional>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/stage_power_plan.hpp"
#include "sim/model/hierarchical_allreduce_cost.hpp"
#include "sim/model/job_activity_plan.hpp"

namespace gcsim {

/// The latency of a ring step: the largest path latency between ring
/// neighbours (GPU i to GPU i+1, the last to the first) times
/// `latency_factor`; 0 for a ring of one GPU.
double ring_latency(const std::vector<GpuId>& ring, const Locality& locality, double latency_factor);

/// The bandwidth of a ring step as the locality shows it: the smallest
/// bottleneck bandwidth between ring neighbours times `bandwidth_factor`;
/// kNever (unbounded) for a ring of one GPU. It is what each edge gets when
/// no two edges cross one link in one direction (a ring that visits each
/// node once on a fabric without rails). On a rail-optimized fabric, where a
/// ring in GPU order shares the uplinks between two rails, placement_costs()
/// takes the least of it and the edges' share of the links they cross at
/// once (shared_bandwidth in job_links.hpp).
double ring_bandwidth(const std::vector<GpuId>& ring, const Locality& locality, double bandwidth_factor);

/// ring_latency() and ring_bandwidth() without their factors, in one pass
/// over the ring's edges.
struct RingFigures {
  double latency = 0;
  double bandwidth = kNever;
};
RingFigures ring_figures(const std::vector<GpuId>& ring, const Locality& locality);

/// The largest path latency of `transfers` between the job's `gpus` times
/// `latency_factor`; 0 for none (a local copy has none).
double transfers_latency(const std::vector<GpuId>& gpus, const std::vector<Transfer>& transfers,
                         const Locality& locality, double latency_factor);

/// The FLOP/s of the slowest GPU type among `gpus` (kNever for none).
double slowest_gpu_flops(const ClusterLayout& layout, const std::vector<GpuId>& gpus);

/// `plan` on `gpus` (the job's ranks): each runs its stage's computations
/// in their states from its type's table, or its cap's where lower (the
/// cluster's, or `run_limit_watts` a policy started the run with), and
/// draws its type's busy watts in the bubble, or its cap's state's
/// (sim/core/stage_power_plan.hpp); a type without a table runs at full speed.
PlannedPipeline planned_pipeline_on(const StagePowerPlan& plan, const ClusterLayout& layout,
                                    const std::vector<GpuId>& gpus, double run_limit_watts = 0);

/// Per GPU: the FLOPs one iteration takes on its type over the job's
/// flops_per_iteration (TrainingWork::flops_on), 1 where no throughput table
/// says otherwise and for work other than training; over the speed of its
/// power state where the GPU is capped (sim/core/gpu_power_states.hpp),
/// by the cluster or by the run's limit: the job's own, or
/// `run_limit_watts` its policy started the run with where lower.
/// A PhasedWork with a power plan: times the plan's stretch on every GPU
/// (the pipeline's time under its states over the time at full power),
/// the job's stages running in the plan's states instead; `planned`, where
/// given, is that plan on these GPUs (planned_pipeline_on()), else it is
/// worked out here.
std::vector<double> compute_scales(const JobSpec& job, const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                                   double run_limit_watts = 0, const PlannedPipeline* planned = nullptr);

/// The slowest GPU in effect: the least of each GPU's FLOP/s times the job's
/// share of it, over its compute scale.
double slowest_effective_flops(const JobSpec& job, const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                               const std::vector<double>& scales);

/// The speed a measured run time refers to.
struct MeasuredSpeed {
  /// FLOP/s of the job's share of a GPU of the measured type (0 when the
  /// cluster has no such type); without rescaling, of the slowest GPU it got,
  /// so that the run lasts the recorded seconds.
  double flops = 0;
  /// The run time is rescaled: some GPU it got is of another type.
  bool rescaled = false;
};
MeasuredSpeed measured_speed(const MeasuredWork& work, double gpu_share, const ClusterLayout& layout,
                             const std::vector<GpuId>& gpus);

/// Every cost above for one job on its GPUs, the factors taken from the
/// layout's network model.
/// An exchange of a PhasedWork phase on a placement: the transfers of one
/// message, and the bytes each carries per iteration (every message's).
struct ExchangeFlows {
  std::vector<Transfer> transfers;
  double bytes = 0;
  // Per transfer, the transfers its flow stands for (solo_transfers.hpp):
  // 1 each, the group's size for a solo group's first, 0 for its others.
  std::vector<std::uint32_t> stands_for;
};

struct PlacementCosts {
  double measured_type_flops = 0;  // MeasuredSpeed::flops; 0 for other work
  bool rescaled = false;           // MeasuredSpeed::rescaled
  // One message of the gradient exchange: a ring's slowest edge; for
  // parameter servers, the slowest worker-server flow's latency and a flow's
  // bytes over the time the phase's busiest link takes (kNever: no transfer).
  double exchange_latency = 0;
  double exchange_bandwidth = kNever;
  // A hierarchical allreduce: the values above are a transfer's inside a
  // node, this the shape and a transfer across nodes.
  Hierarchy hierarchy;
  // The transfers of the exchange's steps, between the job's GPUs (indices
  // in ring order): the pushes of parameter servers (a pull is each
  // reversed), or a hierarchical allreduce's step inside the nodes and its
  // step across them. Empty for a ring, whose transfers go to the next GPU.
  std::vector<Transfer> pushes, intra_node_step, inter_node_step;
  // A PhasedWork: per phase, per exchange, its flows (exchange_transfers()),
  // and what each phase costs alone.
  std::vector<std::vector<ExchangeFlows>> phase_flows;
  std::vector<PhaseCost> phases;
  std::vector<double> compute_scale;  // per GPU, in ring order
  // A PhasedWork's power plan on these GPUs, worked out once for the run:
  // its stretch is in compute_scale, its ranks' watts go to the energy meter.
  std::optional<PlannedPipeline> power_plan;
  double slowest_gpu_flops = kNever;  // slowest_effective_flops()
};
/// `cpu_hosts_send`: whether the nodes' CPU hosts are on the network (a job
/// decodes input or runs CPU workers on them), sending through each node's
/// first NIC, which is then no GPU's alone (solo_transfers.hpp).
PlacementCosts placement_costs(const JobSpec& job, const std::vector<GpuId>& gpus, const ClusterLayout& layout,
                               const Locality& locality, double run_limit_watts = 0, bool cpu_hosts_send = true);

}  // namespace gcsim
