#include "policies/gang/gang_policy.hpp"

#include <optional>
#include <stdexcept>

#include "policies/placement/shared_gpu_fit.hpp"
#include "sim/core/tentative_cluster.hpp"

namespace gcsim {

bool GangReservation::commit_or_roll_back(Plan& plan, TentativeCluster& cluster, const JobSpec& job) {
  if (!has_quorum()) {
    gpus_.clear();
    return false;
  }
  cluster.take(gpus_, job);
  plan.allocate(job_, std::move(gpus_));
  gpus_.clear();
  return true;
}

GangPolicy::GangPolicy(std::unique_ptr<PlacementPolicy> placement, bool head_blocking)
    : placement_(std::move(placement)), head_blocking_(head_blocking) {
  if (!placement_) throw std::invalid_argument("gang needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> GangPolicy::create(const PolicyOptions& options,
                                                     std::unique_ptr<PlacementPolicy> placement) {
  bool head_blocking = false;
  if (auto it = options.find("head_blocking"); it != options.end()) {
    if (it->second != "true" && it->second != "false")
      throw std::invalid_argument("gang: option head_blocking must be true or false, got '" + it->second + "'");
    head_blocking = it->second == "true";
  }
  return std::make_unique<GangPolicy>(std::move(placement), head_blocking);
}

void GangPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  // What the jobs committed so far in this call leave free, shares of shared GPUs included.
  TentativeCluster cluster(ctx.cluster);
  std::optional<GpuRoom> room;  // built when the first fractional job asks
  const std::vector<bool> none_taken;
  for (JobIndex job : ctx.jobs.waiting()) {
    if (cluster.free_gpu_count() == 0 && cluster.partly_free_gpu_count() == 0) return;
    const JobSpec& spec = ctx.jobs.spec(job);
    GangReservation reservation(job, spec.gpus);
    // A job that cannot reach its quorum (more GPUs than are free, or than
    // have its share free) need not ask the placement.
    bool may_fit = spec.gpus <= cluster.free_gpu_count();
    if (spec.gpu_share < 1) {
      if (!room) room.emplace(cluster);
      may_fit = room->may_fit(spec);
    }
    if (may_fit)
      if (auto gpus = placement_->place(spec, cluster, none_taken)) reservation.reserve(*gpus);
    const std::vector<GpuId> reserved = reservation.gpus();
    if (reservation.commit_or_roll_back(plan, cluster, spec)) {
      if (room) room->take(reserved, spec);
    } else if (head_blocking_) {
      return;
    }
  }
}

}  // namespace gcsim
