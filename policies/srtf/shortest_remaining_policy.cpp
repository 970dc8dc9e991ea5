#include "policies/srtf/shortest_remaining_policy.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "policies/kit/preemption_room.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

bool ShortestRemainingPolicy::Entry::operator<(const Entry& other) const {
  // Equal keys: the running entry first.
  return std::tie(remaining, submit, job, other.running) < std::tie(other.remaining, other.submit, other.job, running);
}

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

// A waiting job's run time changes only while it is not waiting (a
// preemption saves part of its work), so its place in the order is computed
// when it joins the queue and kept until it leaves.
void ShortestRemainingPolicy::update_waiting_order(const QueueView& jobs) {
  if (waiting_key_.size() != jobs.job_count()) waiting_key_.resize(jobs.job_count(), kNever);
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.left) waiting_order_.erase({waiting_key_[job], jobs.spec(job).submit, job, false});
  for (JobIndex job : delta.joined) {
    waiting_key_[job] = run_time(jobs, job);
    waiting_order_.insert({waiting_key_[job], jobs.spec(job).submit, job, false});
  }
}

bool ShortestRemainingPolicy::Run::operator<(const Run& other) const {
  return std::tie(end, submit, job) < std::tie(other.end, other.submit, other.job);
}

// A run's planned end is fixed while it lasts; its run time is read when its
// start is (the saved fraction it began with). A run that began and ended
// since the last call is put in and taken out again.
void ShortestRemainingPolicy::update_running(const QueueView& jobs) {
  if (running_entry_.size() != jobs.job_count()) {
    running_entry_.resize(jobs.job_count());
    running_run_.resize(jobs.job_count(), kNever);
    running_gpus_.resize(jobs.job_count(), 0);
  }
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const JobIndex job = log[runs_read_].job;
    if (!log[runs_read_].started) {
      running_.erase(running_entry_[job]);
      running_gpu_total_ -= running_gpus_[job];
      continue;
    }
    const JobRuntime& rt = jobs.runtime(job);
    const Time run = run_time(jobs, job);
    running_run_[job] = run;
    running_entry_[job] = {run == kNever ? kNever : rt.start + run, jobs.spec(job).submit, job};
    running_gpus_[job] = rt.gpus.size();
    running_.insert(running_entry_[job]);
    running_gpu_total_ += running_gpus_[job];
  }
}

void ShortestRemainingPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  update_waiting_order(ctx.jobs);
  if (ctx.jobs.waiting().empty()) return;
  // Victims' GPUs shown free while they are tried; the GPUs of the jobs
  // started in this call held. No job shares a GPU here, so that is all a
  // placement needs to know: no mask of GPUs taken in the call.
  TentativeCluster cluster(ctx.cluster);
  const std::vector<bool> none_taken;
  std::size_t spare = ctx.cluster.free_gpu_count();  // free (or freed) and not promised in this plan

  // The running jobs in the order: those the walk passed are kept, those a
  // shorter job took GPUs from are preempted; the others, undecided, are the
  // only possible victims. A running job's remaining time is read when the
  // walk reaches it.
  // Without preemption a running job is never a victim, and its place in the
  // order changes nothing: the order is not read.
  if (preemptive_) update_running(ctx.jobs);
  static const std::set<Run> kNoneRead;
  const std::set<Run>& running = preemptive_ ? running_ : kNoneRead;
  auto remaining = [&](const Run& run) {
    const Time run_time = running_run_[run.job];
    return run_time == kNever ? kNever : std::max(0.0, run_time - (ctx.now - ctx.jobs.runtime(run.job).start));
  };
  std::size_t undecided_gpus = preemptive_ ? running_gpu_total_ : 0;
  std::set<JobIndex> preempted;
  auto next_running = running.begin();

  // Waiting jobs in the order: those waiting at the call, and the victims
  // preempted in it, which rejoin the order as waiting jobs.
  auto next_waiting = waiting_order_.begin();
  std::set<Entry> rejoined;

  auto allocate = [&](JobIndex job, std::vector<GpuId> gpus) {
    cluster.take(gpus, ctx.jobs.spec(job));  // its host cores and memory too
    spare -= gpus.size();
    changes_.noted(job);
    plan.allocate(job, std::move(gpus));
  };

  for (;;) {
    // Only running jobs left: each is kept, nothing more can change.
    if (next_waiting == waiting_order_.end() && rejoined.empty()) break;
    while (next_running != running.end() && preempted.count(next_running->job)) ++next_running;
    // The first of the three heads in the order.
    enum class From { kNone, kRunning, kWaiting, kRejoined } from = From::kNone;
    std::optional<Entry> head;
    if (next_running != running.end())
      head = Entry{remaining(*next_running), next_running->submit, next_running->job, true}, from = From::kRunning;
    if (next_waiting != waiting_order_.end() && (!head || *next_waiting < *head))
      head = *next_waiting, from = From::kWaiting;
    if (!rejoined.empty() && (!head || *rejoined.begin() < *head)) head = *rejoined.begin(), from = From::kRejoined;
    if (from == From::kNone) break;
    const Entry entry = *head;
    if (from == From::kRunning) {  // kept
      undecided_gpus -= running_gpus_[entry.job];
      ++next_running;
      continue;
    }
    if (from == From::kRejoined) {
      rejoined.erase(rejoined.begin());
    } else {
      ++next_waiting;
    }
    // No GPU left and none to preempt: no later job can start.
    if (spare == 0 && (!preemptive_ || undecided_gpus == 0)) break;

    const JobSpec& spec = ctx.jobs.spec(entry.job);
    if (spec.gpus <= spare) {
      if (auto gpus = placement_->place(spec, cluster, none_taken)) {
        allocate(entry.job, std::move(*gpus));
        continue;
      }
    }
    if (!preemptive_) {
      if (spare == 0) break;
      continue;
    }
    if (spec.gpus > spare + undecided_gpus) continue;

    // Victims: undecided running jobs with strictly longer remaining times,
    // longest first: the end of the running order, read backwards.
    std::vector<JobIndex> victims;
    std::size_t victim_gpus = 0;
    for (auto at = running.end(); at != next_running;) {
      --at;
      if (remaining(*at) <= entry.remaining) break;
      if (preempted.count(at->job)) continue;
      victims.push_back(at->job);
      victim_gpus += running_gpus_[at->job];
    }
    if (spec.gpus > spare + victim_gpus) continue;

    // Free the longest-remaining victims one by one until the job can be placed.
    RoomForJob room = make_room(spec, victims, ctx.jobs, cluster, *placement_, none_taken, spare);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (std::size_t k : room.used) {
      const JobIndex victim = victims[k];
      const std::vector<GpuId>& held = ctx.jobs.runtime(victim).gpus;
      plan.preempt(victim);
      changes_.noted(victim);
      preempted.insert(victim);
      undecided_gpus -= held.size();
      spare += held.size();
      // Back in the order as a waiting job (see the file comment).
      rejoined.insert({run_time(ctx.jobs, victim), ctx.jobs.spec(victim).submit, victim, false});
    }
    if (gpus) allocate(entry.job, std::move(*gpus));
  }
}

}  // namespace gcsim
