#include "sim/report/node_sleep_clock.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace gcsim {

NodeSleepClock::NodeSleepClock(std::vector<NodeId> gpu_node, std::vector<Time> sleep_after)
    : gpu_node_(std::move(gpu_node)),
      sleep_after_(std::move(sleep_after)),
      runs_(sleep_after_.size(), 0),
      idle_since_(sleep_after_.size(), 0.0) {
  any_ = std::any_of(sleep_after_.begin(), sleep_after_.end(), [](Time t) { return t != kNever; });
}

NodeSleepClock NodeSleepClock::of(const ClusterLayout& layout) {
  std::vector<NodeId> gpu_node;
  gpu_node.reserve(layout.gpu_count());
  for (GpuId g = 0; g < layout.gpu_count(); ++g) gpu_node.push_back(layout.node_of(g));
  std::vector<Time> sleep_after;
  sleep_after.reserve(layout.node_count());
  for (NodeId n = 0; n < layout.node_count(); ++n) sleep_after.push_back(layout.group_of_node(n).sleep_after);
  return NodeSleepClock(std::move(gpu_node), std::move(sleep_after));
}

std::vector<NodeId> NodeSleepClock::nodes_of(const std::vector<GpuId>& gpus) const {
  std::vector<NodeId> nodes;
  for (GpuId g : gpus) {
    const NodeId n = gpu_node_[g];
    if (std::find(nodes.begin(), nodes.end(), n) == nodes.end()) nodes.push_back(n);
  }
  return nodes;
}

bool NodeSleepClock::asleep(NodeId node, Time now) const {
  return runs_[node] == 0 && sleep_after_[node] != kNever && now - idle_since_[node] >= sleep_after_[node];
}

void NodeSleepClock::started(const std::vector<NodeId>& nodes, Time now,
                             const std::function<void(NodeId, Time)>& slept) {
  for (NodeId n : nodes) {
    if (asleep(n, now)) slept(n, idle_since_[n] + sleep_after_[n]);
    ++runs_[n];
  }
}

void NodeSleepClock::ended(const std::vector<NodeId>& nodes, Time now) {
  for (NodeId n : nodes) {
    assert(runs_[n] > 0 && "a run ends on a node it started on");
    if (--runs_[n] == 0) idle_since_[n] = now;
  }
}

void NodeSleepClock::asleep_at_end(Time end, const std::function<void(NodeId, Time)>& slept) const {
  for (NodeId n = 0; n < runs_.size(); ++n)
    if (asleep(n, end)) slept(n, idle_since_[n] + sleep_after_[n]);
}

}  // namespace gcsim
