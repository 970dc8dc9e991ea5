#include "sim/model/parameter_server_cost.hpp"

#include <algorithm>
#include <map>

namespace gcsim {

std::uint32_t parameter_server_host(std::uint32_t server, std::uint32_t servers, std::uint32_t workers) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(server) * workers / servers);
}

JobLinks job_links(const ClusterLayout& layout, const std::vector<GpuId>& gpus) {
  JobLinks links;
  std::map<NodeId, std::uint32_t> node_index;
  std::map<RackId, std::uint32_t> rack_index;
  for (GpuId g : gpus) {
    const NodeId node = layout.node_of(g);
    auto [at, added] = node_index.emplace(node, static_cast<std::uint32_t>(links.nic_bandwidth.size()));
    if (added) {
      const RackId rack = layout.rack_of_node(node);
      auto [rack_at, rack_added] = rack_index.emplace(rack, static_cast<std::uint32_t>(links.uplink_bandwidth.size()));
      if (rack_added) {
        // As the platform builds it: the rack's NIC capacity over the oversubscription.
        double capacity = 0;
        for (NodeId n : layout.nodes_of_rack(rack)) capacity += layout.group_of_node(n).nic.bandwidth;
        links.uplink_bandwidth.push_back(capacity / layout.spec().fabric.oversubscription);
      }
      links.rack_of_node.push_back(rack_at->second);
      links.nic_bandwidth.push_back(layout.group_of_node(node).nic.bandwidth);
    }
    links.node_of_gpu.push_back(at->second);
    links.port_bandwidth.push_back(layout.group_of_node(node).intra.bandwidth);
  }
  return links;
}

JobLinks packed_job_links(std::uint32_t gpus, std::uint32_t gpus_per_node, std::uint32_t nodes_per_rack,
                          double port_bandwidth, double nic_bandwidth, double uplink_bandwidth) {
  JobLinks links;
  const std::uint32_t per_node = std::max<std::uint32_t>(1, gpus_per_node);
  const std::uint32_t per_rack = std::max<std::uint32_t>(1, nodes_per_rack);
  for (std::uint32_t g = 0; g < gpus; ++g) {
    links.node_of_gpu.push_back(g / per_node);
    links.port_bandwidth.push_back(port_bandwidth);
  }
  const std::uint32_t nodes = gpus == 0 ? 0 : (gpus - 1) / per_node + 1;
  for (std::uint32_t n = 0; n < nodes; ++n) {
    links.rack_of_node.push_back(n / per_rack);
    links.nic_bandwidth.push_back(nic_bandwidth);
  }
  const std::uint32_t racks = nodes == 0 ? 0 : (nodes - 1) / per_rack + 1;
  links.uplink_bandwidth.assign(racks, uplink_bandwidth);
  return links;
}

double parameter_server_phase_seconds_per_byte(const JobLinks& links, std::uint32_t servers) {
  const auto workers = static_cast<std::uint32_t>(links.node_of_gpu.size());
  if (workers == 0 || servers == 0) return 0;
  // Bytes per gradient byte on each link of the push phase (the pull is its mirror).
  std::vector<double> port_up(workers), port_down(workers);
  std::vector<double> nic_up(links.nic_bandwidth.size()), nic_down(links.nic_bandwidth.size());
  std::vector<double> uplink_up(links.uplink_bandwidth.size()), uplink_down(links.uplink_bandwidth.size());
  const double shard = 1.0 / servers;
  for (std::uint32_t s = 0; s < servers; ++s) {
    const std::uint32_t host = parameter_server_host(s, servers, workers);
    const std::uint32_t host_node = links.node_of_gpu[host];
    for (std::uint32_t w = 0; w < workers; ++w) {
      if (w == host) continue;  // a local copy
      port_up[w] += shard;
      port_down[host] += shard;
      const std::uint32_t node = links.node_of_gpu[w];
      if (node == host_node) continue;
      nic_up[node] += shard;
      nic_down[host_node] += shard;
      const std::uint32_t rack = links.rack_of_node[node], host_rack = links.rack_of_node[host_node];
      if (rack == host_rack) continue;
      uplink_up[rack] += shard;
      uplink_down[host_rack] += shard;
    }
  }
  double slowest = 0;
  auto busiest = [&](const std::vector<double>& load, const std::vector<double>& bandwidth) {
    for (std::size_t i = 0; i < load.size(); ++i)
      if (load[i] > 0) slowest = std::max(slowest, load[i] / bandwidth[i]);
  };
  busiest(port_up, links.port_bandwidth);
  busiest(port_down, links.port_bandwidth);
  busiest(nic_up, links.nic_bandwidth);
  busiest(nic_down, links.nic_bandwidth);
  busiest(uplink_up, links.uplink_bandwidth);
  busiest(uplink_down, links.uplink_bandwidth);
  return slowest;
}

}  // namespace gcsim
