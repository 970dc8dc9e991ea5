// node_sleep_clock.hpp: which nodes sleep, and since when.
//
// A node of a group with `sleep_after` (docs/cluster-format.md) falls asleep
// once no run has held any of its GPUs for sleep_after seconds (from time 0
// for a node never used) and sleeps until a run starts on it. The engine
// asks it which nodes a starting run must wake (each costs the run its
// group's wake_up first); the energy meter, how long each slept (drawing
// sleep_watts in all instead of its base and its GPUs' idle draw). Both
// follow runs starting and ending on GPUs, so they agree.
//
//   NodeSleepClock clock = NodeSleepClock::of(layout);
//   const std::vector<NodeId> nodes = clock.nodes_of(gpus);
//   if (clock.asleep(nodes[0], now)) ...  // before the run starts
//   clock.started(nodes, now, [&](NodeId n, Time from) { ... });  // n slept from `from` to now
//   clock.ended(nodes, later);
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

class NodeSleepClock {
 public:
  /// `gpu_node`: each GPU's node; `sleep_after`: each node's group's (kNever: never sleeps).
  NodeSleepClock(std::vector<NodeId> gpu_node, std::vector<Time> sleep_after);
  static NodeSleepClock of(const ClusterLayout& layout);

  /// Whether any node can sleep (else nothing here needs to run).
  bool any() const { return any_; }
  /// The nodes of `gpus`, each once, in the order first met.
  std::vector<NodeId> nodes_of(const std::vector<GpuId>& gpus) const;
  /// Whether `node` sleeps at `now`: no run holds it and none has for its sleep_after.
  bool asleep(NodeId node, Time now) const;
  /// A run began on `nodes` at `now`; `slept(node, from)` for each of them
  /// that slept from `from` until now.
  void started(const std::vector<NodeId>& nodes, Time now, const std::function<void(NodeId, Time)>& slept);
  /// A run on `nodes` ended at `now`.
  void ended(const std::vector<NodeId>& nodes, Time now);
  /// `slept(node, from)` for each node asleep at `end`, since `from`.
  void asleep_at_end(Time end, const std::function<void(NodeId, Time)>& slept) const;

 private:
  std::vector<NodeId> gpu_node_;
  std::vector<Time> sleep_after_;    // by node; kNever: never sleeps
  std::vector<std::uint32_t> runs_;  // by node: runs holding it
  std::vector<Time> idle_since_;     // by node, while no run holds it
  bool any_ = false;
};

}  // namespace gcsim
