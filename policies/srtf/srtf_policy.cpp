#include "policies/srtf/srtf_policy.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "policies/kit/place_or_preempt.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

bool SrtfPolicy::Entry::operator<(const Entry& other) const {
  // Equal keys: the running entry first.
  return std::tie(remaining, submit, job, other.running) < std::tie(other.remaining, other.submit, other.job, running);
}

SrtfPolicy::SrtfPolicy(std::unique_ptr<PlacementPolicy> placement, bool preemptive)
    : placement_(std::move(placement)), preemptive_(preemptive) {
  if (!placement_) throw std::invalid_argument("srtf needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> SrtfPolicy::create(const PolicyOptions& options,
                                                     std::unique_ptr<PlacementPolicy> placement) {
  return std::make_unique<SrtfPolicy>(std::move(placement), options.flag("preemptive", true));
}

Time SrtfPolicy::run_time(const QueueView& jobs, JobIndex job) {
  const Time oracle = jobs.oracle_duration(job);
  if (oracle == kNever) return kNever;
  const double saved = jobs.runtime(job).saved_fraction;
  return oracle * (1 - saved) + (saved > 0 ? jobs.spec(job).checkpoint.restore_cost : 0);
}

Time SrtfPolicy::remaining_time(const QueueView& jobs, JobIndex job, Time now) {
  const Time run = run_time(jobs, job);
  const JobRuntime& rt = jobs.runtime(job);
  if (rt.state != JobState::kRunning || run == kNever) return run;
  return std::max(0.0, run - (now - rt.start));
}

// A waiting job's run time changes only while it is not waiting (a
// preemption saves part of its work), so its place in the order is computed
// when it joins the queue and kept until it leaves.
void SrtfPolicy::update_waiting_order(const QueueView& jobs) {
  if (waiting_key_.size() != jobs.job_count()) waiting_key_.resize(jobs.job_count(), kNever);
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.left) {
    const auto bucket = waiting_order_.find(jobs.spec(job).gpus);
    bucket->second.erase({waiting_key_[job], jobs.runtime(job).submitted, job, false});
    if (bucket->second.empty()) waiting_order_.erase(bucket);
  }
  for (JobIndex job : delta.joined) {
    waiting_key_[job] = run_time(jobs, job);
    waiting_order_[jobs.spec(job).gpus].insert({waiting_key_[job], jobs.runtime(job).submitted, job, false});
  }
}

bool SrtfPolicy::Run::operator<(const Run& other) const {
  return std::tie(end, submit, job) < std::tie(other.end, other.submit, other.job);
}

// A run's planned end is fixed while it lasts; its run time is read when its
// start is (the saved fraction it began with). A run that began and ended
// since the last call is put in and taken out again.
void SrtfPolicy::update_running(const QueueView& jobs) {
  if (running_entry_.size() != jobs.job_count()) {
    running_entry_.resize(jobs.job_count());
    running_run_.resize(jobs.job_count(), kNever);
  }
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const JobIndex job = log[runs_read_].job;
    if (!log[runs_read_].started) {
      running_.erase(running_entry_[job]);
      continue;
    }
    const JobRuntime& rt = jobs.runtime(job);
    const Time run = run_time(jobs, job);
    running_run_[job] = run;
    running_entry_[job] = {run == kNever ? kNever : rt.start + run, jobs.runtime(job).submitted, job, rt.gpus.size()};
    running_.insert(running_entry_[job]);
  }
}

void SrtfPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  update_waiting_order(ctx.jobs);
  if (ctx.jobs.waiting().empty()) return;
  // Victims' GPUs shown free while they are tried; the GPUs of the jobs
  // started in this call held. No job shares a GPU here, so that is all a
  // placement needs to know: no mask of GPUs taken in the call.
  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;
  std::size_t spare = ctx.cluster.free_gpu_count();  // free (or freed) and not promised in this plan

  // The running jobs in the order. Those shorter than the waiting job the
  // walk has reached are kept; the longer ones not preempted in this call
  // are its possible victims. Without preemption a running job is never a
  // victim, and its place in the order changes nothing: it is not read.
  if (preemptive_) update_running(ctx.jobs);
  auto remaining = [&](const Run& run) {
    const Time run_time = running_run_[run.job];
    return run_time == kNever ? kNever : std::max(0.0, run_time - (ctx.now - ctx.jobs.runtime(run.job).start));
  };
  std::set<JobIndex> preempted;
  std::vector<Run> preempted_runs;
  // GPUs a waiting job of remaining time `key` may preempt.
  auto victim_gpus = [&](Time key) -> std::size_t {
    if (!preemptive_) return 0;
    std::size_t gpus = running_.gpus_of_suffix([&](const Run& run) { return remaining(run) > key; });
    for (const Run& run : preempted_runs)
      if (remaining(run) > key) gpus -= run.gpus;
    return gpus;
  };

  auto allocate = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));  // its host cores and memory too
    spare -= gpus.size();
    changes_.noted(job);
    plan.allocate(job, std::move(gpus));
  };

  std::set<Entry> rejoined;  // victims of this call, waiting again
  // One waiting job in the order: it starts on free GPUs, or on GPUs its
  // victims free, or waits.
  auto consider = [&](const Entry& entry, std::size_t may_preempt) {
    // Victims: running jobs not preempted yet with strictly longer remaining
    // times, longest first: the end of the running order, read backwards as
    // far as make_room asks.
    const auto victims = [&]() -> NextCandidate {
      return [&, at = running_.end()]() mutable -> std::optional<JobIndex> {
        while (at != running_.begin()) {
          --at;
          if (remaining(*at) <= entry.remaining) {
            at = running_.begin();  // the rest are no longer than the job
            break;
          }
          if (!preempted.count(at->job)) return at->job;
        }
        return std::nullopt;
      };
    };
    RoomForJob room = place_or_preempt(ctx.jobs.spec(entry.job), spare, may_preempt, victims, ctx.jobs, cluster,
                                       *placement_, none_taken);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (const JobIndex victim : room.victims) {
      const std::size_t held = ctx.jobs.runtime(victim).gpus.size();
      plan.preempt(victim);
      changes_.noted(victim);
      preempted.insert(victim);
      preempted_runs.push_back(running_entry_[victim]);
      spare += held;
      // Back in the order as a waiting job (see the file comment).
      rejoined.insert({run_time(ctx.jobs, victim), ctx.jobs.runtime(victim).submitted, victim, false});
    }
    if (gpus) allocate(entry.job, std::move(*gpus));
  };

  // The waiting jobs in the order: the sets of GPU counts merged by key, and
  // the victims preempted in this call, which wait again at their place. A
  // job asking more GPUs than are free plus those it may preempt cannot
  // start; that bound never grows along the walk (see the file comment), so
  // a GPU count over it is dropped for good and none of its jobs is visited.
  struct Cursor {
    std::set<Entry>::const_iterator at, end;
    std::size_t gpus;
  };
  const auto later = [](const Cursor& a, const Cursor& b) { return *b.at < *a.at; };
  std::vector<Cursor> heads;  // a heap, the earliest key on top
  const std::size_t bound = spare + victim_gpus(-1);
  for (const auto& [gpus, order] : waiting_order_)
    if (gpus <= bound) heads.push_back({order.begin(), order.end(), gpus});
  std::make_heap(heads.begin(), heads.end(), later);
  for (;;) {
    const bool from_rejoined = !rejoined.empty() && (heads.empty() || *rejoined.begin() < *heads.front().at);
    if (!from_rejoined && heads.empty()) break;
    const Entry entry = from_rejoined ? *rejoined.begin() : *heads.front().at;
    const std::size_t may_preempt = victim_gpus(entry.remaining);
    // No GPU left and none to preempt for this job or any later one.
    if (spare == 0 && may_preempt == 0) break;
    if (from_rejoined) {
      rejoined.erase(rejoined.begin());
    } else {
      std::pop_heap(heads.begin(), heads.end(), later);
      Cursor& head = heads.back();
      if (head.gpus > spare + may_preempt) {
        heads.pop_back();
        continue;
      }
      if (++head.at == head.end)
        heads.pop_back();
      else
        std::push_heap(heads.begin(), heads.end(), later);
    }
    consider(entry, may_preempt);
  }
}

}  // namespace gcsim
