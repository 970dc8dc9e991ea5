// preemption_room.hpp: preempt just enough running jobs for one job to fit.
//
// Preempting policies share this step: free the candidates' GPUs one by one,
// in the policy's order, in a TentativeCluster until the placement finds GPUs
// for the job; then keep only the candidates whose GPUs it actually uses and
// give the others' GPUs back. When no placement is found, every tried
// candidate is given back and nothing is to be preempted.
//
//   RoomForJob room = make_room(spec, victims, jobs, cluster, placement, taken, free_gpus);
//   for (std::size_t k : room.used) plan.preempt(victims[k]);
#pragma once

#include <optional>
#include <vector>

#include "sim/core/policy.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

struct RoomForJob {
  std::optional<std::vector<GpuId>> gpus;  // the job's placement, when found
  std::vector<std::size_t> used;           // positions in `candidates` whose GPUs it takes
};

/// `free_gpus`: GPUs usable before any preemption (the placement is only
/// asked once freed plus free GPUs reach the job's size).
RoomForJob make_room(const JobSpec& job, const std::vector<JobIndex>& candidates, const QueueView& jobs,
                     TentativeCluster& cluster, const PlacementPolicy& placement, const std::vector<bool>& taken,
                     std::size_t free_gpus);

}  // namespace gcsim
