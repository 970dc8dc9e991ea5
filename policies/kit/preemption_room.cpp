#include "policies/kit/preemption_room.hpp"

#include <algorithm>

namespace gcsim {

RoomForJob make_room(const JobSpec& job, const std::vector<JobIndex>& candidates, const QueueView& jobs,
                     TentativeCluster& cluster, const PlacementPolicy& placement, const std::vector<bool>& taken,
                     std::size_t free_gpus) {
  RoomForJob room;
  std::size_t tried = 0, available = free_gpus;
  while (tried < candidates.size() && !room.gpus) {
    const JobIndex victim = candidates[tried++];
    cluster.free(jobs.runtime(victim).gpus, jobs.spec(victim));
    const std::vector<GpuId>& held = jobs.runtime(victim).gpus;
    available += held.size();
    if (available >= job.gpus) room.gpus = placement.place(job, cluster, taken);
  }
  for (std::size_t k = 0; k < tried; ++k) {
    const std::vector<GpuId>& held = jobs.runtime(candidates[k]).gpus;
    const bool used = room.gpus && std::any_of(held.begin(), held.end(), [&](GpuId g) {
                        return std::find(room.gpus->begin(), room.gpus->end(), g) != room.gpus->end();
                      });
    if (!used) {
      cluster.take(held, jobs.spec(candidates[k]));
      // A victim whose GPUs the job does not use may still hold cores or
      // memory on a node the job uses: then it goes too.
      const bool host_needed = room.gpus && std::any_of(room.gpus->begin(), room.gpus->end(), [&](GpuId g) {
                                 const NodeClaim free = cluster.free_host(cluster.layout().node_of(g));
                                 return free.millicores < 0 || free.memory_bytes < 0;
                               });
      if (!host_needed) continue;
      cluster.free(held, jobs.spec(candidates[k]));
    }
    room.used.push_back(k);
  }
  return room;
}

}  // namespace gcsim
