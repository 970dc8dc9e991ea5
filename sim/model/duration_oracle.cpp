#include "sim/model/duration_oracle.hpp"

#include <algorithm>
#include <variant>

#include "sim/core/overloaded.hpp"
#include "sim/model/dag_schedule.hpp"
#include "sim/model/hierarchical_allreduce_cost.hpp"
#include "sim/model/input_pipeline.hpp"
#include "sim/model/parameter_server_cost.hpp"
#include "sim/model/phase_transfers.hpp"
#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {
namespace {

struct RingEdge {
  double latency, bandwidth;
};

// The slowest ring edge of a packed placement of `gpus` GPUs on nodes of `group`.
RingEdge packed_ring_edge(const NodeGroup& group, const FabricSpec& fabric, std::uint32_t gpus,
                          std::size_t gpus_per_rack, double rack_uplink) {
  if (gpus <= group.gpus_per_node) return {group.intra.latency, group.intra.bandwidth};
  RingEdge edge{group.intra.latency + 2 * group.nic.latency, std::min(group.intra.bandwidth, group.nic.bandwidth)};
  if (gpus > gpus_per_rack) {
    edge.latency += 2 * fabric.uplink_latency;
    edge.bandwidth = std::min(edge.bandwidth, rack_uplink);
  }
  return edge;
}

// The fastest node group whose GPUs have enough memory for the job, and
// their FLOP/s; none (a null group) when no group's do. A training job
// whose model runs at its own speed per GPU type
// (flops_per_iteration_by_gpu_type) sees each type at its effective FLOP/s:
// iterations go as fast as there.
struct FastestGroup {
  const NodeGroup* group = nullptr;
  double flops = 0;
};

FastestGroup fastest_group(const JobSpec& job, const ClusterLayout& layout, const TrainingWork* per_type) {
  const ClusterSpec& spec = layout.spec();
  FastestGroup best;
  for (const NodeGroup& group : spec.node_groups) {
    if (group.gpus_per_node == 0) continue;  // a CPU node group
    const GpuType& type = spec.gpu_types[static_cast<std::size_t>(layout.find_gpu_type(group.gpu_type))];
    double flops = type.flops;
    if (per_type && per_type->flops_per_iteration > 0)
      flops *= per_type->flops_per_iteration / per_type->flops_on(type.name);
    if (type.memory_bytes < job.gpu_memory_bytes || flops <= best.flops) continue;
    best = {&group, flops};
  }
  return best;
}

Time measured_duration(const MeasuredWork& measured, const ClusterLayout& layout, double best_flops) {
  if (!measured.rescale) return measured.seconds;  // the recorded time on any type
  const int type = layout.find_gpu_type(measured.gpu_type);
  const double measured_flops = type >= 0 ? layout.spec().gpu_types[static_cast<std::size_t>(type)].flops : best_flops;
  // Measured at the job's share of a GPU, run at the same share: the share cancels.
  return measured.seconds * measured_flops / best_flops;
}

Time training_duration(const JobSpec& job, const TrainingWork& training, const ClusterLayout& layout,
                       const FastestGroup& best) {
  const ClusterSpec& spec = layout.spec();
  const std::size_t nodes_per_rack = spec.fabric.nodes_per_rack == 0 ? 1 : spec.fabric.nodes_per_rack;
  const double rack_uplink =
      static_cast<double>(nodes_per_rack) * best.group->nic.bandwidth / spec.fabric.oversubscription;
  const RingEdge edge =
      packed_ring_edge(*best.group, spec.fabric, job.gpus, nodes_per_rack * best.group->gpus_per_node, rack_uplink);
  // A fractional job computes at its share of each GPU (JobSpec::gpu_share).
  const double compute_flops = best.flops * job.gpu_share;
  // An input pipeline slower than the GPUs stretches every computation to its decoding.
  const double decode_wait =
      std::max(0.0, packed_decode_seconds(job, *best.group) - training.flops_per_iteration / compute_flops);
  // Exchanges costed link by link see the job packed: full nodes, then the rest.
  auto packed_links = [&] {
    return packed_job_links(job.gpus, best.group->gpus_per_node, static_cast<std::uint32_t>(nodes_per_rack),
                            best.group->intra.bandwidth, best.group->nic.bandwidth, rack_uplink);
  };
  if (training.parameter_servers > 0) {
    // A push and a pull per iteration; packed, the slowest flow crosses what
    // the slowest ring edge crosses (sim/model/parameter_server_cost.hpp).
    const double seconds_per_byte = parameter_server_phase_seconds_per_byte(packed_links(), training.parameter_servers);
    // Each fusion buffer's push and pull pay their latency.
    const auto buffers = static_cast<double>(training.fusion_buffers());
    const double phase = seconds_per_byte > 0 && training.gradient_bytes > 0
                             ? buffers * edge.latency + training.gradient_bytes * seconds_per_byte
                             : 0;
    return static_cast<double>(training.iterations) *
           (training.flops_per_iteration / compute_flops + decode_wait + 2 * phase);
  }
  if (training.hierarchical_allreduce && job.gpus >= 2 && training.gradient_bytes > 0) {
    // sim/model/hierarchical_allreduce_cost.hpp
    const JobLinks links = packed_links();
    const NodeRanks ranks = node_ranks(links);
    const double local = ranks.local_ranks, nodes = ranks.nodes(), buffers = training.fusion_buffers();
    const double inside = busiest_link_seconds_per_byte(links, intra_node_transfers(ranks));
    const double across = busiest_link_seconds_per_byte(links, inter_node_transfers(ranks));
    const RingEdge node_edge =
        packed_ring_edge(*best.group, spec.fabric, 1, nodes_per_rack * best.group->gpus_per_node, rack_uplink);
    const double exchange =
        2 * (local - 1) * (buffers * node_edge.latency + training.gradient_bytes / local * inside) +
        2 * (nodes - 1) * (buffers * edge.latency + training.gradient_bytes / (local * nodes) * across);
    return static_cast<double>(training.iterations) *
           (training.flops_per_iteration / compute_flops + decode_wait + exchange);
  }
  // Each fusion buffer's ring steps pay their latency; the bytes are the gradients'.
  const double extra_latencies = static_cast<double>(training.fusion_buffers() - 1) *
                                 static_cast<double>(ring_step_count(job.gpus)) * edge.latency;
  return static_cast<double>(training.iterations) *
         (training_iteration_seconds(training.flops_per_iteration, compute_flops, job.gpus, training.gradient_bytes,
                                     edge.latency, edge.bandwidth) +
          decode_wait + extra_latencies);
}

// A PhasedWork packed on the fastest group's nodes, full nodes first: each
// phase lasts its computation or its flows, the longer (the busiest link's
// bytes, after the largest latency of its transfers), then the latencies
// its merged messages did not pay (sim/model/job_activity_plan.hpp).
Time phased_duration(const JobSpec& job, const PhasedWork& work, const ClusterLayout& layout,
                     const FastestGroup& best) {
  const ClusterSpec& spec = layout.spec();
  const NodeGroup& group = *best.group;
  const std::uint32_t nodes_per_rack = spec.fabric.nodes_per_rack == 0 ? 1 : spec.fabric.nodes_per_rack;
  const double rack_uplink = static_cast<double>(nodes_per_rack) * group.nic.bandwidth / spec.fabric.oversubscription;
  const JobLinks links = packed_job_links(job.gpus, group.gpus_per_node, nodes_per_rack, group.intra.bandwidth,
                                          group.nic.bandwidth, rack_uplink);
  // A transfer's latency: inside a node, through the NICs, or also through two racks' uplinks.
  auto latency_of = [&](const Transfer& t) {
    const std::uint32_t from = links.node_of_gpu[t.from], to = links.node_of_gpu[t.to];
    if (from == to) return group.intra.latency;
    const double nics = group.intra.latency + 2 * group.nic.latency;
    return links.rack_of_node[from] == links.rack_of_node[to] ? nics : nics + 2 * spec.fabric.uplink_latency;
  };
  const double compute_flops = best.flops * job.gpu_share;
  Time iteration = 0;
  for (const WorkPhase& phase : work.phases) {
    std::vector<std::vector<Transfer>> transfers;
    transfers.reserve(phase.exchanges.size());  // `sets` points into it
    std::vector<const std::vector<Transfer>*> sets;
    std::vector<double> bytes;
    double paid = 0, messages_latency = 0;
    for (const PhaseExchange& exchange : phase.exchanges) {
      transfers.push_back(exchange_transfers(exchange, job.gpus));
      const double total = exchange.bytes * static_cast<double>(exchange.messages);
      if (transfers.back().empty() || !(total > 0)) continue;
      double latency = 0;
      for (const Transfer& t : transfers.back()) latency = std::max(latency, latency_of(t));
      paid = std::max(paid, latency);
      messages_latency = std::max(messages_latency, static_cast<double>(exchange.messages) * latency);
      sets.push_back(&transfers.back());
      bytes.push_back(total);
    }
    const double flows = sets.empty() ? 0 : paid + busiest_link_seconds(links, sets, bytes);
    iteration += std::max(phase.flops / compute_flops, flows) + (messages_latency - paid);
  }
  return static_cast<double>(work.iterations) * iteration;
}

}  // namespace

