#include "policies/placement/pack_placement.hpp"
#include "policies/kit/one_gpu_type.hpp"
#include "policies/kit/shared_gpu_fit.hpp"

#include <algorithm>

namespace gcsim {
namespace {

// A node with usable GPUs: free now, not already promised, as many as its
// cores, memory and GPU type leave room for. Which GPUs they are is settled
// only for the nodes chosen (gpus_on()), so a placement costs O(nodes) plus
// the chosen nodes' GPUs, whatever the size of the others.
struct Candidate {
  NodeId node;
  std::size_t count;
};

// A node of the placement and how many of its usable GPUs the job takes.
struct Share {
  const Candidate* node;
  std::size_t count;
};

bool any_taken(const std::vector<bool>& taken) { return std::find(taken.begin(), taken.end(), true) != taken.end(); }

bool usable(const ClusterView& cluster, GpuId g, const std::vector<bool>& taken) {
  return cluster.is_free(g) && !(g < taken.size() && taken[g]);
}

// How many of the node's GPUs are usable, up to `room`.
std::size_t usable_count(const ClusterView& cluster, NodeId n, std::size_t free, std::size_t room,
                         const std::vector<bool>& taken, bool check_taken) {
  // Without promised GPUs, the node's free count is the count (ClusterView's contract).
  if (!check_taken) return std::min(room, free);
  std::size_t count = 0;
  for (GpuId g : cluster.layout().node(n).gpus) {
    if (count >= room) break;
    if (usable(cluster, g, taken)) ++count;
  }
  return count;
}

// Fewest-nodes selection among `nodes`, ordered by usable count, most
// first: how many nodes it takes to hold `need`, 0 when they cannot, and
// with `chosen` the shares it takes.
std::size_t fewest_nodes(const Candidate* const* nodes, std::size_t size, std::size_t need,
                         std::vector<Share>* chosen) {
  std::size_t remaining = need;
  std::size_t taken = 0;
  for (std::size_t i = 0; i < size && remaining > 0; ++i) {
    ++taken;
    if (nodes[i]->count >= remaining) {
      // Best fit for the remainder: the smallest node (latest in the order)
      // that still covers it.
      std::size_t best = i;
      for (std::size_t j = i + 1; j < size && nodes[j]->count >= remaining; ++j) best = j;
      if (chosen) chosen->push_back({nodes[best], remaining});
      remaining = 0;
      break;
    }
    if (chosen) chosen->push_back({nodes[i], nodes[i]->count});
    remaining -= nodes[i]->count;
  }
  if (remaining == 0) return taken;
  if (chosen) chosen->clear();
  return 0;
}

// A job that only GPUs limit: no host claim nor GPU type, and the memory of
// every GPU the cluster has. Its usable GPUs on a node are the node's free GPUs.
bool limited_by_gpus_alone(const JobSpec& job, const ClusterLayout& layout) {
  return !host_or_type_limits(job) && job.gpu_memory_bytes <= layout.smallest_gpu_memory();
}

// The first `count` usable GPUs of the node, by local index.
void append_usable(const ClusterView& cluster, NodeId node, std::size_t count, const std::vector<bool>& taken,
                   std::vector<GpuId>& gpus) {
  if (count == 0) return;
  cluster.visit_free_gpus_of_node(node, 0, [&](GpuId g) {
    if (g < taken.size() && taken[g]) return true;
    gpus.push_back(g);
    return --count > 0;
  });
}

}  // namespace

namespace {

// The placement's own choice, whatever the GPU types it mixes.
std::optional<std::vector<GpuId>> choose(const JobSpec& job, const ClusterView& cluster,
                                         const std::vector<bool>& taken) {
  if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
  const ClusterLayout& layout = cluster.layout();
  const bool check_taken = any_taken(taken);
  const std::size_t need = job.gpus;
  // A usable GPU is a free one: with too few free in the whole cluster there
  // is no choice to make (a queue's head often waits so).
  if (cluster.free_gpu_count() < need) return std::nullopt;
  if (!check_taken && limited_by_gpus_alone(job, layout)) {
    // The one-node choice below, from the view's index of nodes by free count.
    const NodeId node = cluster.fullest_node_with_free(need);
    if (node != kNoNode) {
      std::vector<GpuId> gpus;
      gpus.reserve(need);
      append_usable(cluster, node, need, taken, gpus);
      return gpus;
    }
    if (job.single_node) return std::nullopt;
  }
  const std::vector<std::size_t>& free_per_node = cluster.free_gpus_per_node();
  std::vector<Candidate> candidates;
  std::size_t usable_total = 0;
  for (NodeId n = 0; n < free_per_node.size(); ++n) {
    if (free_per_node[n] == 0) continue;
    const GpuId first = layout.node(n).gpus.front();
    if (layout.gpu_type_of(first).memory_bytes < job.gpu_memory_bytes) continue;
    const std::size_t room = cluster.host_room(job, n);  // by cores, memory and GPU type
    const std::size_t count = usable_count(cluster, n, free_per_node[n], room, taken, check_taken);
    if (count > 0) candidates.push_back({n, count});
    usable_total += count;
  }
  // Not enough usable GPUs in the whole cluster: no choice of nodes to make.
  if (usable_total < need) return std::nullopt;

  std::vector<Share> chosen;
  // One node: the fullest node that fits.
  for (const Candidate& c : candidates)
    if (c.count >= need && (chosen.empty() || c.count < chosen.front().node->count)) chosen = {{&c, need}};

  if (chosen.empty() && !job.single_node) {
    // Several nodes: the rack that needs the fewest nodes (the first of
    // those), else the whole cluster. Each is chosen from its nodes ordered
    // by usable count, most first, ties by node.
    std::vector<const Candidate*> by_rack(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) by_rack[i] = &candidates[i];
    const auto by_count = [](const Candidate* a, const Candidate* b) {
      return a->count != b->count ? a->count > b->count : a->node < b->node;
    };
    std::sort(by_rack.begin(), by_rack.end(), [&](const Candidate* a, const Candidate* b) {
      const RackId rack_a = layout.rack_of_node(a->node), rack_b = layout.rack_of_node(b->node);
      return rack_a != rack_b ? rack_a < rack_b : by_count(a, b);
    });
    std::size_t best_first = 0, best_size = 0, best_nodes = 0;
    for (std::size_t first = 0; first < by_rack.size();) {
      const RackId rack = layout.rack_of_node(by_rack[first]->node);
      std::size_t end = first + 1;
      while (end < by_rack.size() && layout.rack_of_node(by_rack[end]->node) == rack) ++end;
      const std::size_t nodes = fewest_nodes(&by_rack[first], end - first, need, nullptr);
      if (nodes > 0 && (best_nodes == 0 || nodes < best_nodes)) {
        best_first = first;
        best_size = end - first;
        best_nodes = nodes;
      }
      first = end;
    }
    if (best_nodes > 0) {
      fewest_nodes(&by_rack[best_first], best_size, need, &chosen);
    } else {  // the whole cluster, ordered the same way
      std::sort(by_rack.begin(), by_rack.end(), by_count);
      fewest_nodes(by_rack.data(), by_rack.size(), need, &chosen);
    }
  }
  if (chosen.empty()) return std::nullopt;

  std::sort(chosen.begin(), chosen.end(), [](const Share& a, const Share& b) { return a.node->node < b.node->node; });
  // Each chosen node gives its first usable GPUs by local index.
  std::vector<GpuId> gpus;
  gpus.reserve(need);
  for (const Share& share : chosen) append_usable(cluster, share.node->node, share.count, taken, gpus);
  return gpus;
}

}  // namespace

std::optional<std::vector<GpuId>> PackPlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                       const std::vector<bool>& taken) const {
  return on_one_gpu_type(job, cluster, taken,
                         [&](const std::vector<bool>& among) { return choose(job, cluster, among); });
}

}  // namespace gcsim
