// tentative_cluster.hpp: the cluster as it would be after some decisions of
// the plan being built.
//
// Preempting policies ask "would this job fit if I preempted those?". A
// TentativeCluster answers through the ordinary ClusterView interface, so
// any placement can be asked: GPUs marked freed look free, GPUs marked taken
// look busy, the real state is untouched.
//
//   TentativeCluster what_if(ctx.cluster);
//   what_if.free(ctx.jobs.runtime(victim).gpus);
//   auto gpus = placement.place(job, what_if, no_gpus_taken);
#pragma once

#include <vector>

#include "sim/core/scheduler_state.hpp"

namespace gcsim {

class TentativeCluster final : public ClusterView {
 public:
  explicit TentativeCluster(const ClusterView& base);

  /// GPUs a preemption or release in the plan would free.
  void free(const std::vector<GpuId>& gpus);
  /// GPUs an allocation in the plan would take.
  void take(const std::vector<GpuId>& gpus);

  const ClusterLayout& layout() const override { return base_.layout(); }
  const Locality& locality() const override { return base_.locality(); }
  bool is_free(GpuId gpu) const override { return free_[gpu]; }
  /// The holder in the real state, kNoJob for GPUs freed here; GPUs taken
  /// here report kNoJob too unless they were held before.
  JobIndex owner(GpuId gpu) const override { return free_[gpu] ? kNoJob : base_.owner(gpu); }
  std::size_t free_gpu_count() const override { return free_total_; }
  std::size_t free_gpus_on_node(NodeId node) const override { return free_per_node_[node]; }

 private:
  void set(GpuId gpu, bool free);

  const ClusterView& base_;
  std::vector<bool> free_;
  std::vector<std::size_t> free_per_node_;
  std::size_t free_total_;
};

}  // namespace gcsim
