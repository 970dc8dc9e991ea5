// queue_tree.hpp: the queue hierarchy with each queue's absolute shares of
// the cluster.
//
// Queues are numbered as the configuration lists them: root is 0, every
// parent comes before its children. A queue's absolute capacity is its
// capacity times its parent's absolute capacity, and likewise its absolute
// maximum (YARN's absoluteCapacity and absoluteMaximumCapacity); its
// guarantee and its limit, as resources, are those fractions of every
// resource of the cluster.
//
//   QueueTree tree(config);
//   int leaf = tree.find_leaf("research").index;
//   tree.queue(leaf).absolute_capacity;          // 0.4 for 40% of root
//   tree.guaranteed(leaf, cluster);              // 0.4 x {GPUs, cores, memory}
#pragma once

#include <string>
#include <vector>

#include "policies/capacity/capacity_config.hpp"
#include "policies/capacity/resource_vector.hpp"

namespace gcsim {

struct QueueNode {
  QueueConfig config;
  int parent = -1;            // -1 for root
  std::vector<int> children;  // in configuration order
  double absolute_capacity = 1;
  double absolute_maximum_capacity = 1;

  bool is_leaf() const { return children.empty(); }
  const std::string& path() const { return config.path; }
};

class QueueTree {
 public:
  /// `config` must have been validated (capacity_config_reader.hpp).
  explicit QueueTree(const CapacityConfig& config);

  std::size_t size() const { return nodes_.size(); }
  static constexpr int root() { return 0; }
  const QueueNode& queue(int index) const { return nodes_[index]; }
  /// Leaf queues, in configuration order (depth first).
  const std::vector<int>& leaves() const { return leaves_; }
  /// The leaf a job's queue name designates (full path or unique short name).
  LeafLookup find_leaf(const std::string& name) const { return find_leaf_queue(configs_, name); }
  /// `queue` and its ancestors up to root, leaf first.
  std::vector<int> path_to_root(int queue) const;

  /// Absolute capacity (maximum capacity) times every resource of the cluster.
  ResourceVector guaranteed(int queue, const ResourceVector& cluster) const {
    return cluster.scaled(nodes_[queue].absolute_capacity);
  }
  ResourceVector maximum(int queue, const ResourceVector& cluster) const {
    return cluster.scaled(nodes_[queue].absolute_maximum_capacity);
  }

 private:
  std::vector<QueueConfig> configs_;
  std::vector<QueueNode> nodes_;
  std::vector<int> leaves_;
};

}  // namespace gcsim
