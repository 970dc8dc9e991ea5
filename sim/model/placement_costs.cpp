#include "sim/model/placement_costs.hpp"

#include <algorithm>
#include <optional>
#include <variant>

#include "sim/core/gpu_power_states.hpp"
#include "sim/core/overloaded.hpp"
#include "sim/core/stage_power_plan.hpp"
#include "sim/model/parameter_server_cost.hpp"
#include "sim/model/phase_transfers.hpp"
#include "sim/model/solo_transfers.hpp"

namespace gcsim {

RingFigures ring_figures(const std::vector<GpuId>& ring, const Locality& locality) {
  RingFigures figures;
  for (std::size_t i = 0; ring.size() > 1 && i < ring.size(); ++i) {
    const Locality::PathFigures edge = locality.path_figures(ring[i], ring[(i + 1) % ring.size()]);
    figures.latency = std::max(figures.latency, edge.latency);
    figures.bandwidth = std::min(figures.bandwidth, edge.bottleneck_bandwidth);
  }
  return figures;
}

double ring_latency(const std::vector<GpuId>& ring, const Locality& locality, double latency_factor) {
  return ring_figures(ring, locality).latency * latency_factor;
}

double ring_bandwidth(const std::vector<GpuId>& ring, const Locality& locality, double bandwidth_factor) {
  return ring_figures(ring, locality).bandwidth * bandwidth_factor;
}

double transfers_latency(const std::vector<GpuId>& gpus, const std::vector<Transfer>& transfers,
                         const Locality& locality, double latency_factor) {
  double latency = 0;
  for (const Transfer& t : transfers)
    if (t.from != t.to) latency = std::max(latency, locality.path_latency(gpus[t.from], gpus[t.to]));
  return latency * latency_factor;
}

double slowest_gpu_flops(const ClusterLayout& layout, const std::vector<GpuId>& gpus) {
  double slowest = kNever;
  for (GpuId g : gpus) slowest = std::min(slowest, layout.gpu_type_of(g).flops);
  return slowest;
}

PlannedPipeline planned_pipeline_on(const StagePowerPlan& plan, const ClusterLayout& layout,
                                    const std::vector<GpuId>& gpus, double run_limit_watts) {
  std::vector<std::vector<PowerState>> tables;  // by GPU type index
  std::vector<double> busy;                     // by GPU type index
  for (const GpuType& type : layout.spec().gpu_types) {
    tables.push_back(power_states_of(type));
    // Without a power of its own or bundled (no energy is accounted), its highest state's.
    const std::optional<GpuPower> power = power_of(type);
    busy.push_back(power ? power->busy_watts : tables.back().empty() ? 0.0 : tables.back().front().watts);
  }
  // A run started under a limit (a policy's, power-budget's over_budget=cap) caps every GPU of it.
  const double run_cap = run_limit_watts > 0 ? run_limit_watts : kNever;
  std::vector<RankPower> ranks;
  ranks.reserve(gpus.size());
  for (GpuId g : gpus) {
    const std::uint32_t type = layout.gpu_type_index(g);
    ranks.push_back({&tables[type], std::min(gpu_power_cap(layout, g), run_cap), busy[type]});
  }
  return planned_pipeline(plan, ranks);
}

std::vector<double> compute_scales(const JobSpec& job, const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                                   double run_limit_watts, const PlannedPipeline* planned) {
  std::vector<double> scales(gpus.size(), 1.0);
  if (const auto* phased = std::get_if<PhasedWork>(&job.work); phased && phased->power_plan) {
    // Every GPU computes for the pipeline's time under the plan (the bubble counts as computation).
    const double stretch =
        planned ? planned->stretch : planned_pipeline_on(*phased->power_plan, layout, gpus, run_limit_watts).stretch;
    for (std::size_t i = 0; i < gpus.size(); ++i)
      scales[i] = compute_scale_on(job, layout.gpu_type_of(gpus[i]).name) * stretch;
    return scales;
  }
  const double limit = run_power_limit(job.power_limit_watts, run_limit_watts);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    scales[i] = compute_scale_on(job, layout.gpu_type_of(gpus[i]).name);
    // A capped GPU computes at its power state's speed.
    if (const std::optional<PowerState> state = capped_state(layout, gpus[i], limit)) scales[i] /= state->speed;
  }
  return scales;
}

