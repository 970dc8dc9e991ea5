#include "policies/fifo_backfill/shared_gpu_backfill.hpp"

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

// A job started in this call: its expected end, and its GPUs (the plan holds the originals).
struct Started {
  Time end;
  JobIndex job;
  std::vector<GpuId> gpus;
};

}  // namespace

void SharedGpuBackfill::schedule(const SchedulingContext& ctx, const PlacementPolicy& placement,
                                 const ExpectedEnds::Estimate& estimate, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  const std::vector<bool> none_taken;
  RoomLeft now(ctx.cluster);  // what jobs started in this call leave
  ends_.update(jobs, ctx.now, estimate);
  std::vector<Started> started;
  const auto start = [&](JobIndex job, std::vector<GpuId> gpus) {
    now.take(gpus, jobs.spec(job));
    const Time est = estimate(job);
    started.push_back({est == kNever ? kNever : std::max(ctx.now, ctx.now + est), job, gpus});
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

  // The shadow time: give back the expected releases in time order (the
  // running jobs', then at the same instant those started in this call)
  // until the head fits; at each instant once all its releases are given back.
  std::stable_sort(started.begin(), started.end(), [](const Started& a, const Started& b) { return a.end < b.end; });
  RoomLeft at_shadow = now;
  Time shadow_time = kNever;
  std::optional<std::vector<GpuId>> head_gpus;  // where the head would go at the shadow time
  Time given_back_to = kNever;                  // the instant of the releases given back so far
  const auto head_fits = [&] {
    if (!at_shadow.may_fit(head) || !(head_gpus = placement.place(head, at_shadow.view(), none_taken))) return false;
    shadow_time = given_back_to;
    return true;
  };
  // Gives back one release; false once the head fits before it, at the instant of the previous ones.
  const auto give_back = [&](Time end, const std::vector<GpuId>& gpus, const JobSpec& spec) {
    if (given_back_to != kNever && end != given_back_to && head_fits()) return false;
    at_shadow.release(gpus, spec);
    given_back_to = end;
    return true;
  };
  std::size_t next_started = 0;
  bool walking = true;
  ends_.visit([&](const ExpectedEnd& running) {
    for (; next_started < started.size() && started[next_started].end < running.end; ++next_started) {
      const Started& s = started[next_started];
      if (!give_back(s.end, s.gpus, jobs.spec(s.job))) return walking = false;
    }
    return walking = give_back(running.end, jobs.runtime(running.job).gpus, jobs.spec(running.job));
  });
  for (; walking && next_started < started.size() && started[next_started].end != kNever; ++next_started) {
    const Started& s = started[next_started];
    walking = give_back(s.end, s.gpus, jobs.spec(s.job));
  }
  if (walking && given_back_to != kNever) head_fits();
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
  const Time after = std::max(ctx.now, shadow_time);
  Time next_end = ends_.first_after(after);
  for (const Started& s : started)
    if (s.end > after) next_end = std::min(next_end, s.end);
  if (next_end != kNever) plan.wake_at(next_end);
}

}  // namespace gcsim
