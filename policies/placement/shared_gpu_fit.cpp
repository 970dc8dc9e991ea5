#include "policies/placement/shared_gpu_fit.hpp"

#include <algorithm>
#include <tuple>

namespace gcsim {

std::optional<std::vector<GpuId>> fit_on_shared_gpus(const JobSpec& job, const ClusterView& cluster,
                                                     const std::vector<bool>& taken) {
  const ClusterLayout& layout = cluster.layout();
  struct Room {
    double free_share;
    std::size_t free_on_node;
    GpuId gpu;
  };
  std::vector<Room> rooms;
  for (GpuId g = 0; g < layout.gpu_count(); ++g) {
    if (g < taken.size() && taken[g]) continue;
    if (!share_fits(cluster, g, job.gpu_share, job.gpu_memory_bytes)) continue;
    rooms.push_back({cluster.free_share(g), cluster.free_gpus_on_node(layout.node_of(g)), g});
  }
  if (rooms.size() < job.gpus) return std::nullopt;
  const auto chosen_end = rooms.begin() + static_cast<std::ptrdiff_t>(job.gpus);
  std::partial_sort(rooms.begin(), chosen_end, rooms.end(), [](const Room& a, const Room& b) {
    return std::tie(a.free_share, a.free_on_node, a.gpu) < std::tie(b.free_share, b.free_on_node, b.gpu);
  });
  std::vector<GpuId> gpus;
  for (auto it = rooms.begin(); it != chosen_end; ++it) gpus.push_back(it->gpu);
  std::sort(gpus.begin(), gpus.end());
  return gpus;
}

}  // namespace gcsim
