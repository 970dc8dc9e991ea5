// room_left.hpp: what the jobs placed so far in one scheduling call leave.
//
// Policies that try many waiting jobs in one call (gang, drf, fifo-backfill)
// place each on what the earlier ones left, and skip at once the jobs that
// cannot fit anywhere: a placement scans every GPU, a count does not. A
// RoomLeft is the tentative view placements read together with those counts:
// free GPUs for whole-GPU jobs, and for jobs asking a fraction of a GPU how
// many GPUs have that share free (GpuRoom, built when the first such job asks).
//
//   RoomLeft room(ctx.cluster);
//   for (JobIndex job : ctx.jobs.waiting()) {
//     if (room.none()) break;
//     const JobSpec& spec = ctx.jobs.spec(job);
//     if (!room.may_fit(spec)) continue;
//     if (auto gpus = placement.place(spec, room.view(), {})) { room.take(*gpus, spec); plan.allocate(job, *gpus); }
//   }
#pragma once

#include <optional>
#include <vector>

#include "policies/kit/shared_gpu_fit.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

class RoomLeft {
 public:
  explicit RoomLeft(const ClusterView& cluster) : view_(cluster) {}

  /// The cluster as the jobs placed so far leave it, for the placement.
  const TentativeCluster& view() const { return view_; }
  /// No GPU is free and none has a share left: no job can start.
  bool none() const { return view_.free_gpu_count() == 0 && view_.partly_free_gpu_count() == 0; }
  /// Whether enough GPUs are free (whole-GPU jobs) or have the job's share
  /// free (fractional ones); memory and nodes are the placement's to judge.
  bool may_fit(const JobSpec& job);
  /// `job` takes its share and memory of these GPUs.
  void take(const std::vector<GpuId>& gpus, const JobSpec& job);
  /// `job` gives them back (its expected end, in a view of the future).
  void release(const std::vector<GpuId>& gpus, const JobSpec& job);

 private:
  TentativeCluster view_;
  std::optional<GpuRoom> shares_;  // built when a fractional job first asks
};

}  // namespace gcsim
