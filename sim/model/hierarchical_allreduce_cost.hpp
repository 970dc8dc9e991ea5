// hierarchical_allreduce_cost.hpp: the transfers of a hierarchical allreduce
// and their cost on an uncontended cluster.
//
// Horovod's hierarchical allreduce (HOROVOD_HIERARCHICAL_ALLREDUCE; NCCL's
// two-level rings): the gradients (S bytes) are reduce-scattered inside
// each node, the shards allreduced by rings across the nodes, then
// all-gathered inside each node. With M nodes and L local ranks (the most
// GPUs the job has on one node; a node with fewer GPUs gives some of them
// several local ranks, rank r on its GPU r mod its count):
// - inside a node, L - 1 reduce-scatter steps and L - 1 all-gather steps:
//   local rank r sends S/L to local rank r + 1 (mod L), all at once;
// - across nodes, 2(M - 1) steps of L rings at once: local rank r of node j
//   sends S/(L M) to local rank r of node j + 1 (mod M).
// A transfer between two ranks on one GPU is a local copy. Alone on the
// cluster, each step lasts its latency plus its busiest link's share
// (sim/model/job_links.hpp): on uniform nodes whose ports are not the
// bottleneck,
//   2(L-1) (alpha_node + S / (L B_port)) + 2(M-1) (alpha_net + S / (M B_nic))
// where a node's NIC carries its L cross-node rings at once; a flat ring
// across the same nodes pays 2(N-1) latencies of the slowest edge instead.
// With tensor fusion in m buffers each latency counts m times.
//
//   const NodeRanks ranks = node_ranks(job_links(layout, gpus));
//   std::vector<Transfer> step = intra_node_transfers(ranks);
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/model/job_links.hpp"

namespace gcsim {

/// The job's GPUs (indices in ring order) by node, in the order the ring
/// first reaches the nodes, and the local ranks L: the most GPUs on one node.
struct NodeRanks {
  std::vector<std::vector<std::uint32_t>> gpus_by_node;
  std::uint32_t local_ranks = 1;
  std::uint32_t nodes() const { return static_cast<std::uint32_t>(gpus_by_node.size()); }
};
NodeRanks node_ranks(const JobLinks& links);

/// Where a hierarchical allreduce runs, as the job's plan needs it: its
/// nodes, its local ranks, and one transfer across nodes: its latency and its
/// bandwidth once a step's transfers share the links (placement_costs()).
struct Hierarchy {
  std::uint32_t nodes = 1;
  std::uint32_t local_ranks = 1;
  double inter_node_latency = 0;
  double inter_node_bandwidth = kNever;
};

/// The transfers of one reduce-scatter (or all-gather) step inside the nodes.
std::vector<Transfer> intra_node_transfers(const NodeRanks& ranks);
/// The transfers of one step of the rings across the nodes.
std::vector<Transfer> inter_node_transfers(const NodeRanks& ranks);

}  // namespace gcsim
