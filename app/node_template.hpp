// node_template.hpp: the node types of `gcsim plan`, read from cluster files,
// and the cluster of a mix of them.
//
// A node template is a cluster description (docs/cluster-format.md) whose
// first node group is the node type: the plan resizes that group. The file is
// read by the cluster reader, so a template is any valid cluster, and every
// problem is an InputError naming the file, the entry and the field.
//
//   NodeTemplate t = read_node_template("scenarios/clusters/rack-32gpu.json");
//   nlohmann::json cluster = mixed_cluster({t}, {12});  // 12 such nodes
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gcsim {

struct NodeTemplate {
  std::string path;
  nlohmann::json cluster;  // the file's cluster description, as read
  std::size_t gpus_per_node = 0;
  std::uint32_t count = 0;  // nodes of the first group in the file
  double price = 0;         // a node an hour
};

/// Reads `path` as a node template; price 0.
NodeTemplate read_node_template(const std::string& path);

/// The cluster of a mix: each template's first node group at its count (none
/// at 0), their GPU types, the first template's fabric. `counts` has one
/// count per template.
nlohmann::json mixed_cluster(const std::vector<NodeTemplate>& templates, const std::vector<int>& counts);

}  // namespace gcsim