double slowest_effective_flops(const JobSpec& job, const ClusterLayout& layout, const std::vector<GpuId>& gpus,
                               const std::vector<double>& scales) {
  double slowest = kNever;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    slowest = std::min(slowest, layout.gpu_type_of(gpus[i]).flops * job.gpu_share / scales[i]);
  return slowest;
}

MeasuredSpeed measured_speed(const MeasuredWork& work, double gpu_share, const ClusterLayout& layout,
                             const std::vector<GpuId>& gpus) {
  MeasuredSpeed speed;
  if (!work.rescale) {
    speed.flops = slowest_gpu_flops(layout, gpus) * gpu_share;  // the recorded seconds on the GPUs it got
    return speed;
  }
  const int type = layout.find_gpu_type(work.gpu_type);
  speed.flops = type >= 0 ? layout.spec().gpu_types[static_cast<std::size_t>(type)].flops * gpu_share : 0;
  speed.rescaled =
      std::any_of(gpus.begin(), gpus.end(), [&](GpuId g) { return layout.gpu_type_of(g).name != work.gpu_type; });
  return speed;
}

// A PhasedWork's transfers on these GPUs, and each phase's costs alone:
// its exchanges' flows start together and share the links.
void phase_costs(const PhasedWork& phased, const std::vector<GpuId>& gpus, double gpu_share,
                 const ClusterLayout& layout, const Locality& locality, bool cpu_hosts_send, PlacementCosts& costs) {
  const NetworkModelSpec& network = layout.spec().network;
  const JobLinks links = job_links(layout, gpus);
  const auto ranks = static_cast<std::uint32_t>(gpus.size());
  for (const WorkPhase& phase : phased.phases) {
    std::vector<ExchangeFlows>& flows = costs.phase_flows.emplace_back();
    flows.reserve(phase.exchanges.size());  // `sets` points into it
    PhaseCost cost;
    std::vector<const std::vector<Transfer>*> sets;
    std::vector<double> bytes;
    for (const PhaseExchange& exchange : phase.exchanges) {
      ExchangeFlows& exchange_flows = flows.emplace_back();
      exchange_flows.transfers = exchange_transfers(exchange, ranks);
      exchange_flows.bytes = exchange.bytes * static_cast<double>(exchange.messages);
      if (exchange_flows.transfers.empty() || !(exchange_flows.bytes > 0)) continue;
      const double latency = transfers_latency(gpus, exchange_flows.transfers, locality, network.latency_factor);
      cost.paid_latency = std::max(cost.paid_latency, latency);
      cost.message_latencies = std::max(
          cost.message_latencies, static_cast<double>(exchange.messages) * latencies_per_message(exchange) * latency);
      sets.push_back(&exchange_flows.transfers);
      bytes.push_back(exchange_flows.bytes);
    }
    if (!sets.empty()) cost.busiest_seconds = busiest_link_seconds(links, sets, bytes) / network.bandwidth_factor;
    std::vector<std::vector<std::uint32_t>> stands_for = solo_stand_ins(layout, gpus, gpu_share, flows, cpu_hosts_send);
    for (std::size_t e = 0; e < flows.size(); ++e) flows[e].stands_for = std::move(stands_for[e]);
    costs.phases.push_back(cost);
  }
}

