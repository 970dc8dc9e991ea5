#include "policies/fifo/fifo_policy.hpp"

#include <stdexcept>

#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

FifoPolicy::FifoPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("fifo needs a placement policy");
}

void FifoPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  // What the jobs placed so far in this call leave free, shares of shared GPUs included.
  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;
  for (JobIndex job : ctx.jobs.waiting()) {
    const JobSpec& spec = ctx.jobs.spec(job);
    auto gpus = placement_->place(spec, cluster, none_taken);
    if (!gpus) return;  // head-of-line blocking
    cluster.take(*gpus, spec);
    plan.allocate(job, std::move(*gpus));
  }
}

}  // namespace gcsim
