#include "policies/capacity/capacity_config.hpp"

namespace gcsim {

std::string QueueConfig::name() const {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

CapacityConfig CapacityConfig::single_default_queue() {
  CapacityConfig config;
  QueueConfig root;
  root.path = "root";
  root.children = {"default"};
  QueueConfig leaf;
  leaf.path = "root.default";
  config.queues = {root, leaf};
  return config;
}

CapacityConfig CapacityConfig::one_queue_per_name(const std::vector<std::string>& names) {
  CapacityConfig config;
  QueueConfig root;
  root.path = "root";
  root.children = names;
  config.queues.push_back(root);
  for (const std::string& name : names) {
    QueueConfig leaf;
    leaf.path = "root." + name;
    leaf.capacity = 100.0 / static_cast<double>(names.size());
    leaf.user_limit_factor = -1;
    config.queues.push_back(leaf);
  }
  return config;
}

LeafLookup find_leaf_queue(const std::vector<QueueConfig>& queues, const std::string& name) {
  std::vector<int> matches;
  for (std::size_t i = 0; i < queues.size(); ++i)
    if (queues[i].path == name || queues[i].name() == name) matches.push_back(static_cast<int>(i));
  std::string leaves;
  for (const QueueConfig& q : queues)
    if (q.is_leaf()) leaves += (leaves.empty() ? "" : ", ") + q.path;
  if (matches.empty()) return {-1, "no queue '" + name + "'; the leaf queues are: " + leaves};
  if (matches.size() > 1) {
    // A full path is unambiguous even when it is also some queue's short name.
    for (int m : matches)
      if (queues[m].path == name && queues[m].is_leaf()) return {m, ""};
    std::string paths;
    for (int m : matches) paths += (paths.empty() ? "" : ", ") + queues[m].path;
    return {-1, "queue name '" + name + "' is ambiguous (" + paths + "); give the full path"};
  }
  const QueueConfig& q = queues[matches[0]];
  if (!q.is_leaf()) return {-1, "'" + q.path + "' is a parent queue; jobs go to leaf queues: " + leaves};
  return {matches[0], ""};
}

std::string CapacityConfig::label() const {
  if (!source.empty()) return source;
  std::string leaves;
  for (const QueueConfig& q : queues)
    if (q.is_leaf()) leaves += (leaves.empty() ? "" : ", ") + q.path;
  return "capacity (built-in " + leaves + ")";
}

}  // namespace gcsim