Time uncontended_duration(const JobSpec& job, const ClusterLayout& layout) {
  return std::visit(
      Overloaded{[&](const TrainingWork& training) -> Time {
                   const FastestGroup best = fastest_group(job, layout, &training);
                   return best.group ? training_duration(job, training, layout, best) : kNever;
                 },
                 [&](const MeasuredWork& measured) -> Time {
                   const FastestGroup best = fastest_group(job, layout, nullptr);
                   return best.group ? measured_duration(measured, layout, best.flops) : kNever;
                 },
                 [&](const DagWork& dag) -> Time {
                   // A DAG of CPU workers runs its list schedule on any nodes.
                   if (job.gpus == 0) return dag_list_schedule_seconds(dag, 1.0);  // CPU tasks have no FLOPs
                   const FastestGroup best = fastest_group(job, layout, nullptr);
                   return best.group ? dag_list_schedule_seconds(dag, best.flops) : kNever;
                 },
                 [&](const NotebookWork& notebook) -> Time {
                   // Its activity on any GPU with enough memory.
                   return fastest_group(job, layout, nullptr).group ? notebook.seconds() : kNever;
                 },
                 // A replica serves until its deployment ends or scales it away: at most the deployment's length.
                 [](const ServingWork& serving) -> Time { return serving.deployment->length; },
                 // A CPU job runs for its seconds on any node.
                 [](const CpuWork& cpu) -> Time { return cpu.seconds; },
                 [&](const PhasedWork& phased) -> Time {
                   const FastestGroup best = fastest_group(job, layout, nullptr);
                   return best.group ? phased_duration(job, phased, layout, best) : kNever;
                 }},
      job.work);
}

std::vector<Time> uncontended_durations(const std::vector<JobSpec>& jobs, const ClusterLayout& layout) {
  std::vector<Time> durations;
  durations.reserve(jobs.size());
  for (const JobSpec& job : jobs) durations.push_back(uncontended_duration(job, layout));
  return durations;
}

}  // namespace gcsim
