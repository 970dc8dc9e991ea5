#include "policies/kit/shared_gpu_fit.hpp"

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
  std::vector<std::size_t> host_room(layout.node_count(), 0);  // GPUs the node's cores, memory and type allow
  for (NodeId n = 0; n < layout.node_count(); ++n) host_room[n] = cluster.host_room(job, n);
  for (GpuId g = 0; g < layout.gpu_count(); ++g) {
    if (g < taken.size() && taken[g]) continue;
    if (host_room[layout.node_of(g)] == 0) continue;
    const bool fits =
        cluster.free_share(g) + kGpuShareTolerance >= job.gpu_share && cluster.free_memory(g) >= job.gpu_memory_bytes;
    if (!fits) continue;
    rooms.push_back({cluster.free_share(g), cluster.free_gpus_on_node(layout.node_of(g)), g});
  }
  if (rooms.size() < job.gpus) return std::nullopt;
  const auto best_first = [](const Room& a, const Room& b) {
    return std::tie(a.free_share, a.free_on_node, a.gpu) < std::tie(b.free_share, b.free_on_node, b.gpu);
  };
  std::vector<GpuId> gpus;
  const bool capped = job.single_node || job.cpu_cores > 0 || job.memory_bytes > 0 || !job.gpu_types.empty();
  if (!capped) {  // the common case: the job.gpus best rooms, wherever they are
    const auto chosen_end = rooms.begin() + static_cast<std::ptrdiff_t>(job.gpus);
    std::partial_sort(rooms.begin(), chosen_end, rooms.end(), best_first);
    for (auto it = rooms.begin(); it != chosen_end; ++it) gpus.push_back(it->gpu);
  } else {
    // Best rooms first, at most host_room of a node; a single-node job on the
    // node of the best room that can hold all its workers.
    std::sort(rooms.begin(), rooms.end(), best_first);
    std::vector<std::size_t> on_node(layout.node_count(), 0), usable(layout.node_count(), 0);
    for (const Room& r : rooms) ++usable[layout.node_of(r.gpu)];
    std::optional<NodeId> only;
    if (job.single_node) {
      for (const Room& r : rooms) {
        const NodeId n = layout.node_of(r.gpu);
        if (std::min(usable[n], host_room[n]) >= job.gpus) {
          only = n;
          break;
        }
      }
      if (!only) return std::nullopt;
    }
    for (const Room& r : rooms) {
      const NodeId n = layout.node_of(r.gpu);
      if (gpus.size() == job.gpus) break;
      if ((only && n != *only) || on_node[n] >= host_room[n]) continue;
      ++on_node[n];
      gpus.push_back(r.gpu);
    }
    if (gpus.size() < job.gpus) return std::nullopt;
  }
  std::sort(gpus.begin(), gpus.end());
  return gpus;
}

GpuRoom::GpuRoom(const ClusterView& cluster) : by_gpu_(cluster.layout().gpu_count()) {
  for (GpuId g = 0; g < by_gpu_.size(); ++g) {
    by_gpu_[g] = cluster.free_share(g);
    if (by_gpu_[g] > kGpuShareTolerance) free_shares_.push_back(by_gpu_[g]);
  }
  std::sort(free_shares_.begin(), free_shares_.end());
}

void GpuRoom::set(GpuId gpu, double free_share) {
  if (by_gpu_[gpu] > kGpuShareTolerance)
    free_shares_.erase(std::lower_bound(free_shares_.begin(), free_shares_.end(), by_gpu_[gpu]));
  by_gpu_[gpu] = free_share;
  if (free_share > kGpuShareTolerance)
    free_shares_.insert(std::upper_bound(free_shares_.begin(), free_shares_.end(), free_share), free_share);
}

void GpuRoom::take(const std::vector<GpuId>& gpus, const JobSpec& job) {
  for (GpuId g : gpus) set(g, std::max(0.0, by_gpu_[g] - std::min(1.0, job.gpu_share)));
}

void GpuRoom::release(const std::vector<GpuId>& gpus, const JobSpec& job) {
  for (GpuId g : gpus) {
    const double after = by_gpu_[g] + std::min(1.0, job.gpu_share);
    set(g, after >= 1 - kGpuShareTolerance ? 1.0 : after);
  }
}

bool GpuRoom::may_fit(const JobSpec& job) const {
  const double need = std::min(1.0, job.gpu_share) - kGpuShareTolerance;
  const auto first = std::lower_bound(free_shares_.begin(), free_shares_.end(), need);
  return static_cast<std::size_t>(free_shares_.end() - first) >= job.gpus;
}

}  // namespace gcsim
