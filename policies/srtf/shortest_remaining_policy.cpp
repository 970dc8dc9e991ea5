#include "policies/srtf/shortest_remaining_policy.hpp"

#include "policies/kit/preemption_room.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "policies/kit/preemption_room.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {
namespace {

// A job in the call's order: shortest remaining time first, then earliest
// submission, then workload order.
struct Entry {
  Time remaining;
  Time submit;
  JobIndex job;
  bool running;
  std::size_t slot = 0;  // a running job's index in QueueView::running(); not part of the order
  bool operator<(const Entry& other) const {
    // Equal keys: the running entry first.
    return std::tie(remaining, submit, job, other.running) <
           std::tie(other.remaining, other.submit, other.job, running);
  }
};

}  // namespace

ShortestRemainingPolicy::ShortestRemainingPolicy(std::unique_ptr<PlacementPolicy> placement, bool preemptive)
    : placement_(std::move(placement)), preemptive_(preemptive) {
  if (!placement_) throw std::invalid_argument("srtf needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> ShortestRemainingPolicy::create(const PolicyOptions& options,
                                                                  std::unique_ptr<PlacementPolicy> placement) {
  return std::make_unique<ShortestRemainingPolicy>(std::move(placement), options.flag("preemptive", true));
}

Time ShortestRemainingPolicy::run_time(const QueueView& jobs, JobIndex job) {
  const Time oracle = jobs.oracle_duration(job);
  if (oracle == kNever) return kNever;
  const double saved = jobs.runtime(job).saved_fraction;
  return oracle * (1 - saved) + (saved > 0 ? jobs.spec(job).checkpoint.restore_cost : 0);
}

Time ShortestRemainingPolicy::remaining_time(const QueueView& jobs, JobIndex job, Time now) {
  const Time run = run_time(jobs, job);
  const JobRuntime& rt = jobs.runtime(job);
  if (rt.state != JobState::kRunning || run == kNever) return run;
  return std::max(0.0, run - (now - rt.start));
}

void ShortestRemainingPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const std::vector<JobIndex>& running = ctx.jobs.running();
  if (ctx.jobs.waiting().empty()) return;
  TentativeCluster cluster(ctx.cluster);  // victims' GPUs shown free while they are tried
  std::vector<bool> taken(ctx.cluster.layout().gpu_count(), false);
  std::size_t spare = ctx.cluster.free_gpu_count();  // free (or freed) and not promised in this plan

  // Running jobs neither kept nor preempted yet: the only possible victims.
  enum class Fate { kUndecided, kKept, kPreempted };
  std::vector<Fate> fate(running.size(), Fate::kUndecided);
  std::vector<Time> running_remaining(running.size());
  std::size_t undecided_gpus = 0;

  std::set<Entry> order;
  for (std::size_t i = 0; i < running.size(); ++i) {
    const JobIndex job = running[i];
    running_remaining[i] = remaining_time(ctx.jobs, job, ctx.now);
    undecided_gpus += ctx.jobs.runtime(job).gpus.size();
    order.insert({running_remaining[i], ctx.jobs.spec(job).submit, job, true, i});
  }
  for (JobIndex job : ctx.jobs.waiting())
    order.insert({remaining_time(ctx.jobs, job, ctx.now), ctx.jobs.spec(job).submit, job, false});

  auto allocate = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));  // its host cores and memory too
    for (GpuId g : gpus) taken[g] = true;
    spare -= gpus.size();
    plan.allocate(job, std::move(gpus));
  };

  while (!order.empty()) {
    const Entry entry = *order.begin();
    order.erase(order.begin());
    if (entry.running) {
      fate[entry.slot] = Fate::kKept;
      undecided_gpus -= ctx.jobs.runtime(entry.job).gpus.size();
      continue;
    }
    const JobSpec& spec = ctx.jobs.spec(entry.job);
    if (spec.gpus <= spare) {
      if (auto gpus = placement_->place(spec, cluster, taken)) {
        allocate(entry.job, std::move(*gpus));
        continue;
      }
    }
    if (!preemptive_) {
      if (spare == 0) break;
      continue;
    }
    if (spec.gpus > spare + undecided_gpus) continue;

    // Victims: undecided running jobs with strictly longer remaining times.
    std::vector<std::size_t> victims;
    std::size_t victim_gpus = 0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (fate[i] != Fate::kUndecided || !(running_remaining[i] > entry.remaining)) continue;
      victims.push_back(i);
      victim_gpus += ctx.jobs.runtime(running[i]).gpus.size();
    }
    if (spec.gpus > spare + victim_gpus) continue;
    std::sort(victims.begin(), victims.end(), [&](std::size_t a, std::size_t b) {
      const Entry ea{running_remaining[a], ctx.jobs.spec(running[a]).submit, running[a], true};
      const Entry eb{running_remaining[b], ctx.jobs.spec(running[b]).submit, running[b], true};
      return eb < ea;  // longest remaining first
    });

    // Free the longest-remaining victims one by one until the job can be placed.
    std::vector<JobIndex> candidates;
    for (std::size_t i : victims) candidates.push_back(running[i]);
    RoomForJob room = make_room(spec, candidates, ctx.jobs, cluster, *placement_, taken, spare);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (std::size_t k : room.used) {
      const std::size_t i = victims[k];
      const JobIndex victim = running[i];
      const std::vector<GpuId>& held = ctx.jobs.runtime(victim).gpus;
      plan.preempt(victim);
      fate[i] = Fate::kPreempted;
      undecided_gpus -= held.size();
      spare += held.size();
      order.erase({running_remaining[i], ctx.jobs.spec(victim).submit, victim, true, i});
      // Back in the order as a waiting job (see the file comment).
      order.insert({run_time(ctx.jobs, victim), ctx.jobs.spec(victim).submit, victim, false});
    }
    if (gpus) allocate(entry.job, std::move(*gpus));
  }
}

}  // namespace gcsim
