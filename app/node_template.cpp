#include "app/node_template.hpp"

#include <set>

#include "sim/core/input_error.hpp"
#include "sim/io/json_input.hpp"
#include "sim/topology/cluster_reader.hpp"

namespace gcsim {

NodeTemplate read_node_template(const std::string& path) {
  NodeTemplate t;
  t.path = path;
  t.cluster = read_json_file(path);
  const ClusterSpec spec = parse_cluster_json(t.cluster, path);
  if (spec.node_groups.empty())
    throw InputError(path, "node_groups[0]", "count", "a node template is a cluster with a node group to resize");
  t.gpus_per_node = spec.node_groups.front().gpus_per_node;
  if (t.gpus_per_node == 0)
    throw InputError(path, "node_groups[0] (name '" + spec.node_groups.front().name + "')", "gpus_per_node",
                     "a CPU node group (no GPU): gcsim plan sizes a cluster's GPUs, give a template of GPU nodes");
  t.count = spec.node_groups.front().count;
  return t;
}

nlohmann::json mixed_cluster(const std::vector<NodeTemplate>& templates, const std::vector<int>& counts) {
  nlohmann::json cluster = templates.front().cluster;
  cluster["node_groups"] = nlohmann::json::array();
  cluster["gpu_types"] = nlohmann::json::array();
  std::set<std::string> types;
  for (std::size_t t = 0; t < templates.size(); ++t) {
    if (counts[t] == 0) continue;
    nlohmann::json group = templates[t].cluster["node_groups"][0];
    group["count"] = counts[t];
    if (templates.size() > 1) group["name"] = group["name"].get<std::string>() + "-t" + std::to_string(t + 1);
    cluster["node_groups"].push_back(group);
    for (const nlohmann::json& type : templates[t].cluster["gpu_types"])
      if (types.insert(type["name"].get<std::string>()).second) cluster["gpu_types"].push_back(type);
  }
  return cluster;
}

}  // namespace gcsim
