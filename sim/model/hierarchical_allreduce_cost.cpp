#include "sim/model/hierarchical_allreduce_cost.hpp"

#include <algorithm>

namespace gcsim {

NodeRanks node_ranks(const JobLinks& links) {
  NodeRanks ranks;
  // JobLinks numbers the nodes in the order the ring first reaches them.
  for (std::uint32_t g = 0; g < links.node_of_gpu.size(); ++g) {
    const std::uint32_t node = links.node_of_gpu[g];
    if (node >= ranks.gpus_by_node.size()) ranks.gpus_by_node.resize(node + 1);
    ranks.gpus_by_node[node].push_back(g);
  }
  for (const auto& gpus : ranks.gpus_by_node)
    ranks.local_ranks = std::max(ranks.local_ranks, static_cast<std::uint32_t>(gpus.size()));
  return ranks;
}

namespace {

// The GPU that plays local rank `rank` on a node.
std::uint32_t rank_gpu(const std::vector<std::uint32_t>& gpus, std::uint32_t rank) { return gpus[rank % gpus.size()]; }

}  // namespace

std::vector<Transfer> intra_node_transfers(const NodeRanks& ranks) {
  std::vector<Transfer> transfers;
  if (ranks.local_ranks < 2) return transfers;
  for (const auto& gpus : ranks.gpus_by_node)
    for (std::uint32_t r = 0; r < ranks.local_ranks; ++r) {
      const std::uint32_t from = rank_gpu(gpus, r), to = rank_gpu(gpus, (r + 1) % ranks.local_ranks);
      if (from != to) transfers.push_back({from, to});
    }
  return transfers;
}

std::vector<Transfer> inter_node_transfers(const NodeRanks& ranks) {
  std::vector<Transfer> transfers;
  const std::uint32_t nodes = ranks.nodes();
  if (nodes < 2) return transfers;
  for (std::uint32_t r = 0; r < ranks.local_ranks; ++r)
    for (std::uint32_t j = 0; j < nodes; ++j)
      transfers.push_back({rank_gpu(ranks.gpus_by_node[j], r), rank_gpu(ranks.gpus_by_node[(j + 1) % nodes], r)});
  return transfers;
}

}  // namespace gcsim
