#include "policies/consolidate/consolidate_placement.hpp"

#include <algorithm>
#include <tuple>

#include "policies/kit/one_gpu_type.hpp"
#include "policies/kit/usable_gpus.hpp"
#include "policies/placement/pack_placement.hpp"

namespace gcsim {
namespace {

std::optional<std::vector<GpuId>> consolidate(const JobSpec& job, const ClusterView& cluster,
                                              const std::vector<bool>& taken) {
  const ClusterLayout& layout = cluster.layout();
  const std::vector<std::vector<GpuId>> usable = usable_gpus_by_node(job, cluster, taken);
  // (idle, usable GPUs if in use, index): nodes in use first, best fit; then idle nodes by index.
  std::vector<std::tuple<bool, std::size_t, NodeId>> order;
  for (NodeId n = 0; n < usable.size(); ++n) {
    if (usable[n].empty()) continue;
    const bool idle = cluster.free_gpus_on_node(n) == layout.node(n).gpus.size();
    order.emplace_back(idle, idle ? 0 : usable[n].size(), n);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [idle, count, n] : order)
    if (usable[n].size() >= job.gpus) return std::vector<GpuId>(usable[n].begin(), usable[n].begin() + job.gpus);
  if (job.single_node) return std::nullopt;
  std::vector<NodeId> chosen;
  std::size_t covered = 0;
  for (const auto& [idle, count, n] : order) {
    if (covered >= job.gpus) break;
    chosen.push_back(n);
    covered += usable[n].size();
  }
  if (covered < job.gpus) return std::nullopt;
  std::sort(chosen.begin(), chosen.end());
  std::vector<GpuId> gpus;
  for (NodeId n : chosen)
    for (GpuId g : usable[n])
      if (gpus.size() < job.gpus) gpus.push_back(g);
  return gpus;
}

}  // namespace

std::optional<std::vector<GpuId>> ConsolidatePlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                              const std::vector<bool>& taken) const {
  if (job.gpu_share < 1) return PackPlacement().place(job, cluster, taken);
  return on_one_gpu_type(job, cluster, taken, [&](const std::vector<bool>& t) { return consolidate(job, cluster, t); });
}

}  // namespace gcsim
