#include "policies/kit/preemption_room.hpp"

#include <algorithm>

namespace gcsim {

RoomForJob make_room(const JobSpec& job, const std::vector<JobIndex>& candidates, const QueueView& jobs,
                     TentativeCluster& cluster, const PlacementPolicy& placement, const std::vector<bool>& taken,
                     std::size_t free_gpus) {
  RoomForJob room;
  std::size_t tried = 0, available = free_gpus;
  while (tried < candidates.size() && !room.gpus) {
    const std::vector<GpuId>& held = jobs.runtime(candidates[tried++]).gpus;
    cluster.free(held);
    available += held.size();
    if (available >= job.gpus) room.gpus = placement.place(job, cluster, taken);
  }
  for (std::size_t k = 0; k < tried; ++k) {
    const std::vector<GpuId>& held = jobs.runtime(candidates[k]).gpus;
    const bool used = room.gpus && std::any_of(held.begin(), held.end(), [&](GpuId g) {
                        return std::find(room.gpus->begin(), room.gpus->end(), g) != room.gpus->end();
                      });
    if (used) {
      room.used.push_back(k);
    } else {
      cluster.take(held);
    }
  }
  return room;
}

}  // namespace gcsim
