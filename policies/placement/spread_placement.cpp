#include "policies/placement/spread_placement.hpp"
#include "policies/kit/one_gpu_type.hpp"
#include "policies/kit/shared_gpu_fit.hpp"

#include <algorithm>

namespace gcsim {

namespace {

// The placement's own choice, whatever the GPU types it mixes.
std::optional<std::vector<GpuId>> choose(const JobSpec& job, const ClusterView& cluster,
                                         const std::vector<bool>& taken) {
  if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
  const ClusterLayout& layout = cluster.layout();
  std::vector<std::vector<GpuId>> usable;  // per candidate node, by local index; nodes by index
  std::size_t total = 0;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    if (cluster.free_gpus_on_node(n) == 0) continue;
    const std::vector<GpuId>& gpus = layout.node(n).gpus;
    if (layout.gpu_type_of(gpus.front()).memory_bytes < job.gpu_memory_bytes) continue;
    const std::size_t room = cluster.host_room(job, n);  // by cores, memory and GPU type
    std::vector<GpuId> free;
    for (GpuId g : gpus)
      if (free.size() < room && cluster.is_free(g) && !(g < taken.size() && taken[g])) free.push_back(g);
    total += free.size();
    if (!free.empty()) usable.push_back(std::move(free));
  }
  const std::size_t need = job.gpus;
  if (total < need) return std::nullopt;
  std::stable_sort(usable.begin(), usable.end(),
                   [](const std::vector<GpuId>& a, const std::vector<GpuId>& b) { return a.size() > b.size(); });
  if (job.single_node) {  // nothing to spread over: the node with the most usable GPUs, if it holds the job
    if (usable.front().size() < need) return std::nullopt;
    return std::vector<GpuId>(usable.front().begin(), usable.front().begin() + static_cast<std::ptrdiff_t>(need));
  }

  // Nodes hold fewer usable GPUs further down the order, so a round ends at
  // the first node that has none left for it.
  std::vector<GpuId> chosen;
  for (std::size_t round = 0; chosen.size() < need; ++round)
    for (std::size_t i = 0; i < usable.size() && chosen.size() < need && round < usable[i].size(); ++i)
      chosen.push_back(usable[i][round]);
  // GPUs are numbered node by node and by local index: ascending ids are the ring order.
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace

std::optional<std::vector<GpuId>> SpreadPlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                         const std::vector<bool>& taken) const {
  return on_one_gpu_type(job, cluster, taken,
                         [&](const std::vector<bool>& among) { return choose(job, cluster, among); });
}

}  // namespace gcsim
