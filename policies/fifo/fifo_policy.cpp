#include "policies/fifo/fifo_policy.hpp"

#include <stdexcept>

namespace gcsim {

FifoPolicy::FifoPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("fifo needs a placement policy");
}

void FifoPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  std::vector<bool> taken(ctx.cluster.layout().gpu_count(), false);
  for (JobIndex job : ctx.jobs.waiting()) {
    auto gpus = placement_->place(ctx.jobs.spec(job), ctx.cluster, taken);
    if (!gpus) return;  // head-of-line blocking
    for (GpuId g : *gpus) taken[g] = true;
    plan.allocate(job, std::move(*gpus));
  }
}

}  // namespace gcsim
