// preemption_room.hpp: preempt just enough running jobs for one job to fit.
//
// Preempting policies share this step: free the candidates' GPUs one by one,
// in the policy's order, in a TentativeCluster until the placement finds GPUs
// for the job; then keep only the candidates whose GPUs it actually uses, or
// whose host cores, memory, RDMA or disk it needs beside its own claim on a
// node it goes to (or whose instance there counts against its anti-affinity),
// and give the others' GPUs back. When no placement is found, every tried
// candidate is given back and nothing is to be preempted.
//
// The candidates are drawn one at a time, so a policy hands over its order
// (a walk of its running jobs) rather than a list of them all: a job that
// fits once a few are freed costs those few, not every running job.
//
//   RoomForJob room = make_room(spec, next_victim, jobs, cluster, placement, taken, free_gpus);
//   for (JobIndex victim : room.victims) plan.preempt(victim);
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "sim/core/policy.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

struct RoomForJob {
  std::optional<std::vector<GpuId>> gpus;  // the job's placement, when found
  std::vector<JobIndex> victims;           // the candidates whose GPUs (or host room) it takes, in the order drawn
};

/// The next candidate in the policy's order, or nullopt when there is none.
using NextCandidate = std::function<std::optional<JobIndex>()>;

/// `free_gpus`: GPUs usable before any preemption (the placement is only
/// asked once freed plus free GPUs reach the job's size). Draws candidates
/// from `next` until the job is placed or none is left.
RoomForJob make_room(const JobSpec& job, const NextCandidate& next, const QueueView& jobs, TentativeCluster& cluster,
                     const PlacementPolicy& placement, const std::vector<bool>& taken, std::size_t free_gpus);

}  // namespace gcsim
