// place_or_preempt.hpp: one waiting job of a preempting policy starts on
// free GPUs, or on GPUs its victims free, or waits.
//
// Preempting policies that walk their waiting jobs in an order of their own
// (srtf, tiresias) give each job this step: it is placed on the GPUs free now
// when they are enough; otherwise, when the free GPUs and those its possible
// victims hold together reach its size, victims are freed in the policy's
// order until it fits (make_room, preemption_room.hpp). The policy says who
// may be a victim: `victim_gpus`, the GPUs they hold, and `victims`, called
// only when preempting is tried, which returns the walk of them in its order.
// What the plan and the policy's own books record is left to the policy.
//
//   RoomForJob room = place_or_preempt(spec, spare, victim_gpus, [&] { return walk_of_victims(job); },
//                                      ctx.jobs, cluster, placement, taken);
//   for (JobIndex victim : room.victims) plan.preempt(victim);  // before the allocation that uses their GPUs
//   if (room.gpus) plan.allocate(job, *room.gpus);
#pragma once

#include <cstddef>
#include <vector>

#include "policies/kit/preemption_room.hpp"
#include "policies/kit/tentative_cluster.hpp"
#include "sim/core/policy.hpp"

namespace gcsim {

/// `free_gpus`: GPUs free (or freed) and not promised in this call;
/// `victim_gpus`: GPUs the job's possible victims hold. On free GPUs the
/// result has the job's GPUs and no victim; through preemption, its GPUs and
/// the victims whose GPUs (or host room) it takes, which `cluster` shows
/// freed; with no placement, neither, and `cluster` is as it was.
/// `victims()` returns a NextCandidate; it is called at most once, and not
/// when the job fits on free GPUs or cannot fit at all.
template <typename VictimWalk>
RoomForJob place_or_preempt(const JobSpec& job, std::size_t free_gpus, std::size_t victim_gpus,
                            const VictimWalk& victims, const QueueView& jobs, TentativeCluster& cluster,
                            const PlacementPolicy& placement, const std::vector<bool>& taken) {
  if (job.gpus <= free_gpus) {
    if (auto gpus = placement.place(job, cluster, taken)) return {std::move(gpus), {}};
  }
  if (job.gpus > free_gpus + victim_gpus) return {};
  return make_room(job, victims(), jobs, cluster, placement, taken, free_gpus);
}

}  // namespace gcsim
