#include "policies/fifo/fifo_policy.hpp"

#include <algorithm>
#include <stdexcept>

#include "policies/kit/preemption_room.hpp"
#include "policies/kit/spot_victims.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

FifoPolicy::FifoPolicy(std::unique_ptr<PlacementPolicy> placement, FifoOptions options)
    : placement_(std::move(placement)), options_(options) {
  if (!placement_) throw std::invalid_argument("fifo needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> FifoPolicy::create(const PolicyOptions& options,
                                                     std::unique_ptr<PlacementPolicy> placement) {
  FifoOptions fifo;
  fifo.preempt_spot = options.flag("preempt_spot", true);
  if (const auto order = options.find("order"); order != options.end()) {
    if (order->second != "submission" && order->second != "priority")
      throw std::invalid_argument("option order must be submission or priority, got '" + order->second + "'");
    fifo.by_priority = order->second == "priority";
  }
  return std::make_unique<FifoPolicy>(std::move(placement), fifo);
}

bool FifoPolicy::serves_before(const QueueView& jobs, JobIndex a, JobIndex b) const {
  if (options_.by_priority && jobs.spec(a).priority != jobs.spec(b).priority)
    return jobs.spec(a).priority > jobs.spec(b).priority;
  const Time a_submitted = jobs.runtime(a).submitted, b_submitted = jobs.runtime(b).submitted;
  if (a_submitted != b_submitted) return a_submitted < b_submitted;
  return a < b;
}

void FifoPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  // What the jobs placed so far in this call leave free, shares of shared GPUs included.
  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;
  const auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));
    plan.allocate(job, std::move(gpus));
  };
  const auto in_order = [&](std::vector<JobIndex>& jobs) {
    std::stable_sort(jobs.begin(), jobs.end(), [&](JobIndex a, JobIndex b) { return serves_before(ctx.jobs, a, b); });
  };
  std::vector<JobIndex> sorted;
  if (options_.by_priority) {
    sorted = ctx.jobs.waiting();
    in_order(sorted);
  }
  const std::vector<JobIndex>& waiting = options_.by_priority ? sorted : ctx.jobs.waiting();

  if (!spot_jobs_) spot_jobs_ = options_.preempt_spot && holds_spot_jobs(ctx.jobs);
  if (!*spot_jobs_) {
    for (JobIndex job : waiting) {
      auto gpus = placement_->place(ctx.jobs.spec(job), cluster, none_taken);
      if (!gpus) return;  // head-of-line blocking
      start(job, std::move(*gpus));
    }
    return;
  }

  // Guaranteed jobs first, each preempting spot jobs if it must; the first
  // that cannot start blocks the guaranteed jobs behind it.
  SpotVictims victims(ctx.jobs);
  std::vector<JobIndex> spot_line;
  bool blocked = false;
  for (JobIndex job : waiting) {
    const JobSpec& spec = ctx.jobs.spec(job);
    if (is_spot(spec)) {
      spot_line.push_back(job);
      continue;
    }
    if (blocked) continue;
    auto gpus = placement_->place(spec, cluster, none_taken);
    if (!gpus) {
      RoomForJob room =
          make_room(spec, victims.walk(), ctx.jobs, cluster, *placement_, none_taken, cluster.free_gpu_count());
      for (JobIndex victim : room.victims) {
        plan.preempt(victim);
        victims.taken(victim);
        spot_line.push_back(victim);
      }
      gpus = std::move(room.gpus);
    }
    if (!gpus) {
      blocked = true;
      continue;
    }
    start(job, std::move(*gpus));
  }
  // Then the spot jobs on what is left, the ones just preempted at their place.
  in_order(spot_line);
  for (JobIndex job : spot_line) {
    auto gpus = placement_->place(ctx.jobs.spec(job), cluster, none_taken);
    if (!gpus) return;
    start(job, std::move(*gpus));
  }
}

}  // namespace gcsim
