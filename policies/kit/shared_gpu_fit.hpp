// shared_gpu_fit.hpp: where a job asking a fraction of a GPU goes.
//
// A job with JobSpec::gpu_share < 1 needs `gpus` distinct GPUs, each with at
// least that share and its gpu_memory left free. Best fit: GPUs already
// shared come first, the fullest first, so that fractional jobs pack together
// and whole GPUs stay free for whole-GPU jobs; then free GPUs on the nodes
// with the fewest free GPUs. Ties go to the lower GPU id. Every built-in
// placement hands fractional jobs to this rule: packing or spreading whole
// GPUs is their own choice, but a shared GPU has no ring to optimise.
//
//   if (job.gpu_share < 1) return fit_on_shared_gpus(job, cluster, taken);
#pragma once

#include <optional>
#include <vector>

#include "sim/core/cluster_view.hpp"
#include "sim/core/job_spec.hpp"

namespace gcsim {

/// GPUs for the fractional job `job` among those `cluster` leaves room on and
/// not in `taken`, in ascending id order (the ring order); nullopt when fewer
/// than job.gpus GPUs have room. Cost: O(nodes) for the hosts' room, then
/// O(p) over the p partly free GPUs, plus O(log p) per one looked at in
/// best-first order; the free GPUs only when the partly free ones are too
/// few, node by node: O(nodes log nodes) to order the nodes, then the GPUs
/// looked at.
std::optional<std::vector<GpuId>> fit_on_shared_gpus(const JobSpec& job, const ClusterView& cluster,
                                                     const std::vector<bool>& taken);

/// A quick test before asking a placement, for policies that try many jobs
/// in one call: how many GPUs have at least a given share free, kept up to
/// date as the call's jobs take theirs. A job for which too few have room
/// cannot be placed, and the placement (a visit of every GPU with room) is
/// not asked.
///
///   GpuRoom room(cluster);
///   if (!room.may_fit(spec)) continue;  // no placement can succeed
///   ... cluster.take(*gpus, spec); room.take(*gpus, spec);
class GpuRoom {
 public:
  explicit GpuRoom(const ClusterView& cluster);
  /// Whether job.gpus GPUs each have the job's share free (memory not counted).
  bool may_fit(const JobSpec& job) const;
  /// `job` took its share of these GPUs.
  void take(const std::vector<GpuId>& gpus, const JobSpec& job);
  /// `job` gave its share of these GPUs back.
  void release(const std::vector<GpuId>& gpus, const JobSpec& job);

 private:
  void set(GpuId gpu, double free_share);

  std::vector<double> by_gpu_;       // free share of each GPU
  std::vector<double> free_shares_;  // those above nothing, ascending
};

}  // namespace gcsim
