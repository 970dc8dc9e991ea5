#include "policies/kit/preemption_room.hpp"

#include <algorithm>

namespace gcsim {

RoomForJob make_room(const JobSpec& job, const NextCandidate& next, const QueueView& jobs, TentativeCluster& cluster,
                     const PlacementPolicy& placement, const std::vector<bool>& taken, std::size_t free_gpus) {
  RoomForJob room;
  std::vector<JobIndex> tried;
  std::size_t available = free_gpus;
  while (!room.gpus) {
    const std::optional<JobIndex> victim = next();
    if (!victim) break;
    tried.push_back(*victim);
    const std::vector<GpuId>& held = jobs.runtime(*victim).gpus;
    cluster.free(held, jobs.spec(*victim));
    available += held.size();
    if (available >= job.gpus) room.gpus = placement.place(job, cluster, taken);
  }
  for (JobIndex candidate : tried) {
    const std::vector<GpuId>& held = jobs.runtime(candidate).gpus;
    const bool used = room.gpus && std::any_of(held.begin(), held.end(), [&](GpuId g) {
                        return std::find(room.gpus->begin(), room.gpus->end(), g) != room.gpus->end();
                      });
    if (!used) {
      cluster.take(held, jobs.spec(candidate));
      // A victim whose GPUs the job does not use may still hold cores or
      // memory on a node the job uses: then it goes too.
      const bool host_needed = room.gpus && std::any_of(room.gpus->begin(), room.gpus->end(), [&](GpuId g) {
                                 const NodeClaim free = cluster.free_host(cluster.layout().node_of(g));
                                 return free.millicores < 0 || free.memory_bytes < 0;
                               });
      if (!host_needed) continue;
      cluster.free(held, jobs.spec(candidate));
    }
    room.victims.push_back(candidate);
  }
  return room;
}

}  // namespace gcsim
