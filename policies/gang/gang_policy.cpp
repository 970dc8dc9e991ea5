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

// The sizes of the waiting jobs, kept across calls from the jobs that joined
// and left the queue.
void GangPolicy::update_sizes(const QueueView& jobs) {
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.left) {
    const JobSpec& spec = jobs.spec(job);
    if (spec.gpu_share < 1) {
      --waiting_fractional_;
    } else {
      waiting_sizes_.erase(waiting_sizes_.find(spec.gpus));
    }
  }
  for (JobIndex job : delta.joined) {
    const JobSpec& spec = jobs.spec(job);
    if (spec.gpu_share < 1) {
      ++waiting_fractional_;
    } else {
      waiting_sizes_.insert(spec.gpus);
    }
  }
}

void GangPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  update_sizes(ctx.jobs);
  RoomLeft room(ctx.cluster);  // what the jobs committed so far in this call leave
  const std::vector<bool> none_taken;
  for (JobIndex job : ctx.jobs.waiting()) {
    if (room.none()) return;
    // Every waiting job asks whole GPUs, more than are free: none can start.
    // (The sizes still count the jobs committed in this call: a smaller
    // smallest size only stops the walk later.)
    if (waiting_fractional_ == 0 && !waiting_sizes_.empty() && *waiting_sizes_.begin() > room.view().free_gpu_count())
      return;
    const JobSpec& spec = ctx.jobs.spec(job);
    GangReservation reservation(job, spec.gpus);
    // A job that cannot reach its quorum need not ask the placement.
    if (room.may_fit(spec))
      if (auto gpus = placement_->place(spec, room.view(), none_taken)) reservation.reserve(*gpus);
    if (reservation.commit_or_roll_back(plan, room, spec)) {
      changes_.noted(job);
    } else if (head_blocking_) {
      return;
    }
  }
}

}  // namespace gcsim
