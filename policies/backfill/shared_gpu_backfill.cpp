#include "policies/backfill/shared_gpu_backfill.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "policies/kit/room_left.hpp"

namespace gcsim {

bool workload_shares_gpus(const QueueView& jobs) {
  for (JobIndex job = 0; job < jobs.job_count(); ++job)
    if (jobs.spec(job).gpu_share < 1) return true;
  return false;
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
  RoomLeft now(ctx.cluster);  // what jobs started in this call leave
  std::vector<Release> releases;
  const auto expected_end = [&](JobIndex job, Time start) {
    const Time est = estimate(job);
    return est == kNever ? kNever : std::max(ctx.now, start + est);
  };
  for (JobIndex job : jobs.running())
    releases.push_back({expected_end(job, jobs.runtime(job).start), job, jobs.runtime(job).gpus});
  const auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    now.take(gpus, jobs.spec(job));
    releases.push_back({expected_end(job, ctx.now), job, gpus});
    plan.allocate(job, std::move(gpus));
  };

  // FIFO until the first job that cannot be placed: the head.
  const std::vector<JobIndex>& waiting = jobs.waiting();
  std::size_t head_at = 0;
  for (; head_at < waiting.size(); ++head_at) {
    auto gpus = placement.place(jobs.spec(waiting[head_at]), now.view(), none_taken);
    if (!gpus) break;
    start(waiting[head_at], std::move(*gpus));
  }
  if (head_at == waiting.size()) return;
  const JobSpec& head = jobs.spec(waiting[head_at]);

  // The shadow time: give back the expected releases in time order until the head fits.
  std::stable_sort(releases.begin(), releases.end(), [](const Release& a, const Release& b) { return a.end < b.end; });
  RoomLeft at_shadow = now;
  Time shadow_time = kNever;
  std::optional<std::vector<GpuId>> head_gpus;  // where the head would go at the shadow time
  for (std::size_t i = 0; i < releases.size() && releases[i].end != kNever; ++i) {
    at_shadow.release(releases[i].gpus, jobs.spec(releases[i].job));
    if (i + 1 < releases.size() && releases[i + 1].end == releases[i].end) continue;
    if (at_shadow.may_fit(head) && (head_gpus = placement.place(head, at_shadow.view(), none_taken))) {
      shadow_time = releases[i].end;
      break;
    }
  }
  // The head's GPUs, as a set, for the quick test below.
  std::vector<bool> head_uses(ctx.cluster.layout().gpu_count(), false);
  if (head_gpus)
    for (GpuId g : *head_gpus) head_uses[g] = true;

  // Backfill the later jobs, in submission order; a job that cannot fit is
  // told by the room left (room_left.hpp) before any placement.
  // Jobs of one shape (GPUs, share, memory) get the same answer from the
  // placement on the same view: one that found no GPUs finds none for the
  // rest of the call (jobs only take more), one refused for the reservation
  // is refused again until a job starts and changes the views.
  using Shape = std::tuple<std::uint32_t, double, double>;
  std::set<Shape> unplaceable, refused;
  bool refused_for_reservation = false;
  for (std::size_t i = head_at + 1; i < waiting.size(); ++i) {
    if (now.none()) break;
    const JobIndex job = waiting[i];
    const JobSpec& spec = jobs.spec(job);
    if (!now.may_fit(spec)) continue;
    const Shape shape{spec.gpus, spec.gpu_share, spec.gpu_memory_bytes};
    if (unplaceable.count(shape)) continue;
    const Time est = estimate(job);
    const bool ends_before_shadow = shadow_time != kNever && est != kNever && ctx.now + est <= shadow_time;
    if (!ends_before_shadow && refused.count(shape)) continue;
    auto gpus = placement.place(spec, now.view(), none_taken);
    if (!gpus) {
      unplaceable.insert(shape);
      continue;
    }
    if (!ends_before_shadow) {
      // Still holding its GPUs at the shadow time: away from the head's, it
      // leaves the head's placement as it was; otherwise the head must fit beside it.
      at_shadow.take(*gpus, spec);
      const bool clear_of_head =
          head_gpus && std::none_of(gpus->begin(), gpus->end(), [&](GpuId g) { return head_uses[g]; });
      if (!clear_of_head) {
        auto moved = placement.place(head, at_shadow.view(), none_taken);
        if (!moved) {
          at_shadow.release(*gpus, spec);
          refused_for_reservation = true;
          refused.insert(shape);
          continue;
        }
        head_gpus = std::move(moved);
        std::fill(head_uses.begin(), head_uses.end(), false);
        for (GpuId g : *head_gpus) head_uses[g] = true;
      }
    }
    refused.clear();
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
