#include "policies/kit/preemption_room.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/core/node_fit.hpp"

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
  // Each node of the job's placement, and what the job would claim of it.
  std::vector<std::pair<NodeId, NodeClaim>> job_nodes;
  if (room.gpus) {
    std::vector<std::pair<NodeId, std::size_t>> gpus_per_node;
    for (GpuId g : *room.gpus) {
      const NodeId node = cluster.layout().node_of(g);
      const auto it = std::find_if(gpus_per_node.begin(), gpus_per_node.end(),
                                   [&](const auto& counted) { return counted.first == node; });
      if (it == gpus_per_node.end())
        gpus_per_node.emplace_back(node, 1);
      else
        ++it->second;
    }
    for (const auto& [node, count] : gpus_per_node) job_nodes.emplace_back(node, node_claim(job, count));
  }
  for (JobIndex candidate : tried) {
    const std::vector<GpuId>& held = jobs.runtime(candidate).gpus;
    const bool used = room.gpus && std::any_of(held.begin(), held.end(), [&](GpuId g) {
                        return std::find(room.gpus->begin(), room.gpus->end(), g) != room.gpus->end();
                      });
    if (!used) {
      cluster.take(held, jobs.spec(candidate));
      // A victim whose GPUs the job does not use may still hold host room the
      // job needs on a node it uses (the job's claim is not taken in
      // `cluster` yet, so it is counted here), or count there against the
      // job's anti-affinity: then it goes too.
      const bool host_needed =
          room.gpus && std::any_of(job_nodes.begin(), job_nodes.end(), [&](const auto& job_node) {
            const auto& [node, claim] = job_node;
            return !claim.fits_in(cluster.free_host(node)) ||
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
