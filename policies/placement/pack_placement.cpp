#include "policies/placement/pack_placement.hpp"
#include "policies/kit/shared_gpu_fit.hpp"

#include <algorithm>

namespace gcsim {
namespace {

struct Candidate {
  NodeId node;
  std::vector<GpuId> free;  // usable GPUs on the node, by local index
};

// A node of the placement and how many of its usable GPUs the job takes.
struct Share {
  const Candidate* node;
  std::size_t count;
};

// Fewest-nodes selection among `nodes`; empty when they cannot hold `need`.
std::vector<Share> fewest_nodes(std::vector<const Candidate*> nodes, std::size_t need) {
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const Candidate* a, const Candidate* b) { return a->free.size() > b->free.size(); });
  std::vector<Share> chosen;
  std::size_t remaining = need;
  for (std::size_t i = 0; i < nodes.size() && remaining > 0; ++i) {
    if (nodes[i]->free.size() >= remaining) {
      // Best fit for the remainder: the smallest node (latest in the sorted
      // order) that still covers it.
      std::size_t best = i;
      for (std::size_t j = i + 1; j < nodes.size() && nodes[j]->free.size() >= remaining; ++j) best = j;
      chosen.push_back({nodes[best], remaining});
      remaining = 0;
      break;
    }
    chosen.push_back({nodes[i], nodes[i]->free.size()});
    remaining -= nodes[i]->free.size();
  }
  if (remaining > 0) chosen.clear();
  return chosen;
}

}  // namespace

std::optional<std::vector<GpuId>> PackPlacement::place(const JobSpec& job, const ClusterView& cluster,
                                                       const std::vector<bool>& taken) const {
  if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
  const ClusterLayout& layout = cluster.layout();
  std::vector<Candidate> candidates;
  for (NodeId n = 0; n < layout.node_count(); ++n) {
    if (cluster.free_gpus_on_node(n) == 0) continue;
    const GpuId first = layout.node(n).gpus.front();
    if (layout.gpu_type_of(first).memory_bytes < job.gpu_memory_bytes) continue;
    const std::size_t room = cluster.host_room(job, n);  // by cores, memory and GPU type
    Candidate c{n, {}};
    for (GpuId g : layout.node(n).gpus)
      if (c.free.size() < room && cluster.is_free(g) && !(g < taken.size() && taken[g])) c.free.push_back(g);
    if (!c.free.empty()) candidates.push_back(std::move(c));
  }
  const std::size_t need = job.gpus;

  std::vector<Share> chosen;
  // One node: the fullest node that fits.
  for (const Candidate& c : candidates)
    if (c.free.size() >= need && (chosen.empty() || c.free.size() < chosen.front().node->free.size()))
      chosen = {{&c, need}};

  if (chosen.empty() && !job.single_node) {
    // Several nodes: the rack that needs the fewest nodes, else the whole cluster.
    std::vector<std::vector<const Candidate*>> by_rack(layout.rack_count());
    std::vector<const Candidate*> all;
    for (const Candidate& c : candidates) {
      by_rack[layout.rack_of_node(c.node)].push_back(&c);
      all.push_back(&c);
    }
    for (const auto& rack_nodes : by_rack) {
      auto in_rack = fewest_nodes(rack_nodes, need);
      if (!in_rack.empty() && (chosen.empty() || in_rack.size() < chosen.size())) chosen = std::move(in_rack);
    }
    if (chosen.empty()) chosen = fewest_nodes(all, need);
  }
  if (chosen.empty()) return std::nullopt;

  std::sort(chosen.begin(), chosen.end(), [](const Share& a, const Share& b) { return a.node->node < b.node->node; });
  std::vector<GpuId> gpus;
  for (const Share& share : chosen)
    gpus.insert(gpus.end(), share.node->free.begin(),
                share.node->free.begin() + static_cast<std::ptrdiff_t>(share.count));
  return gpus;
}

}  // namespace gcsim