PlacementCosts placement_costs(const JobSpec& job, const std::vector<GpuId>& gpus, const ClusterLayout& layout,
                               const Locality& locality, double run_limit_watts, bool cpu_hosts_send) {
  PlacementCosts costs;
  // A training job exchanges its gradients through parameter servers, a
  // hierarchical allreduce or a ring; the other forms exchange nothing (the
  // costs of their ring go unused). A measured run's speed on these GPUs.
  std::uint32_t servers = 0;
  bool hierarchical = false;
  std::visit(
      Overloaded{[&](const TrainingWork& training) {
                   servers = training.parameter_servers;
                   hierarchical = training.hierarchical_allreduce;
                 },
                 [&](const MeasuredWork& measured) {
                   const MeasuredSpeed speed = measured_speed(measured, job.gpu_share, layout, gpus);
                   costs.measured_type_flops = speed.flops;
                   costs.rescaled = speed.rescaled;
                 },
                 [&](const PhasedWork& phased) {
                   phase_costs(phased, gpus, job.gpu_share, layout, locality, cpu_hosts_send, costs);
                 },
                 [](const DagWork&) {}, [](const NotebookWork&) {}, [](const ServingWork&) {}, [](const CpuWork&) {}},
      job.work);
  const NetworkModelSpec& network = layout.spec().network;
  if (servers > 0 || hierarchical) {
    // Each step's transfers start together and share the links: one of them
    // gets its busiest link's bandwidth over the transfers crossing it.
    const JobLinks links = job_links(layout, gpus);
    auto bandwidth = [&](const std::vector<Transfer>& step) {
      const double seconds_per_byte = busiest_link_seconds_per_byte(links, step);
      return seconds_per_byte > 0 ? network.bandwidth_factor / seconds_per_byte : kNever;
    };
    auto latency = [&](const std::vector<Transfer>& step) {
      return transfers_latency(gpus, step, locality, network.latency_factor);
    };
    if (servers > 0) {  // a pull is the push mirrored: the same latency and bandwidth
      costs.pushes = parameter_server_pushes(static_cast<std::uint32_t>(gpus.size()), servers);
      costs.exchange_latency = latency(costs.pushes);
      costs.exchange_bandwidth = bandwidth(costs.pushes);
    } else {
      const NodeRanks ranks = node_ranks(links);
      costs.intra_node_step = intra_node_transfers(ranks);
      costs.inter_node_step = inter_node_transfers(ranks);
      costs.exchange_latency = latency(costs.intra_node_step);
      costs.exchange_bandwidth = bandwidth(costs.intra_node_step);
      costs.hierarchy = {ranks.nodes(), ranks.local_ranks, latency(costs.inter_node_step),
                         bandwidth(costs.inter_node_step)};
    }
  } else {
    // The locality's narrowest edge. On a rail-optimized fabric a ring's own
    // edges, all sending at once, share the uplinks between two rails: each
    // gets its share. (Elsewhere a ring visiting each node once crosses each
    // link once a direction; one that comes back to a node, as piecemeal
    // growth may make it, is still costed by its narrowest edge there.)
    const RingFigures ring = ring_figures(gpus, locality);
    costs.exchange_latency = ring.latency * network.latency_factor;
    costs.exchange_bandwidth = ring.bandwidth * network.bandwidth_factor;
    if (layout.fabric().rail_optimized()) {
      const double shared =
          shared_bandwidth(job_links(layout, gpus), ring_transfers(static_cast<std::uint32_t>(gpus.size())));
      costs.exchange_bandwidth = std::min(costs.exchange_bandwidth, shared * network.bandwidth_factor);
    }
  }
  if (const auto* phased = std::get_if<PhasedWork>(&job.work); phased && phased->power_plan)
    costs.power_plan = planned_pipeline_on(*phased->power_plan, layout, gpus, run_limit_watts);
  costs.compute_scale =
      compute_scales(job, layout, gpus, run_limit_watts, costs.power_plan ? &*costs.power_plan : nullptr);
  costs.slowest_gpu_flops = slowest_effective_flops(job, layout, gpus, costs.compute_scale);
  return costs;
}

}  // namespace gcsim
