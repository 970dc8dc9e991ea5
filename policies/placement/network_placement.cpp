#include "policies/placement/network_placement.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "policies/kit/one_gpu_type.hpp"
#include "policies/kit/rank_traffic.hpp"
#include "policies/kit/usable_gpus.hpp"
#include "policies/placement/topology_placement.hpp"

namespace gcsim {

RankUnits rank_units(const PhasedWork& work, std::uint32_t ranks, std::uint32_t node_gpus_divisor) {
  RankUnits units;
  for (const WorkPhase& phase : work.phases)
    for (const PhaseExchange& exchange : phase.exchanges) {
      const RankGroups& g = exchange.groups;
      if (g.stride == 1 && g.size > units.unit && node_gpus_divisor % g.size == 0 && ranks % g.size == 0)
        units.unit = g.size;
    }
  // Bytes an iteration of each kind of group spanning units, by (stride, size): ties go to the smaller stride.
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> bytes;
  for (const WorkPhase& phase : work.phases)
    for (const PhaseExchange& exchange : phase.exchanges) {
      const RankGroups& g = exchange.groups;
      if (g.size < 2 || g.stride % units.unit != 0) continue;
      bytes[{g.stride, g.size}] += exchange.bytes * static_cast<double>(exchange.messages) *
                                   static_cast<double>(exchange_transfers(exchange, ranks).size());
    }
  for (const auto& [key, total] : bytes)
    if (total > units.heavy_bytes) {
      units.heavy_bytes = total;
      units.heavy = {key.second, key.first / units.unit};
    }
  return units;
}

namespace {

// The placement's own choice for phased work, whatever the GPU types it mixes.
std::optional<std::vector<GpuId>> choose(const JobSpec& job, const PhasedWork& work, const ClusterView& cluster,
                                         const std::vector<bool>& taken) {
  const ClusterLayout& layout = cluster.layout();
  std::uint32_t divisor = 0;
  for (NodeId n = 0; n < layout.node_count(); ++n)
    divisor = std::gcd(divisor, static_cast<std::uint32_t>(layout.node(n).gpus.size()));
  const RankUnits units = rank_units(work, job.gpus, divisor);
  const std::uint32_t u = units.unit, need = job.gpus / u;

  // Usable GPUs per node (memory, free, not taken), by local index, and the units they hold.
  const std::vector<std::vector<GpuId>> usable = usable_gpus_by_node(job, cluster, taken);
  std::vector<std::uint32_t> slots(layout.node_count(), 0), rack_slots(layout.rack_count(), 0);
  std::uint64_t total = 0;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    slots[n] = static_cast<std::uint32_t>(usable[n].size() / u);
    rack_slots[layout.rack_of_node(n)] += slots[n];
    total += slots[n];
  }
  if (total < need) return std::nullopt;

  // The node of each unit, in unit order.
  std::vector<NodeId> node_of_unit(need, 0);
  // One node: the best fit.
  NodeId single = kNoNode;
  for (NodeId n = 0; n < layout.node_count(); ++n)
    if (slots[n] >= need && (single == kNoNode || slots[n] < slots[single])) single = n;
  if (single != kNoNode) {
    std::fill(node_of_unit.begin(), node_of_unit.end(), single);
  } else {
    if (job.single_node) return std::nullopt;
    // The units in heavy-group order: by the unit with its heavy digit cleared, then by that digit.
    const std::uint32_t size = units.heavy.size, stride = units.heavy.stride;
    std::vector<std::uint32_t> order(need);
    std::iota(order.begin(), order.end(), 0u);
    auto base = [&](std::uint32_t unit) { return unit - ((unit / stride) % size) * stride; };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return std::make_pair(base(a), a) < std::make_pair(base(b), b);
    });
    // The racks: the best-fit one that holds every unit, else by whole heavy groups, units, index.
    std::vector<RackId> racks;
    for (RackId r = 0; r < layout.rack_count(); ++r)
      if (rack_slots[r] >= need && (racks.empty() || rack_slots[r] < rack_slots[racks.front()])) racks = {r};
    if (racks.empty()) {
      for (RackId r = 0; r < layout.rack_count(); ++r)
        if (rack_slots[r] > 0) racks.push_back(r);
      std::stable_sort(racks.begin(), racks.end(), [&](RackId a, RackId b) {
        return std::make_pair(rack_slots[a] / size, rack_slots[a]) >
               std::make_pair(rack_slots[b] / size, rack_slots[b]);
      });
    }
    // Each heavy group whole to the first rack with room, else split over the racks in order.
    std::vector<std::uint32_t> left(layout.rack_count(), 0);
    for (RackId r : racks) left[r] = rack_slots[r];
    std::vector<std::vector<std::uint32_t>> units_of_rack(layout.rack_count());
    for (std::size_t first = 0; first < order.size(); first += size) {
      const auto whole = std::find_if(racks.begin(), racks.end(), [&](RackId r) { return left[r] >= size; });
      for (std::size_t k = first; k < first + size; ++k) {
        RackId rack = whole != racks.end() ? *whole : racks.front();
        if (whole == racks.end())
          rack = *std::find_if(racks.begin(), racks.end(), [&](RackId r) { return left[r] > 0; });
        units_of_rack[rack].push_back(order[k]);
        --left[rack];
      }
    }
    // Inside a rack, the units fill its nodes, most usable units first.
    for (RackId r : racks) {
      std::vector<NodeId> nodes;
      for (NodeId n : layout.nodes_of_rack(r))
        if (slots[n] > 0) nodes.push_back(n);
      std::stable_sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) { return slots[a] > slots[b]; });
      std::size_t node = 0;
      std::uint32_t used = 0;
      for (std::uint32_t unit : units_of_rack[r]) {
        if (used == slots[nodes[node]]) {
          ++node;
          used = 0;
        }
        node_of_unit[unit] = nodes[node];
        ++used;
      }
    }
  }
  // Each unit takes its node's next u usable GPUs.
  std::vector<std::size_t> next(layout.node_count(), 0);
  std::vector<GpuId> gpus;
  gpus.reserve(job.gpus);
  for (std::uint32_t unit = 0; unit < need; ++unit) {
    const NodeId n = node_of_unit[unit];
    for (std::uint32_t k = 0; k < u; ++k) gpus.push_back(usable[n][next[n]++]);
  }
  return gpus;
}

}  // namespace

std::optional<std::vector<GpuId>> NetworkPlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                          const std::vector<bool>& taken) const {
  const PhasedWork* phased = phased_work_of(job.work);
  if (!phased || job.gpus < 2 || job.gpu_share < 1) return TopologyPlacement().place(job, cluster, taken);
  return on_one_gpu_type(job, cluster, taken,
                         [&](const std::vector<bool>& among) { return choose(job, *phased, cluster, among); });
}

}  // namespace gcsim
