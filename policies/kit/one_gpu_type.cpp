#include "policies/kit/one_gpu_type.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/node_fit.hpp"

namespace gcsim {

std::vector<std::uint32_t> gpu_types_fastest_first(const JobSpec& job, const ClusterLayout& layout) {
  const std::vector<GpuType>& types = layout.spec().gpu_types;
  std::vector<std::uint32_t> order;
  for (std::uint32_t t = 0; t < types.size(); ++t)
    if (allows_gpu_type(job, types[t].name)) order.push_back(t);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return types[a].flops > types[b].flops; });
  return order;
}

std::optional<std::vector<GpuId>> on_one_gpu_type(const JobSpec& job, const ClusterView& cluster,
                                                  const std::vector<bool>& taken, const PlaceAmong& place) {
  std::optional<std::vector<GpuId>> chosen = place(taken);
  const ClusterLayout& layout = cluster.layout();
  if (!chosen || chosen->empty() || may_mix_gpu_types(job) || !spans_gpu_types(layout, *chosen)) return chosen;
  std::vector<bool> others(layout.gpu_count());
  for (std::uint32_t type : gpu_types_fastest_first(job, layout)) {
    for (GpuId g = 0; g < others.size(); ++g)
      others[g] = layout.gpu_type_index(g) != type || (g < taken.size() && taken[g]);
    if (auto on_type = place(others)) return on_type;
  }
  return std::nullopt;
}

}  // namespace gcsim
