// job_links.hpp: where a job's GPUs sit, the links their transfers cross, and
// how long a set of transfers that start together takes on the busiest link.
//
// A transfer crosses the links of its path (sim/engine/fabric_zone.hpp): the
// sender's GPU port up, then across nodes its node's NIC up and the
// receiver's NIC down, across racks the two racks' uplinks, and the
// receiver's port down. Transfers of equal size that start at once share
// each link: alone on the cluster they all end once the busiest link has
// carried its share, (transfers crossing it) x size / bandwidth, which is
// what the closed forms of the parameter-server and hierarchical exchanges
// count (sim/model/parameter_server_cost.hpp, hierarchical_allreduce_cost.hpp).
//
//   JobLinks links = job_links(layout, gpus);
//   double seconds = busiest_link_seconds_per_byte(links, {{1, 0}, {2, 0}}) * bytes;
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

/// Where a job's GPUs sit and the bandwidth (bytes/s, each direction) of
/// the links their transfers cross. Nodes and racks are numbered within the
/// job, in the order its GPUs (in ring order) first reach them.
struct JobLinks {
  std::vector<std::uint32_t> node_of_gpu;  // per GPU of the job, in ring order
  std::vector<double> port_bandwidth;      // per GPU of the job
  std::vector<std::uint32_t> rack_of_node;
  std::vector<double> nic_bandwidth;     // per node
  std::vector<double> uplink_bandwidth;  // per rack
};

/// The links of the job's GPUs `gpus` on the cluster `layout`.
JobLinks job_links(const ClusterLayout& layout, const std::vector<GpuId>& gpus);

/// The links of `gpus` GPUs packed on nodes of `gpus_per_node` GPUs, racks
/// of `nodes_per_rack` nodes, all links of one kind alike.
JobLinks packed_job_links(std::uint32_t gpus, std::uint32_t gpus_per_node, std::uint32_t nodes_per_rack,
                          double port_bandwidth, double nic_bandwidth, double uplink_bandwidth);

/// A transfer from one GPU of the job to another (indices in ring order).
struct Transfer {
  std::uint32_t from, to;
  bool operator==(const Transfer& other) const { return from == other.from && to == other.to; }
};

/// Seconds per byte of each transfer for `transfers` of equal size started
/// together: the largest, over the links they cross, of the transfers
/// crossing it over its bandwidth. 0 when none crosses a link (a transfer
/// from a GPU to itself is a local copy).
double busiest_link_seconds_per_byte(const JobLinks& links, const std::vector<Transfer>& transfers);

/// Seconds until the busiest link has carried several sets of transfers
/// started together, each transfer of `sets[i]` carrying `bytes[i]`: the
/// largest, over the links they cross, of the bytes crossing it over its
/// bandwidth. 0 when none crosses a link.
double busiest_link_seconds(const JobLinks& links, const std::vector<const std::vector<Transfer>*>& sets,
                            const std::vector<double>& bytes);

}  // namespace gcsim
