// occupied_cluster.hpp: a crafted cluster with some GPUs already held by
// running jobs, as placement tests need it: the view a placement sees and a
// shorthand to place one job on it.
//
//   OccupiedCluster c(spec, {{0, 1}, {4}});  // one job holds GPUs 0 and 1, another GPU 4
//   auto gpus = c.place(SpreadPlacement(), 3);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/policy.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace gcsim::testing {

class OccupiedCluster {
 public:
  /// Every list of `held` GPUs is owned by one running job.
  OccupiedCluster(const ClusterSpec& spec, const std::vector<std::vector<GpuId>>& held)
      : layout_(spec), graph_(layout_), jobs_(holders(held)), state_(layout_, graph_, jobs_) {
    Plan plan;
    for (JobIndex j = 0; j < jobs_.size(); ++j) {
      state_.submit(j);
      plan.allocate(j, held[j]);
    }
    state_.apply(plan, 0.0);
  }

  const ClusterView& view() const { return state_; }
  const ClusterLayout& layout() const { return layout_; }
  const ClusterGraph& graph() const { return graph_; }

  /// Places a job of `gpus` GPUs of at least `memory` bytes each.
  std::optional<std::vector<GpuId>> place(const PlacementPolicy& placement, std::uint32_t gpus, double memory = 0,
                                          const std::vector<bool>& taken = {}) const {
    JobSpec job;
    job.id = "placed";
    job.gpus = gpus;
    job.gpu_memory_bytes = memory;
    return placement.place(job, state_, taken);
  }

 private:
  static std::vector<JobSpec> holders(const std::vector<std::vector<GpuId>>& held) {
    std::vector<JobSpec> jobs;
    for (std::size_t i = 0; i < held.size(); ++i) {
      JobSpec job;
      job.id = "holder-" + std::to_string(i);
      job.gpus = static_cast<std::uint32_t>(held[i].size());
      jobs.push_back(job);
    }
    return jobs;
  }

  ClusterLayout layout_;
  ClusterGraph graph_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

}  // namespace gcsim::testing
