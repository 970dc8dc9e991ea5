#include "policies/fifo_backfill/fifo_backfill_policy.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "policies/fifo_backfill/shared_gpu_backfill.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

HeadReservation reserve_for_head(Time now, std::size_t free_now, std::size_t need,
                                 std::vector<ExpectedRelease> releases, const KeptReleases& kept) {
  if (free_now >= need) return {now, free_now - need};  // only the placement blocks the head
  // Both lists in the order of their instants, read together; the releases
  // at one instant all count together.
  std::sort(releases.begin(), releases.end(),
            [](const ExpectedRelease& a, const ExpectedRelease& b) { return a.end < b.end; });
  auto listed = releases.begin();
  auto kept_at = kept.begin();
  auto listed_end = [&] { return std::max(now, listed->end); };
  auto kept_end = [&] { return std::max(now, kept_at->first); };
  std::size_t free_then = free_now;
  while (listed != releases.end() || kept_at != kept.end()) {
    Time at = kNever;
    if (listed != releases.end()) at = listed_end();
    if (kept_at != kept.end()) at = std::min(at, kept_end());
    if (at == kNever) break;
    for (; listed != releases.end() && listed_end() == at; ++listed) free_then += listed->gpus;
    for (; kept_at != kept.end() && kept_end() == at; ++kept_at) free_then += kept_at->second;
    if (free_then >= need) return {at, free_then - need};
  }
  return {kNever, 0};
}

FifoBackfillPolicy::FifoBackfillPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("fifo-backfill needs a placement policy");
}

// The log's runs are whole-GPU runs: a running job holds its spec's GPUs.
void FifoBackfillPolicy::update_kept_releases(const QueueView& jobs) {
  if (kept_end_.size() != jobs.job_count()) kept_end_.resize(jobs.job_count(), kNever);
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const JobIndex job = log[runs_read_].job;
    const std::size_t gpus = jobs.spec(job).gpus;
    if (log[runs_read_].started) {
      const Time est = estimate(jobs, job);
      kept_end_[job] = est == kNever ? kNever : jobs.runtime(job).start + est;
      kept_[kept_end_[job]] += gpus;
    } else {
      auto at = kept_.find(kept_end_[job]);
      if ((at->second -= gpus) == 0) kept_.erase(at);
    }
  }
}

Time FifoBackfillPolicy::estimate(const QueueView& jobs, JobIndex job) {
  const Time given = jobs.spec(job).runtime_estimate;
  return given > 0 ? given : jobs.oracle_duration(job);
}

void FifoBackfillPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  // The workload does not change during a run: looked at once.
  if (!workload_shares_gpus_) workload_shares_gpus_ = workload_shares_gpus(ctx.jobs);
  if (*workload_shares_gpus_)
    return shared_gpus_.schedule(
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
  // The running jobs' releases: kept across calls when every GPU counts,
  // read from each running job otherwise.
  std::vector<ExpectedRelease> releases;
  static const KeptReleases kNoneKept;
  if (every_gpu_usable) {
    update_kept_releases(ctx.jobs);
  } else {
    for (JobIndex job : ctx.jobs.running()) {
      const JobRuntime& rt = ctx.jobs.runtime(job);
      releases.push_back({expected_end(job, rt.start), count_usable(rt.gpus)});
    }
  }
  const KeptReleases& kept = every_gpu_usable ? kept_ : kNoneKept;
  for (const auto& [job, gpus] : started) releases.push_back({expected_end(job, ctx.now), count_usable(gpus)});
  HeadReservation reservation = reserve_for_head(ctx.now, free_usable, head.gpus, releases, kept);

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
  const Time after = std::max(ctx.now, reservation.shadow_time);
  for (const ExpectedRelease& release : releases)
    if (release.end > after) next_end = std::min(next_end, release.end);
  if (auto later = kept.upper_bound(after); later != kept.end()) next_end = std::min(next_end, later->first);
  if (next_end != kNever) plan.wake_at(next_end);
}

}  // namespace gcsim
