#include "policies/capacity/queue_tree.hpp"

#include <cassert>
#include <map>

namespace gcsim {

QueueTree::QueueTree(const CapacityConfig& config) : configs_(config.queues) {
  assert(!configs_.empty() && configs_[0].path == "root" && "a validated configuration starts with root");
  std::map<std::string, int> index_of;
  nodes_.reserve(configs_.size());
  for (const QueueConfig& q : configs_) {
    QueueNode node;
    node.config = q;
    const int index = static_cast<int>(nodes_.size());
    const auto dot = q.path.rfind('.');
    if (dot != std::string::npos) {
      auto parent = index_of.find(q.path.substr(0, dot));
      assert(parent != index_of.end() && "every parent is listed before its children");
      node.parent = parent->second;
      QueueNode& p = nodes_[node.parent];
      p.children.push_back(index);
      node.absolute_capacity = p.absolute_capacity * q.capacity / 100;
      node.absolute_maximum_capacity = p.absolute_maximum_capacity * q.maximum_capacity / 100;
    }
    index_of[q.path] = index;
    nodes_.push_back(std::move(node));
  }
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].is_leaf()) leaves_.push_back(static_cast<int>(i));
}

std::vector<int> QueueTree::path_to_root(int queue) const {
  std::vector<int> path;
  for (int q = queue; q >= 0; q = nodes_[q].parent) path.push_back(q);
  return path;
}

}  // namespace gcsim
