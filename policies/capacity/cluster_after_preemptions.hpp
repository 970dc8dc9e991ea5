// cluster_after_preemptions.hpp: the cluster as it will be once the jobs a
// plan preempts have stopped, for placing jobs on their GPUs in the same plan.
//
// Plans apply in order, so a preemption recorded before an allocation frees
// the victim's GPUs for it; the placement, though, sees only a ClusterView.
// This view shows the victims' GPUs as free.
//
//   ClusterAfterPreemptions view(ctx.cluster);
//   plan.preempt(victim);
//   view.release(ctx.jobs.runtime(victim).gpus);
//   placement.place(job, view, taken);
#pragma once

#include <vector>

#include "sim/core/scheduler_state.hpp"

namespace gcsim {

class ClusterAfterPreemptions final : public ClusterView {
 public:
  explicit ClusterAfterPreemptions(const ClusterView& base);

  const ClusterLayout& layout() const override { return base_.layout(); }
  const Locality& locality() const override { return base_.locality(); }
  bool is_free(GpuId gpu) const override { return freed_[gpu] || base_.is_free(gpu); }
  JobIndex owner(GpuId gpu) const override { return freed_[gpu] ? kNoJob : base_.owner(gpu); }
  std::size_t free_gpu_count() const override { return free_total_; }
  std::size_t free_gpus_on_node(NodeId node) const override { return free_per_node_[node]; }

  /// Shows these GPUs (held by a job being preempted) as free.
  void release(const std::vector<GpuId>& gpus);

 private:
  const ClusterView& base_;
  std::vector<bool> freed_;
  std::vector<std::size_t> free_per_node_;
  std::size_t free_total_;
};

}  // namespace gcsim
