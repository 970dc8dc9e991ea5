#include "sim/model/job_links.hpp"

#include <algorithm>
#include <map>

namespace gcsim {

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

double busiest_link_seconds_per_byte(const JobLinks& links, const std::vector<Transfer>& transfers) {
  return busiest_link_seconds(links, {&transfers}, {1.0});
}

double busiest_link_seconds(const JobLinks& links, const std::vector<const std::vector<Transfer>*>& sets,
                            const std::vector<double>& bytes) {
  // Bytes crossing each link, per direction.
  std::vector<double> port_up(links.node_of_gpu.size()), port_down(links.node_of_gpu.size());
  std::vector<double> nic_up(links.nic_bandwidth.size()), nic_down(links.nic_bandwidth.size());
  std::vector<double> uplink_up(links.uplink_bandwidth.size()), uplink_down(links.uplink_bandwidth.size());
  for (std::size_t set = 0; set < sets.size(); ++set) {
    const double size = bytes[set];
    for (const Transfer& t : *sets[set]) {
      if (t.from == t.to) continue;  // a local copy
      port_up[t.from] += size;
      port_down[t.to] += size;
      const std::uint32_t from_node = links.node_of_gpu[t.from], to_node = links.node_of_gpu[t.to];
      if (from_node == to_node) continue;
      nic_up[from_node] += size;
      nic_down[to_node] += size;
      const std::uint32_t from_rack = links.rack_of_node[from_node], to_rack = links.rack_of_node[to_node];
      if (from_rack == to_rack) continue;
      uplink_up[from_rack] += size;
      uplink_down[to_rack] += size;
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
