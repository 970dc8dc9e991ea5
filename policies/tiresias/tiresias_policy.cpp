#include "policies/tiresias/tiresias_policy.hpp"

#include "policies/kit/preemption_room.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {
namespace {

// A waiting job's place in the call's order: queue, then last arrival into
// it, then workload order.
struct QueueKey {
  std::size_t queue;
  Time arrival;
  JobIndex job;
  bool operator<(const QueueKey& other) const {
    return std::tie(queue, arrival, job) < std::tie(other.queue, other.arrival, other.job);
  }
};

}  // namespace

TiresiasPolicy::TiresiasPolicy(std::unique_ptr<PlacementPolicy> placement, TiresiasSettings settings)
    : placement_(std::move(placement)), settings_(std::move(settings)) {
  if (!placement_) throw std::invalid_argument("tiresias needs a placement policy");
}

TiresiasSettings TiresiasPolicy::parse_settings(const PolicyOptions& options) {
  TiresiasSettings settings;
  settings.thresholds = options.numbers("thresholds", settings.thresholds, PolicyOptions::Above{0});
  for (std::size_t i = 1; i < settings.thresholds.size(); ++i)
    if (!(settings.thresholds[i] > settings.thresholds[i - 1]))
      throw std::invalid_argument("option thresholds must be strictly increasing, got '" + options.at("thresholds") +
                                  "'");
  settings.promote_knob = options.number("promote_knob", settings.promote_knob, PolicyOptions::AtLeast{0});
  return settings;
}

std::unique_ptr<SchedulingPolicy> TiresiasPolicy::create(const PolicyOptions& options,
                                                         std::unique_ptr<PlacementPolicy> placement) {
  return std::make_unique<TiresiasPolicy>(std::move(placement), parse_settings(options));
}

Time TiresiasPolicy::crossing_time(Time start, double service_at_start, double threshold, std::size_t gpus) {
  return start + (threshold - service_at_start) / static_cast<double>(gpus);
}

double TiresiasPolicy::queue_service(const QueueView& jobs, JobIndex job, Time now) const {
  const JobRuntime& rt = jobs.runtime(job);
  double attained = rt.attained_gpu_seconds;
  if (rt.state == JobState::kRunning)
    attained += (now - rt.start) * static_cast<double>(rt.gpus.size()) * jobs.spec(job).gpu_share;
  return attained - track_[job].service_base;
}

Time TiresiasPolicy::promotion_time(JobIndex job) const {
  const JobTrack& t = track_[job];
  if (settings_.promote_knob <= 0 || t.queue == 0 || t.preempted_at == kNever) return kNever;
  return t.preempted_at + settings_.promote_knob * t.executed;
}

void TiresiasPolicy::refresh(const QueueView& jobs, JobIndex job, Time now) {
  JobTrack& t = track_[job];
  const JobRuntime& rt = jobs.runtime(job);
  if (t.arrival == kNever) t.arrival = jobs.spec(job).submit;  // first seen: it entered Q1 on submission

  if (rt.state == JobState::kWaiting) {
    const Time due = promotion_time(job);
    if (due <= now) {
      t.queue = 0;
      t.arrival = due;
      t.service_base = rt.attained_gpu_seconds;
      t.preempted_at = kNever;
      t.executed = 0;
    }
  }

  // Demotions. A running job crossed a threshold at a known instant (the
  // wake-up asked for it); the queue never moves up here, so rounding in the
  // service of a job just preempted cannot undo a demotion.
  const bool running = rt.state == JobState::kRunning;
  const double service_at_start = rt.attained_gpu_seconds - t.service_base;
  while (t.queue < settings_.thresholds.size()) {
    const double threshold = settings_.thresholds[t.queue];
    Time crossed_at = now;
    if (running) {
      crossed_at = crossing_time(rt.start, service_at_start, threshold, rt.gpus.size());
      if (crossed_at > now) break;
      crossed_at = std::max(crossed_at, rt.start);
    } else if (queue_service(jobs, job, now) < threshold) {
      break;
    }
    ++t.queue;
    t.arrival = crossed_at;
  }
}

void TiresiasPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  if (track_.size() != jobs.job_count()) track_.resize(jobs.job_count());
  const std::vector<JobIndex> running = jobs.running();  // the possible victims, in start order
  for (JobIndex job : running) refresh(jobs, job, ctx.now);
  for (JobIndex job : jobs.waiting()) refresh(jobs, job, ctx.now);

  TentativeCluster cluster(ctx.cluster);  // victims' GPUs shown free while they are tried
  std::vector<bool> taken(ctx.cluster.layout().gpu_count(), false);
  std::size_t spare = ctx.cluster.free_gpu_count();  // free (or freed) and not promised in this plan
  std::vector<bool> preempted(running.size(), false);
  std::vector<bool> started(jobs.job_count(), false);

  std::set<QueueKey> order;
  for (JobIndex job : jobs.waiting()) order.insert({track_[job].queue, track_[job].arrival, job});
  std::vector<JobIndex> still_waiting;

  auto allocate = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, jobs.spec(job));  // its host cores and memory too
    for (GpuId g : gpus) taken[g] = true;
    spare -= gpus.size();
    started[job] = true;
    plan.allocate(job, std::move(gpus));
  };

  while (!order.empty()) {
    const QueueKey key = *order.begin();
    order.erase(order.begin());
    const JobSpec& spec = jobs.spec(key.job);
    if (spec.gpus <= spare) {
      if (auto gpus = placement_->place(spec, cluster, taken)) {
        allocate(key.job, std::move(*gpus));
        continue;
      }
    }

    // Victims: running jobs not preempted yet, of strictly lower-priority queues.
    std::vector<std::size_t> victims;
    std::size_t victim_gpus = 0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (preempted[i] || track_[running[i]].queue <= key.queue) continue;
      victims.push_back(i);
      victim_gpus += jobs.runtime(running[i]).gpus.size();
    }
    if (spec.gpus > spare + victim_gpus) {
      still_waiting.push_back(key.job);
      continue;
    }
    // Lowest-priority queue first, then the most recently started.
    std::sort(victims.begin(), victims.end(), [&](std::size_t a, std::size_t b) {
      const JobIndex ja = running[a], jb = running[b];
      return std::make_tuple(track_[ja].queue, jobs.runtime(ja).start, ja) >
             std::make_tuple(track_[jb].queue, jobs.runtime(jb).start, jb);
    });

    // Free them one by one until the job can be placed.
    std::vector<JobIndex> candidates;
    for (std::size_t i : victims) candidates.push_back(running[i]);
    RoomForJob room = make_room(spec, candidates, jobs, cluster, *placement_, taken, spare);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (std::size_t k : room.used) {
      const std::size_t i = victims[k];
      const JobIndex victim = running[i];
      const JobRuntime& rt = jobs.runtime(victim);
      plan.preempt(victim);
      preempted[i] = true;
      spare += rt.gpus.size();
      JobTrack& t = track_[victim];
      t.preempted_at = ctx.now;
      t.executed += ctx.now - rt.start;
      order.insert({t.queue, t.arrival, victim});  // waits again at its place; may restart below
    }
    if (gpus) {
      allocate(key.job, std::move(*gpus));
    } else {
      still_waiting.push_back(key.job);
    }
  }

  // Wake-ups: the next threshold crossing of every job running after the
  // plan, and the promotion of every job still waiting.
  const std::size_t last_queue = settings_.thresholds.size();
  for (std::size_t i = 0; i < running.size(); ++i) {
    const JobIndex job = running[i];
    if (preempted[i] || started[job] || track_[job].queue >= last_queue) continue;
    const JobRuntime& rt = jobs.runtime(job);
    plan.wake_at(crossing_time(rt.start, rt.attained_gpu_seconds - track_[job].service_base,
                               settings_.thresholds[track_[job].queue], rt.gpus.size()));
  }
  for (JobIndex job = 0; job < started.size(); ++job) {
    if (!started[job] || track_[job].queue >= last_queue) continue;
    plan.wake_at(crossing_time(ctx.now, queue_service(jobs, job, ctx.now), settings_.thresholds[track_[job].queue],
                               jobs.spec(job).gpus));
  }
  for (JobIndex job : still_waiting) plan.wake_at(promotion_time(job));
}

}  // namespace gcsim
