#include "policies/kit/shared_gpu_fit.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>

namespace gcsim {

namespace {

constexpr std::size_t kUncounted = std::numeric_limits<std::size_t>::max();

// A GPU the job may go to: its free share, its node's free GPUs, its id,
// compared in that order, the best (smallest) first.
struct Room {
  double free_share;
  std::size_t free_on_node;
  GpuId gpu;
  bool operator<(const Room& other) const {
    return std::tie(free_share, free_on_node, gpu) < std::tie(other.free_share, other.free_on_node, other.gpu);
  }
};

// The rooms of one job, best first, visited as far as they are needed. A
// partly free GPU (free share below 1) comes before any free one, so the
// partly free rooms come first, out of a heap; then the free GPUs, node by
// node, the nodes with the fewest free GPUs first (the lower index among
// equals) and each node's in ascending order: the rooms' order, since a
// node's GPU ids follow those of the nodes before it. The free GPUs, most
// of a quiet cluster, are thus read only as far as the walk goes.
class BestFirstRooms {
 public:
  BestFirstRooms(const JobSpec& job, const ClusterView& cluster, const std::vector<bool>& taken,
                 const std::vector<std::size_t>& host_room)
      : job_(job), cluster_(cluster), taken_(taken), host_room_(host_room) {
    const ClusterLayout& layout = cluster.layout();
    cluster.visit_partly_free_gpus([&](GpuId g) {
      if (usable(g)) shared_.push_back({cluster.free_share(g), cluster.free_gpus_on_node(layout.node_of(g)), g});
    });
  }

  /// Calls `visit` for every room in best-first order until it returns false.
  void visit(const std::function<bool(GpuId)>& visit) {
    const auto worse = [](const Room& a, const Room& b) { return b < a; };
    std::make_heap(shared_.begin(), shared_.end(), worse);
    for (auto heap_end = shared_.end(); heap_end != shared_.begin();) {
      std::pop_heap(shared_.begin(), heap_end, worse);
      if (!visit((--heap_end)->gpu)) return;
    }
    for (NodeId n : free_nodes()) {
      bool more = true;
      visit_free_of_node(n, [&](GpuId g) { return more = visit(g); });
      if (!more) return;
    }
  }
  /// Calls `visit` for the node's free GPUs the job may take, in ascending order, until it returns false.
  void visit_free_of_node(NodeId node, const std::function<bool(GpuId)>& visit) const {
    cluster_.visit_free_gpus_of_node(node, 0, [&](GpuId g) { return !usable(g) || visit(g); });
  }
  /// The partly free rooms on `node`, best first.
  std::vector<Room> shared_on(NodeId node) const {
    std::vector<Room> on;
    for (const Room& r : shared_)
      if (cluster_.layout().node_of(r.gpu) == node) on.push_back(r);
    std::sort(on.begin(), on.end());
    return on;
  }

 private:
  // Not taken in this call, on a node whose host lets the job in, with the
  // job's share and memory free (only GPUs with a share free can take one:
  // the smallest share a job may ask, kSmallestGpuShare, is far above
  // kGpuShareTolerance).
  bool usable(GpuId g) const {
    if (g < taken_.size() && taken_[g]) return false;
    if (host_room_[cluster_.layout().node_of(g)] == 0) return false;
    return cluster_.free_share(g) + kGpuShareTolerance >= job_.gpu_share &&
           cluster_.free_memory(g) >= job_.gpu_memory_bytes;
  }
  // The nodes with a free GPU and host room, fewest free GPUs first.
  std::vector<NodeId> free_nodes() const {
    const std::vector<std::size_t>& free = cluster_.free_gpus_per_node();
    std::vector<NodeId> nodes;
    for (NodeId n = 0; n < free.size(); ++n)
      if (free[n] > 0 && host_room_[n] > 0) nodes.push_back(n);
    std::sort(nodes.begin(), nodes.end(),
              [&](NodeId a, NodeId b) { return std::tie(free[a], a) < std::tie(free[b], b); });
    return nodes;
  }

  const JobSpec& job_;
  const ClusterView& cluster_;
  const std::vector<bool>& taken_;
  const std::vector<std::size_t>& host_room_;
  std::vector<Room> shared_;
};

}  // namespace

std::optional<std::vector<GpuId>> fit_on_shared_gpus(const JobSpec& job, const ClusterView& cluster,
                                                     const std::vector<bool>& taken) {
  const ClusterLayout& layout = cluster.layout();
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
  BestFirstRooms rooms(job, cluster, taken, host_room);
  std::vector<GpuId> gpus;
  if (!job.single_node) {
    // Best rooms first, at most host_room of a node (no limit without host
    // claims nor GPU types: the job.gpus best rooms, wherever they are).
    std::vector<std::size_t> on_node(layout.node_count(), 0);
    rooms.visit([&](GpuId g) {
      const NodeId n = layout.node_of(g);
      if (on_node[n] < host_room[n]) {
        ++on_node[n];
        gpus.push_back(g);
      }
      return gpus.size() < job.gpus;
    });
  } else {
    // On the node of the best room that can hold all the job's workers: the
    // rooms it has and its host allow.
    std::vector<std::size_t> usable(layout.node_count(), kUncounted);
    const auto holds_all = [&](NodeId n) {
      if (usable[n] == kUncounted) {
        usable[n] = rooms.shared_on(n).size();
        rooms.visit_free_of_node(n, [&](GpuId) { return ++usable[n] < job.gpus; });
      }
      return std::min(usable[n], host_room[n]) >= job.gpus;
    };
    std::optional<NodeId> only;
    rooms.visit([&](GpuId g) {
      if (holds_all(layout.node_of(g))) only = layout.node_of(g);
      return !only;
    });
    if (!only) return std::nullopt;
    // That node's best job.gpus rooms.
    for (const Room& r : rooms.shared_on(*only))
      if (gpus.size() < job.gpus) gpus.push_back(r.gpu);
    if (gpus.size() < job.gpus)
      rooms.visit_free_of_node(*only, [&](GpuId g) {
        gpus.push_back(g);
        return gpus.size() < job.gpus;
      });
  }
  if (gpus.size() < job.gpus) return std::nullopt;
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
