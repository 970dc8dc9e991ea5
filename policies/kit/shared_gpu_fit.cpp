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
  std::size_t room_on_hosts = 0;  // GPUs the hosts allow in all (on the best one when single_node), up to job.gpus
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    host_room[n] = cluster.host_room(job, n);
    const std::size_t here = std::min<std::size_t>(host_room[n], job.gpus);
    room_on_hosts =
        job.single_node ? std::max(room_on_hosts, here) : std::min<std::size_t>(job.gpus, room_on_hosts + here);
  }
  // Cores or memory too few for the job's GPUs: no GPU needs looking at.
  if (room_on_hosts < job.gpus) return std::nullopt;
  // Only GPUs with a share free can take one (the smallest share a job may
  // ask, kSmallestGpuShare, is far above kGpuShareTolerance).
  cluster.visit_gpus_with_room([&](GpuId g) {
    if (g < taken.size() && taken[g]) return;
    if (host_room[layout.node_of(g)] == 0) return;
    const double free_share = cluster.free_share(g);
    if (free_share + kGpuShareTolerance < job.gpu_share || cluster.free_memory(g) < job.gpu_memory_bytes) return;
    rooms.push_back({free_share, cluster.free_gpus_on_node(layout.node_of(g)), g});
  });
  if (rooms.size() < job.gpus) return std::nullopt;
  const auto best_first = [](const Room& a, const Room& b) {
    return std::tie(a.free_share, a.free_on_node, a.gpu) < std::tie(b.free_share, b.free_on_node, b.gpu);
  };
  std::vector<GpuId> gpus;
  const bool capped = job.single_node || host_or_type_limits(job);
  if (!capped) {  // the common case: the job.gpus best rooms, wherever they are
    const auto chosen_end = rooms.begin() + static_cast<std::ptrdiff_t>(job.gpus);
    std::partial_sort(rooms.begin(), chosen_end, rooms.end(), best_first);
    for (auto it = rooms.begin(); it != chosen_end; ++it) gpus.push_back(it->gpu);
  } else {
    // Best rooms first, at most host_room of a node; a single-node job on the
    // node of the best room that can hold all its workers. The rooms come out
    // of a heap, best first, as far as they are needed: O(GPUs + k log GPUs)
    // for the k rooms looked at, where sorting them all costs O(GPUs log GPUs).
    const auto worse = [&best_first](const Room& a, const Room& b) { return best_first(b, a); };
    std::make_heap(rooms.begin(), rooms.end(), worse);
    auto heap_end = rooms.end();
    const auto next_best = [&]() -> const Room& {
      std::pop_heap(rooms.begin(), heap_end, worse);
      return *--heap_end;
    };
    if (job.single_node) {
      std::vector<std::size_t> usable(layout.node_count(), 0);
      for (const Room& r : rooms) ++usable[layout.node_of(r.gpu)];
      std::optional<NodeId> only;
      while (!only && heap_end != rooms.begin()) {
        const NodeId n = layout.node_of(next_best().gpu);
        if (std::min(usable[n], host_room[n]) >= job.gpus) only = n;
      }
      if (!only) return std::nullopt;
      // That node's best job.gpus rooms (it has at least that many).
      std::vector<Room> on_only;
      for (const Room& r : rooms)
        if (layout.node_of(r.gpu) == *only) on_only.push_back(r);
      std::partial_sort(on_only.begin(), on_only.begin() + static_cast<std::ptrdiff_t>(job.gpus), on_only.end(),
                        best_first);
      for (std::size_t i = 0; i < job.gpus; ++i) gpus.push_back(on_only[i].gpu);
    } else {
      std::vector<std::size_t> on_node(layout.node_count(), 0);
      while (gpus.size() < job.gpus && heap_end != rooms.begin()) {
        const Room& r = next_best();
        const NodeId n = layout.node_of(r.gpu);
        if (on_node[n] >= host_room[n]) continue;
        ++on_node[n];
        gpus.push_back(r.gpu);
      }
      if (gpus.size() < job.gpus) return std::nullopt;
    }
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
