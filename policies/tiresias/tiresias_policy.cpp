#include "policies/tiresias/tiresias_policy.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "policies/kit/place_or_preempt.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {
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
  if (t.arrival == kNever) t.arrival = jobs.runtime(job).submitted;  // first seen: it entered Q1 on submission

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

void TiresiasPolicy::index(const QueueView& jobs, JobIndex job) {
  const JobTrack& t = track_[job];
  waiting_order_[{t.queue, jobs.spec(job).gpus}].insert({t.queue, t.arrival, job});
  const Time due = promotion_time(job);
  if (due != kNever) promotions_.insert({due, job});
}

void TiresiasPolicy::unindex(const QueueView& jobs, JobIndex job) {
  const JobTrack& t = track_[job];
  const auto bucket = waiting_order_.find({t.queue, jobs.spec(job).gpus});
  bucket->second.erase({t.queue, t.arrival, job});
  if (bucket->second.empty()) waiting_order_.erase(bucket);
  const Time due = promotion_time(job);
  if (due != kNever) promotions_.erase({due, job});
}

// A waiting job's queue changes only when it joins the queue (arrival, or
// demotion by the service of the run it lost) and when its promotion falls
// due: only those jobs are refreshed and moved in the order.
void TiresiasPolicy::update_waiting(const QueueView& jobs, Time now) {
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.left) unindex(jobs, job);
  for (JobIndex job : delta.joined) {
    refresh(jobs, job, now);
    index(jobs, job);
  }
  while (!promotions_.empty() && promotions_.begin()->first <= now) {
    const JobIndex job = promotions_.begin()->second;
    unindex(jobs, job);
    refresh(jobs, job, now);
    index(jobs, job);
  }
}

bool TiresiasPolicy::in_indexed_run(const QueueView& jobs, JobIndex job) const {
  const JobRuntime& rt = jobs.runtime(job);
  const JobTrack& t = track_[job];
  return rt.state == JobState::kRunning && rt.start == t.run_start && rt.preemptions == t.run_preemptions;
}

bool TiresiasPolicy::current(const QueueView& jobs, const QueueKey& key) const {
  const JobTrack& t = track_[key.job];
  return key.time == t.run_start && key.queue == t.queue && in_indexed_run(jobs, key.job);
}

void TiresiasPolicy::index_run(const QueueView& jobs, JobIndex job, Time now) {
  unindex_run(job);
  refresh(jobs, job, now);
  JobTrack& t = track_[job];
  const JobRuntime& rt = jobs.runtime(job);
  t.run_start = rt.start;
  t.run_preemptions = rt.preemptions;
  t.run_gpus = rt.gpus.size();
  gpus_in_queue_[t.queue] += t.run_gpus;
  victims_.insert({t.queue, t.run_start, job});
  t.demote_at = kNever;
  if (t.queue < settings_.thresholds.size()) {
    t.demote_at = crossing_time(rt.start, rt.attained_gpu_seconds - t.service_base, settings_.thresholds[t.queue],
                                rt.gpus.size());
    demotions_.insert({t.demote_at, job});
  }
}

void TiresiasPolicy::unindex_run(JobIndex job) {
  JobTrack& t = track_[job];
  if (t.run_start == kNever) return;
  victims_.erase({t.queue, t.run_start, job});
  if (t.demote_at != kNever) demotions_.erase({t.demote_at, job});
  gpus_in_queue_[t.queue] -= t.run_gpus;
  t.demote_at = kNever;
  t.run_start = kNever;
}

// A running job's queue changes only when its service crosses a threshold,
// at an instant known when it starts: only the jobs whose crossing fell due
// are refreshed. The runs that began or ended since the last call are read
// from the run log: those that ended leave the indexes, those still going
// enter them.
void TiresiasPolicy::update_running(const QueueView& jobs, Time now) {
  if (gpus_in_queue_.empty()) gpus_in_queue_.assign(settings_.thresholds.size() + 1, 0);
  while (!demotions_.empty() && demotions_.begin()->first <= now) {
    const JobIndex job = demotions_.begin()->second;
    demotions_.erase(demotions_.begin());
    track_[job].demote_at = kNever;
    if (in_indexed_run(jobs, job)) {
      index_run(jobs, job, now);
    } else {  // ended
      unindex_run(job);
    }
  }
  const std::vector<RunEvent>& log = jobs.run_log();
  std::vector<JobIndex> began;
  for (; runs_read_ < log.size(); ++runs_read_) {
    const RunEvent& event = log[runs_read_];
    if (event.started)
      began.push_back(event.job);
    else if (!in_indexed_run(jobs, event.job))
      unindex_run(event.job);
  }
  for (JobIndex job : began)
    if (jobs.runtime(job).state == JobState::kRunning && !in_indexed_run(jobs, job)) index_run(jobs, job, now);
}

void TiresiasPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  if (track_.size() != jobs.job_count()) track_.resize(jobs.job_count());
  update_waiting(jobs, ctx.now);
  // GPUs of the running jobs not preempted yet, per queue: a job may preempt
  // those of the queues below its own.
  update_running(jobs, ctx.now);
  std::vector<std::size_t> gpus_in_queue = gpus_in_queue_;
  const std::size_t queues = gpus_in_queue.size();

  // Victims' GPUs shown free while they are tried; the GPUs of the jobs
  // started in this call held. No job shares a GPU here, so that is all a
  // placement needs to know: no mask of GPUs taken in the call.
  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;
  std::size_t spare = ctx.cluster.free_gpu_count();  // free (or freed) and not promised in this plan
  std::vector<JobIndex> preempted;
  std::vector<JobIndex> started;

  auto preemptible_gpus = [&](std::size_t queue) {
    std::size_t gpus = 0;
    for (std::size_t q = queue + 1; q < queues; ++q) gpus += gpus_in_queue[q];
    return gpus;
  };

  auto allocate = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, jobs.spec(job));  // its host cores and memory too
    spare -= gpus.size();
    started.push_back(job);
    changes_.noted(job);
    plan.allocate(job, std::move(gpus));
  };

  std::set<QueueKey> rejoined;  // victims of this call, waiting again
  // One waiting job in the order: it starts on free GPUs, or on GPUs its
  // victims free, or waits.
  const auto consider = [&](const QueueKey& key, std::size_t victim_gpus) {
    // Victims: running jobs not preempted yet, of strictly lower-priority
    // queues, lowest-priority queue first, then the most recently started
    // (ties: later in the workload first): victims_ read backwards, as far
    // as make_room asks.
    const auto victims = [&]() -> NextCandidate {
      return [&, it = victims_.rbegin()]() mutable -> std::optional<JobIndex> {
        for (; it != victims_.rend() && it->queue > key.queue; ++it)
          if (current(jobs, *it)) return (it++)->job;
        return std::nullopt;
      };
    };
    RoomForJob room =
        place_or_preempt(jobs.spec(key.job), spare, victim_gpus, victims, jobs, cluster, *placement_, none_taken);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (const JobIndex victim : room.victims) {
      const JobRuntime& rt = jobs.runtime(victim);
      plan.preempt(victim);
      changes_.noted(victim);
      preempted.push_back(victim);
      spare += rt.gpus.size();
      JobTrack& t = track_[victim];
      gpus_in_queue[t.queue] -= rt.gpus.size();
      unindex_run(victim);
      t.preempted_at = ctx.now;
      t.executed += ctx.now - rt.start;
      rejoined.insert({t.queue, t.arrival, victim});  // waits again at its place; may restart below
    }
    if (gpus) allocate(key.job, std::move(*gpus));
  };

  // The waiting jobs in the order, queue by queue: within a queue, its
  // buckets of GPU counts merged by key, and the victims preempted in this
  // call, which wait again at their place (in a lower queue than the job
  // that preempted them). A job asking more GPUs than are free plus those the
  // running jobs of lower queues hold cannot start. That bound never grows
  // during the walk: a preemption moves GPUs from the second term to the
  // first, a start takes from the first, and a later queue has fewer queues
  // below it. So a bucket over the bound is dropped for good, and none of its
  // jobs is visited.
  struct Cursor {
    std::set<QueueKey>::const_iterator at, end;
    std::size_t gpus;
  };
  const auto later = [](const Cursor& a, const Cursor& b) { return *b.at < *a.at; };
  auto bucket = waiting_order_.begin();
  for (std::size_t queue = 0; queue < queues; ++queue) {
    std::vector<Cursor> heads;  // a heap, the earliest key on top
    for (; bucket != waiting_order_.end() && bucket->first.first == queue; ++bucket)
      if (bucket->first.second <= spare + preemptible_gpus(queue))
        heads.push_back({bucket->second.begin(), bucket->second.end(), bucket->first.second});
    std::make_heap(heads.begin(), heads.end(), later);
    for (;;) {
      const std::size_t victim_gpus = preemptible_gpus(queue);
      // No GPU left and none to preempt for this queue or any after it.
      if (spare == 0 && victim_gpus == 0) break;
      if (!rejoined.empty() && rejoined.begin()->queue == queue &&
          (heads.empty() || *rejoined.begin() < *heads.front().at)) {
        const QueueKey key = *rejoined.begin();
        rejoined.erase(rejoined.begin());
        consider(key, victim_gpus);
        continue;
      }
      if (heads.empty()) break;
      std::pop_heap(heads.begin(), heads.end(), later);
      Cursor& head = heads.back();
      if (head.gpus > spare + victim_gpus) {
        heads.pop_back();
        continue;
      }
      const QueueKey key = *head.at;
      if (++head.at == head.end)
        heads.pop_back();
      else
        std::push_heap(heads.begin(), heads.end(), later);
      consider(key, victim_gpus);
    }
    if (spare == 0 && preemptible_gpus(queue) == 0) break;
  }

  // Wake-ups: the next threshold crossing of every job running after the
  // plan, and the first promotion of the jobs still waiting. The crossings of
  // the runs that went on are in demotions_ (those of ended runs dropped
  // first); the runs started now are indexed at the next call.
  while (!demotions_.empty() && !in_indexed_run(jobs, demotions_.begin()->second)) {
    const JobIndex job = demotions_.begin()->second;
    demotions_.erase(demotions_.begin());
    track_[job].demote_at = kNever;
    unindex_run(job);
  }
  if (!demotions_.empty()) plan.wake_at(demotions_.begin()->first);
  const std::size_t last_queue = settings_.thresholds.size();
  for (JobIndex job : started) {
    if (track_[job].queue >= last_queue) continue;
    plan.wake_at(crossing_time(ctx.now, queue_service(jobs, job, ctx.now), settings_.thresholds[track_[job].queue],
                               jobs.spec(job).gpus));
  }
  std::sort(started.begin(), started.end());
  auto still_waiting = [&](JobIndex job) { return !std::binary_search(started.begin(), started.end(), job); };
  for (const auto& [due, job] : promotions_) {
    if (!still_waiting(job)) continue;
    plan.wake_at(due);
    break;
  }
  for (JobIndex job : preempted)
    if (still_waiting(job)) plan.wake_at(promotion_time(job));
}

}  // namespace gcsim
