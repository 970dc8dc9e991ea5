// cluster_view.hpp: the read-only cluster a policy sees: who holds which GPU,
// what is free on each node, the layout and the locality.
//
// The engine's SchedulerState (sim/state/scheduler_state.hpp) implements
// it; a policy receives it in SchedulingContext (policy.hpp) and never sees
// the writable state. Tests implement it with crafted occupancies.
//
//   for (GpuId g = 0; g < cluster.layout().gpu_count(); ++g)
//     if (cluster.is_free(g) && cluster.layout().node_of(g) == node) ...
#pragma once

#include <cstddef>
#include <functional>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/core/locality.hpp"
#include "sim/core/node_fit.hpp"

namespace gcsim {

/// Shares of a GPU compare with this tolerance: 0.3 + 0.7 fills a GPU.
inline constexpr double kGpuShareTolerance = 1e-9;

/// Read-only cluster occupancy and locality.
class ClusterView {
 public:
  virtual ~ClusterView() = default;
  virtual const ClusterLayout& layout() const = 0;
  virtual const Locality& locality() const = 0;
  /// No job holds any part of the GPU.
  virtual bool is_free(GpuId gpu) const = 0;
  /// The job holding the GPU (the first of them on a shared GPU), or kNoJob.
  virtual JobIndex owner(GpuId gpu) const = 0;
  /// GPUs no job holds any part of, in all and per node.
  virtual std::size_t free_gpu_count() const = 0;
  virtual std::size_t free_gpus_on_node(NodeId node) const = 0;
  /// free_gpus_on_node() of every node in one array, for placements that scan
  /// all nodes: a tight loop over it skips full nodes at a few nanoseconds
  /// each. Valid until the view changes.
  virtual const std::vector<std::size_t>& free_gpus_per_node() const = 0;
  /// The node with the fewest free GPUs among those with at least `need`
  /// (the lowest index among equals), or kNoNode: the best fit for a job
  /// that only GPUs limit. Scans free_gpus_per_node() unless the view keeps
  /// its nodes indexed by free count.
  virtual NodeId fullest_node_with_free(std::size_t need) const;
  /// The part of the GPU not held (1 when free, 0 when a whole-GPU job holds
  /// it), for jobs that ask a fraction of a GPU (JobSpec::gpu_share).
  virtual double free_share(GpuId gpu) const { return is_free(gpu) ? 1.0 : 0.0; }
  /// The GPU's memory not claimed by the jobs sharing it (JobSpec::gpu_memory_bytes).
  virtual double free_memory(GpuId gpu) const { return is_free(gpu) ? layout().gpu_type_of(gpu).memory_bytes : 0.0; }
  /// GPUs held by jobs sharing them that still have a share free: with no
  /// free GPU either, no job can start.
  virtual std::size_t partly_free_gpu_count() const { return 0; }
  /// Calls `visit` for each partly free GPU (held by jobs sharing it, with a
  /// share left), in no particular order: with the free GPUs, the only ones
  /// a fractional job can go to. Scans every GPU unless the view keeps them
  /// listed.
  virtual void visit_partly_free_gpus(const std::function<void(GpuId)>& visit) const;
  /// Calls `visit` for the node's free GPUs from GPU id `from` on (0: all of
  /// them), in ascending order, until it returns false. Scans the node's
  /// GPUs unless the view keeps them listed.
  virtual void visit_free_gpus_of_node(NodeId node, GpuId from, const std::function<bool(GpuId)>& visit) const;
  /// The node's host cores (millicores), memory, RDMA share and disk no job
  /// claims (sim/core/node_fit.hpp: a job's claims split over its GPUs).
  virtual NodeClaim free_host(NodeId node) const { return node_capacity(layout(), node); }
  /// How many jobs of `application` hold GPUs or cores on the node, each
  /// counted once (anti_affinity.hpp).
  virtual std::uint32_t instances_on_node(const std::string& application, NodeId node) const {
    (void)application;
    (void)node;
    return 0;
  }
  /// How many of `job`'s GPUs the node's free host resources, its GPU type,
  /// its role and the job's anti-affinity allow it to take (free GPUs not
  /// counted), the job holding none there yet: placements take at most this
  /// many GPUs of a node.
  std::size_t host_room(const JobSpec& job, NodeId node) const {
    if (!host_or_type_limits(job)) return std::numeric_limits<std::size_t>::max();
    const std::uint32_t instances = has_anti_affinity(job) ? instances_on_node(job.application->name, node) : 0;
    return gpus_that_fit(layout(), job, node, free_host(node), 0, instances);
  }
};

}  // namespace gcsim
