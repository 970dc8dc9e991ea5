#include "policies/gang/gang_policy.hpp"

#include <stdexcept>

namespace gcsim {

bool GangReservation::commit_or_roll_back(Plan& plan, RoomLeft& room, const JobSpec& job) {
  if (!has_quorum()) {
    gpus_.clear();
    return false;
  }
  room.take(gpus_, job);
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
  return std::make_unique<GangPolicy>(std::move(placement), options.flag("head_blocking", false));
}

void GangPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  RoomLeft room(ctx.cluster);  // what the jobs committed so far in this call leave
  const std::vector<bool> none_taken;
  for (JobIndex job : ctx.jobs.waiting()) {
    if (room.none()) return;
    const JobSpec& spec = ctx.jobs.spec(job);
    GangReservation reservation(job, spec.gpus);
    // A job that cannot reach its quorum need not ask the placement.
    if (room.may_fit(spec))
      if (auto gpus = placement_->place(spec, room.view(), none_taken)) reservation.reserve(*gpus);
    if (!reservation.commit_or_roll_back(plan, room, spec) && head_blocking_) return;
  }
}

}  // namespace gcsim
