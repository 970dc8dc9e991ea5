// vc_cluster.hpp: a traced cluster's virtual clusters (VCs) as a gcsim
// cluster description and a capacity-scheduler configuration with a queue
// per VC.
//
// Two tables are read:
//   philly-vcs  Philly's VC sizes, `vc,node num` (servers per VC, as the
//               Helios artifact's philly_vc.csv gives them)
//   helios-vcs  a Helios cluster's per-VC GPU table, `date,<vc>...,total`:
//               one row per day, GPUs per VC; the row of `date` (default: the
//               last) is used, VCs with 0 GPUs that day are left out
// Each VC becomes a node group of ceil(GPUs / gpus_per_node) nodes named
// "vc-<vc>", all of one node shape (the tables give no hardware: the shape
// is an option, 8 V100 by default), and a leaf queue of root whose capacity
// and maximum-capacity are the VC's share of the GPUs (a hard partition, as
// Philly's and Helios' VCs were). VCs that the job log uses but the table
// lacks (`extra_queues`) get a queue of capacity 0 and maximum-capacity 100:
// they borrow idle GPUs only, and are reported.
//
//   VcTable table = read_vc_table(VcTableFormat::kPhillyVcNodes, "philly_vc_nodes.csv", {});
//   write(vc_cluster_json("philly-vcs", table, shape).dump(2));
//   write(vc_capacity_json(table, {"23dbec"}).dump(2));
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim {

enum class VcTableFormat { kPhillyVcNodes, kHeliosVcGpus };

/// "philly-vcs", "helios-vcs"; nothing for anything else.
std::optional<VcTableFormat> parse_vc_table_format(const std::string& name);

struct VirtualCluster {
  std::string name;
  std::uint32_t gpus = 0;
};

struct VcTable {
  std::vector<VirtualCluster> vcs;  // in table order
  std::vector<std::string> notes;   // what was left out or assumed, one sentence each
};

struct VcTableOptions {
  std::uint32_t gpus_per_node = 8;  // Philly: node counts are multiplied by it
  std::string date;                 // Helios: the day's row; empty: the last row
};

/// Reads a table; InputError naming the file, line and field for a bad row.
VcTable read_vc_table(VcTableFormat format, const std::string& path, const VcTableOptions& options);

/// The node shape every VC's nodes share, as a cluster description's node group fields.
struct NodeShape {
  std::uint32_t gpus_per_node = 8;
  std::string gpu_type = "V100";
  std::string gpu_flops = "15.7TFLOPS";
  std::string gpu_memory = "32GB";
  std::uint32_t cpu_cores = 96;
  std::string memory = "512GB";
  std::string intra_bandwidth = "150GB/s";
  std::string intra_latency = "2us";
  std::string nic_bandwidth = "100Gbps";
  std::string nic_latency = "5us";
  std::uint32_t nodes_per_rack = 16;
  double oversubscription = 2;
};

nlohmann::ordered_json vc_cluster_json(const std::string& name, const VcTable& table, const NodeShape& shape);
nlohmann::ordered_json vc_capacity_json(const VcTable& table, const std::vector<std::string>& extra_queues);

}  // namespace gcsim
