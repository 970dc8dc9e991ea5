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
      // A victim whose GPUs the job does not use may still hold host room on
      // a node the job uses, or count there against the job's anti-affinity:
      // then it goes too.
      const bool host_needed =
          room.gpus && std::any_of(room.gpus->begin(), room.gpus->end(), [&](GpuId g) {
            const NodeId node = cluster.layout().node_of(g);
            return !cluster.free_host(node).none_negative() ||
                   (has_anti_affinity(job) &&
                    cluster.instances_on_node(job.application->name, node) >= job.application->max_per_node);
          });
      if (!host_needed) continue;
      cluster.free(held, jobs.spec(candidate));
    }
    room.victims.push_back(candidate);
  }
  return room;
}

}  // namespace gcsim
