#include "policies/placement/topology_placement.hpp"
#include "policies/kit/one_gpu_type.hpp"
#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/kit/usable_gpus.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

#include "policies/placement/pack_placement.hpp"

namespace gcsim {
namespace {

struct Candidate {
  std::vector<GpuId> gpus;  // ring order
  double bandwidth = 0;
  std::size_t nodes = 0, racks = 0, idle = 0;  // idle: usable GPUs left on the nodes touched
};

}  // namespace

double ring_bottleneck_bandwidth(const std::vector<GpuId>& ring, const Locality& locality) {
  double bottleneck = std::numeric_limits<double>::infinity();
  if (ring.size() < 2) return bottleneck;
  for (std::size_t i = 0; i < ring.size(); ++i)
    bottleneck = std::min(bottleneck, locality.bottleneck_bandwidth(ring[i], ring[(i + 1) % ring.size()]));
  return bottleneck;
}

namespace {

// The placement's own choice, whatever the GPU types it mixes.
std::optional<std::vector<GpuId>> choose(const JobSpec& job, const ClusterView& cluster,
                                         const std::vector<bool>& taken) {
  if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
  const ClusterLayout& layout = cluster.layout();
  const std::size_t need = job.gpus;

  // Usable GPUs per node (memory, free, not taken), by local index.
  const std::vector<std::vector<GpuId>> usable = usable_gpus_by_node(job, cluster, taken);
  std::vector<std::size_t> usable_in_rack(layout.rack_count(), 0);
  std::size_t usable_total = 0;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    usable_in_rack[layout.rack_of_node(n)] += usable[n].size();
    usable_total += usable[n].size();
  }
  if (usable_total < need) return std::nullopt;

  std::optional<Candidate> best;
  auto consider = [&](std::vector<GpuId> gpus) {
    Candidate c;
    c.gpus = std::move(gpus);
    std::sort(c.gpus.begin(), c.gpus.end());  // ids ascend by node, then local index: ring order
    c.bandwidth = ring_bottleneck_bandwidth(c.gpus, cluster.locality());
    std::set<NodeId> nodes;
    std::set<RackId> racks;
    for (GpuId g : c.gpus) {
      nodes.insert(layout.node_of(g));
      racks.insert(layout.rack_of_node(layout.node_of(g)));
    }
    c.nodes = nodes.size();
    c.racks = racks.size();
    for (NodeId n : nodes) c.idle += usable[n].size();
    c.idle -= c.gpus.size();
    auto key = [](const Candidate& x) { return std::make_tuple(-x.bandwidth, x.nodes, x.racks, x.idle); };
    if (!best || key(c) < key(*best)) best = std::move(c);
  };

  // Each single node that fits.
  for (NodeId n = 0; n < layout.node_count(); ++n)
    if (usable[n].size() >= need)
      consider(std::vector<GpuId>(usable[n].begin(), usable[n].begin() + static_cast<std::ptrdiff_t>(need)));
  if (job.single_node) return best ? std::optional<std::vector<GpuId>>(std::move(best->gpus)) : std::nullopt;
  // Each rack that fits, packed: pack with every GPU outside the rack taken.
  const PackPlacement pack;
  std::vector<bool> outside(layout.gpu_count(), true);
  for (RackId r = 0; r < layout.rack_count(); ++r) {
    if (usable_in_rack[r] < need) continue;
    for (NodeId n : layout.nodes_of_rack(r))
      for (GpuId g : layout.node(n).gpus) outside[g] = g < taken.size() && taken[g];
    if (auto gpus = pack.place(job, cluster, outside)) consider(std::move(*gpus));
    for (NodeId n : layout.nodes_of_rack(r))
      for (GpuId g : layout.node(n).gpus) outside[g] = true;
  }
  // The whole cluster, packed.
  if (auto gpus = pack.place(job, cluster, taken)) consider(std::move(*gpus));
  if (!best) return std::nullopt;
  return std::move(best->gpus);
}

}  // namespace

std::optional<std::vector<GpuId>> TopologyPlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                           const std::vector<bool>& taken) const {
  return on_one_gpu_type(job, cluster, taken,
                         [&](const std::vector<bool>& among) { return choose(job, cluster, among); });
}

}  // namespace gcsim
