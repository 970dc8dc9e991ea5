#include "policies/backfill/easy_backfill_policy.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "policies/backfill/shared_gpu_backfill.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

HeadReservation reserve_for_head(Time now, std::size_t free_now, std::size_t need,
                                 std::vector<ExpectedRelease> releases) {
  if (free_now >= need) return {now, free_now - need};  // only the placement blocks the head
  // The releases taken earliest first from a heap: only those up to the
  // shadow time are ordered. The sums do not depend on the order of
  // releases at one instant, which all count together.
  auto later = [](const ExpectedRelease& a, const ExpectedRelease& b) { return a.end > b.end; };
  std::make_heap(releases.begin(), releases.end(), later);
  std::size_t free_then = free_now;
  for (auto left = releases.end(); left != releases.begin();) {
    std::pop_heap(releases.begin(), left, later);
    --left;
    const ExpectedRelease release = *left;
    if (release.end == kNever) break;
    free_then += release.gpus;
    // Releases at the same instant all count at the shadow time.
    if (left != releases.begin() && releases.front().end == release.end) continue;
    if (free_then >= need) return {release.end, free_then - need};
  }
  return {kNever, 0};
}

EasyBackfillPolicy::EasyBackfillPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("fifo-backfill needs a placement policy");
}

Time EasyBackfillPolicy::estimate(const QueueView& jobs, JobIndex job) {
  const Time given = jobs.spec(job).runtime_estimate;
  return given > 0 ? given : jobs.oracle_duration(job);
}

void EasyBackfillPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  // The workload does not change during a run: looked at once.
  if (!workload_shares_gpus_) workload_shares_gpus_ = workload_shares_gpus(ctx.jobs);
  if (*workload_shares_gpus_)
    return backfill_on_shared_gpus(
        ctx, *placement_, [&](JobIndex job) { return estimate(ctx.jobs, job); }, plan);
  const ClusterLayout& layout = ctx.cluster.layout();
  const std::vector<JobIndex>& waiting = ctx.jobs.waiting();
  std::vector<bool> taken(layout.gpu_count(), false);
  TentativeCluster cluster(ctx.cluster);  // what the jobs started in this call leave, host cores and memory too
  std::size_t free_count = ctx.cluster.free_gpu_count();         // free and not promised in this plan
  std::vector<std::pair<JobIndex, std::vector<GpuId>>> started;  // in this call

  auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));
    for (GpuId g : gpus) taken[g] = true;
    free_count -= gpus.size();
    started.emplace_back(job, gpus);
    plan.allocate(job, std::move(gpus));
  };

  // FIFO until the first job that cannot be placed: the head.
  std::size_t head_at = 0;
  for (; head_at < waiting.size(); ++head_at) {
    auto gpus = placement_->place(ctx.jobs.spec(waiting[head_at]), cluster, taken);
    if (!gpus) break;
    start(waiting[head_at], std::move(*gpus));
  }
  if (head_at == waiting.size()) return;
  const JobSpec& head = ctx.jobs.spec(waiting[head_at]);

  // The reservation, counting only GPUs the head can use: all of them when
  // every GPU type has the head's memory (no GPU to read then).
  const bool every_gpu_usable = head.gpu_memory_bytes <= layout.smallest_gpu_memory();
  auto usable_by_head = [&](GpuId g) { return layout.gpu_type_of(g).memory_bytes >= head.gpu_memory_bytes; };
  auto count_usable = [&](const std::vector<GpuId>& gpus) {
    if (every_gpu_usable) return gpus.size();
    return static_cast<std::size_t>(std::count_if(gpus.begin(), gpus.end(), usable_by_head));
  };
  std::size_t free_usable = every_gpu_usable ? free_count : 0;
  if (!every_gpu_usable)
    for (GpuId g = 0; g < layout.gpu_count(); ++g)
      if (ctx.cluster.is_free(g) && !taken[g] && usable_by_head(g)) ++free_usable;
  std::size_t free_unusable = free_count - free_usable;  // free GPUs the head cannot use
  auto expected_end = [&](JobIndex job, Time start_time) {
    const Time est = estimate(ctx.jobs, job);
    return est == kNever ? kNever : std::max(ctx.now, start_time + est);
  };
  std::vector<ExpectedRelease> releases;
  for (JobIndex job : ctx.jobs.running()) {
    const JobRuntime& rt = ctx.jobs.runtime(job);
    releases.push_back({expected_end(job, rt.start), count_usable(rt.gpus)});
  }
  for (const auto& [job, gpus] : started) releases.push_back({expected_end(job, ctx.now), count_usable(gpus)});
  HeadReservation reservation = reserve_for_head(ctx.now, free_usable, head.gpus, releases);

  // Backfill the later jobs, in submission order.
  bool refused_for_reservation = false;
  for (std::size_t i = head_at + 1; i < waiting.size() && free_count > 0; ++i) {
    const JobIndex job = waiting[i];
    const JobSpec& spec = ctx.jobs.spec(job);
    if (spec.gpus > free_count) continue;
    const Time est = estimate(ctx.jobs, job);
    const bool ends_before_shadow = reservation.shadow_time != kNever && ctx.now + est <= reservation.shadow_time;
    if (!ends_before_shadow && spec.gpus > reservation.extra + free_unusable) {
      // Wherever it goes it takes more GPUs the head can use than are extra.
      refused_for_reservation = true;
      continue;
    }
    auto gpus = placement_->place(spec, cluster, taken);
    if (!gpus) continue;
    const std::size_t used = count_usable(*gpus);
    if (!ends_before_shadow) {
      if (used > reservation.extra) {
        refused_for_reservation = true;
        continue;
      }
      reservation.extra -= used;
    }
    releases.push_back({ctx.now + est, used});
    free_unusable -= gpus->size() - used;
    start(job, std::move(*gpus));
  }

  // A job refused for the reservation may fit on extra GPUs once a running
  // job passes an expected end later than the shadow time (see the file
  // comment); releases up to the shadow time are counted already.
  if (!refused_for_reservation || reservation.shadow_time == kNever) return;
  Time next_end = kNever;
  for (const ExpectedRelease& release : releases)
    if (release.end > std::max(ctx.now, reservation.shadow_time)) next_end = std::min(next_end, release.end);
  if (next_end != kNever) plan.wake_at(next_end);
}

}  // namespace gcsim
