#include "policies/gang/gang_policy.hpp"

#include <stdexcept>

namespace gcsim {

bool GangReservation::commit_or_roll_back(Plan& plan, std::vector<bool>& taken) {
  if (!has_quorum()) {
    gpus_.clear();
    return false;
  }
  for (GpuId g : gpus_) taken[g] = true;
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
  std::vector<bool> taken(ctx.cluster.layout().gpu_count(), false);
  std::size_t free = ctx.cluster.free_gpu_count();
  for (JobIndex job : ctx.jobs.waiting()) {
    if (free == 0) return;
    const JobSpec& spec = ctx.jobs.spec(job);
    GangReservation reservation(job, spec.gpus);
    // A job larger than what is free cannot reach its quorum: no need to ask the placement.
    if (spec.gpus <= free)
      if (auto gpus = placement_->place(spec, ctx.cluster, taken)) reservation.reserve(*gpus);
    if (reservation.commit_or_roll_back(plan, taken)) {
      free -= spec.gpus;
    } else if (head_blocking_) {
      return;
    }
  }
}

}  // namespace gcsim
