#include "sim/model/duration_oracle.hpp"

#include <algorithm>
#include <numeric>
#include <variant>

#include "sim/core/overloaded.hpp"
#include "sim/model/dag_schedule.hpp"
#include "sim/model/hierarchical_allreduce_cost.hpp"
#include "sim/model/input_pipeline.hpp"
#include "sim/model/parameter_server_cost.hpp"
#include "sim/model/phase_transfers.hpp"
#include "sim/model/placement_costs.hpp"
#include "sim/model/ring_allreduce_cost.hpp"

namespace gcsim {
namespace {

struct RingEdge {
  double latency, bandwidth;
};

// The slowest ring edge of a packed placement of `gpus` GPUs on nodes of
// `group` sharing one NIC, in one pod: the closed form, whose sums give the
// figures they always gave, bit for bit.
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

// Full racks and pods of the group's nodes, as a packed placement sees them.
PackedFabric packed_fabric(const NodeGroup& group, const FabricSpec& fabric, std::size_t nodes_per_rack,
                           double rack_uplink) {
  PackedFabric packed;
  packed.gpus_per_node = group.gpus_per_node;
  packed.nodes_per_rack = static_cast<std::uint32_t>(nodes_per_rack);
  packed.racks_per_pod = fabric.racks_per_pod;
  packed.port = FabricLayout::port_link(group);
  packed.nic = FabricLayout::nic_link(group);
  packed.nic_per_gpu = group.nic_per_gpu;
  packed.rail_optimized = fabric.rail_optimized;
  packed.pxn = fabric.pxn;
  // A leaf carries a NIC per node of its rack: on rails the node's NIC of its
  // rail, else the node's one NIC or all its GPUs' NICs.
  const bool rails = fabric.rail_optimized && group.nic_per_gpu;
  const double nics_per_node = group.nic_per_gpu && !rails ? group.gpus_per_node : 1;
  packed.leaf_uplink = {nics_per_node * rack_uplink, fabric.uplink_latency};
  const double leaves_per_rack = rails ? group.gpus_per_node : 1;
  packed.pod_uplink = {
      fabric.racks_per_pod * leaves_per_rack * packed.leaf_uplink.bandwidth / fabric.pod_oversubscription,
      fabric.pod_uplink_latency};
  return packed;
}

// The latencies of a packed placement's exchanges, alone on the cluster.
struct PackedLatencies {
  RingEdge ring;            // the slowest edge of the ring in GPU order
  double push = 0;          // the slowest push to a parameter server (a pull mirrors it)
  double inside_node = 0;   // a hierarchical allreduce's slowest transfer inside a node
  double across_nodes = 0;  // and across nodes
};

// Worked out route by route (sim/core/fabric_route.hpp), as placement_costs()
// does for a placement the engine runs: on a rail-optimized fabric a ring in
// GPU order crosses from the last rail of a node to the first of the next,
// and without PXN those edges of a rail group share its two rails' uplinks.
PackedLatencies routed_latencies(const JobLinks& links, const TrainingWork& training) {
  const JobLocality locality(links);
  std::vector<GpuId> ring(links.places.size());
  std::iota(ring.begin(), ring.end(), 0);
  PackedLatencies latencies;
  latencies.ring = {ring_latency(ring, locality, 1.0),
                    shared_bandwidth(links, ring_transfers(static_cast<std::uint32_t>(ring.size())))};
  if (training.parameter_servers > 0) {
    const auto pushes = parameter_server_pushes(static_cast<std::uint32_t>(ring.size()), training.parameter_servers);
    latencies.push = transfers_latency(ring, pushes, locality, 1.0);
  }
  if (training.hierarchical_allreduce) {
    const NodeRanks ranks = node_ranks(links);
    latencies.inside_node = transfers_latency(ring, intra_node_transfers(ranks), locality, 1.0);
    latencies.across_nodes = transfers_latency(ring, inter_node_transfers(ranks), locality, 1.0);
  }
  return latencies;
}

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
  // Exchanges costed link by link see the job packed: full nodes, then the rest.
  const bool closed_form = !best.group->nic_per_gpu && spec.fabric.racks_per_pod == 0;
  JobLinks packed;
  if (!closed_form || training.parameter_servers > 0 || training.hierarchical_allreduce)
    packed = packed_job_links(job.gpus, packed_fabric(*best.group, spec.fabric, nodes_per_rack, rack_uplink));
  PackedLatencies latencies;
  if (closed_form) {
    // One NIC per node in one pod: packed, the slowest flow of every exchange
    // crosses what the slowest ring edge crosses, and a transfer inside a node
    // costs the intra-node latency.
    const std::size_t gpus_per_rack = nodes_per_rack * best.group->gpus_per_node;
    latencies.ring = packed_ring_edge(*best.group, spec.fabric, job.gpus, gpus_per_rack, rack_uplink);
    latencies.push = latencies.across_nodes = latencies.ring.latency;
    latencies.inside_node = packed_ring_edge(*best.group, spec.fabric, 1, gpus_per_rack, rack_uplink).latency;
  } else {
    latencies = routed_latencies(packed, training);
  }
  const RingEdge edge = latencies.ring;
  // A fractional job computes at its share of each GPU (JobSpec::gpu_share).
  const double compute_flops = best.flops * job.gpu_share;
  // An input pipeline slower than the GPUs stretches every computation to its decoding.
  const double decode_wait =
      std::max(0.0, packed_decode_seconds(job, *best.group) - training.flops_per_iteration / compute_flops);
  if (training.parameter_servers > 0) {
    // A push and a pull per iteration; packed, the slowest flow crosses what
    // the slowest ring edge crosses (sim/model/parameter_server_cost.hpp).
    const double seconds_per_byte = parameter_server_phase_seconds_per_byte(packed, training.parameter_servers);
    // Each fusion buffer's push and pull pay their latency.
    const auto buffers = static_cast<double>(training.fusion_buffers());
    const double phase = seconds_per_byte > 0 && training.gradient_bytes > 0
                             ? buffers * latencies.push + training.gradient_bytes * seconds_per_byte
                             : 0;
    return static_cast<double>(training.iterations) *
           (training.flops_per_iteration / compute_flops + decode_wait + 2 * phase);
  }
  if (training.hierarchical_allreduce && job.gpus >= 2 && training.gradient_bytes > 0) {
    // sim/model/hierarchical_allreduce_cost.hpp
    const JobLinks& links = packed;
    const NodeRanks ranks = node_ranks(links);
    const double local = ranks.local_ranks, nodes = ranks.nodes(), buffers = training.fusion_buffers();
    const double inside = busiest_link_seconds_per_byte(links, intra_node_transfers(ranks));
    const double across = busiest_link_seconds_per_byte(links, inter_node_transfers(ranks));
    const double exchange =
        2 * (local - 1) * (buffers * latencies.inside_node + training.gradient_bytes / local * inside) +
        2 * (nodes - 1) * (buffers * latencies.across_nodes + training.gradient_bytes / (local * nodes) * across);
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
  const JobLinks links = packed_job_links(job.gpus, packed_fabric(group, spec.fabric, nodes_per_rack, rack_uplink));
  // Each transfer's latency is its route's (sim/core/fabric_route.hpp).
  const JobLocality locality(links);
  std::vector<GpuId> ranks(job.gpus);
  std::iota(ranks.begin(), ranks.end(), 0);
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
      const double latency = transfers_latency(ranks, transfers.back(), locality, 1.0);
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
