#include "policies/backfill/shared_gpu_backfill.hpp"

#include <algorithm>
#include <vector>

#include "sim/core/tentative_cluster.hpp"

namespace gcsim {

bool any_job_shares_gpus(const QueueView& jobs) {
  const auto shares = [&](JobIndex job) { return jobs.spec(job).gpu_share < 1; };
  return std::any_of(jobs.waiting().begin(), jobs.waiting().end(), shares) ||
         std::any_of(jobs.running().begin(), jobs.running().end(), shares);
}

namespace {

struct Release {
  Time end;
  JobIndex job;
  std::vector<GpuId> gpus;
};

}  // namespace

void backfill_on_shared_gpus(const SchedulingContext& ctx, const PlacementPolicy& placement,
                             const std::function<Time(JobIndex)>& estimate, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  const std::vector<bool> none_taken;
  TentativeCluster now_view(ctx.cluster);  // what jobs started in this call leave
  std::vector<Release> releases;
  const auto expected_end = [&](JobIndex job, Time start) {
    const Time est = estimate(job);
    return est == kNever ? kNever : std::max(ctx.now, start + est);
  };
  for (JobIndex job : jobs.running())
    releases.push_back({expected_end(job, jobs.runtime(job).start), job, jobs.runtime(job).gpus});
  const auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    now_view.take(gpus, jobs.spec(job));
    releases.push_back({expected_end(job, ctx.now), job, gpus});
    plan.allocate(job, std::move(gpus));
  };

  // FIFO until the first job that cannot be placed: the head.
  const std::vector<JobIndex>& waiting = jobs.waiting();
  std::size_t head_at = 0;
  for (; head_at < waiting.size(); ++head_at) {
    auto gpus = placement.place(jobs.spec(waiting[head_at]), now_view, none_taken);
    if (!gpus) break;
    start(waiting[head_at], std::move(*gpus));
  }
  if (head_at == waiting.size()) return;
  const JobSpec& head = jobs.spec(waiting[head_at]);

  // The shadow time: give back the expected releases in time order until the head fits.
  std::stable_sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.end < b.end; });
  TentativeCluster at_shadow = now_view;
  Time shadow_time = kNever;
  for (std::size_t i = 0; i < releases.size() && releases[i].end != kNever; ++i) {
    at_shadow.release(releases[i].gpus, jobs.spec(releases[i].job));
    if (i + 1 < releases.size() && releases[i + 1].end == releases[i].end) continue;
    if (placement.place(head, at_shadow, none_taken)) {
      shadow_time = releases[i].end;
      break;
    }
  }

  // Backfill the later jobs, in submission order.
  bool refused_for_reservation = false;
  for (std::size_t i = head_at + 1; i < waiting.size(); ++i) {
    const JobIndex job = waiting[i];
    const JobSpec& spec = jobs.spec(job);
    auto gpus = placement.place(spec, now_view, none_taken);
    if (!gpus) continue;
    const Time est = estimate(job);
    const bool ends_before_shadow = shadow_time != kNever && est != kNever && ctx.now + est <= shadow_time;
    if (!ends_before_shadow) {
      TentativeCluster with_it = at_shadow;
      with_it.take(*gpus, spec);
      if (!placement.place(head, with_it, none_taken)) {
        refused_for_reservation = true;
        continue;
      }
      at_shadow = std::move(with_it);
    }
    start(job, std::move(*gpus));
  }

  // As fifo-backfill: a refused job may fit once a running job outlives the shadow time.
  if (!refused_for_reservation || shadow_time == kNever) return;
  Time next_end = kNever;
  for (const Release& release : releases)
    if (release.end > std::max(ctx.now, shadow_time)) next_end = std::min(next_end, release.end);
  if (next_end != kNever) plan.wake_at(next_end);
}

}  // namespace gcsim
