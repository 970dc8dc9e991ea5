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

// Between calls the running jobs' remaining times all shrink by the same
// time, so their order barely changes: the previous call's order is kept, the
// jobs that stopped running dropped, the remaining times computed again, and
// the order repaired by insertion (a few moves: remaining times that reached 0
// and ties that rounding breaks differently); the jobs that started since are
// sorted and merged in. The result is the order a full sort would give.
const std::vector<ShortestRemainingPolicy::Entry>& ShortestRemainingPolicy::update_running_order(const QueueView& jobs,
                                                                                                 Time now) {
  if (running_start_.size() != jobs.job_count()) {
    running_start_.resize(jobs.job_count(), kNever);
    running_run_.resize(jobs.job_count(), kNever);
    running_gpus_.resize(jobs.job_count(), 0);
    running_preemptions_.resize(jobs.job_count(), 0);
  }
  auto remaining = [&](JobIndex job) {
    const Time run = running_run_[job];
    return run == kNever ? run : std::max(0.0, run - (now - running_start_[job]));
  };
  // The jobs still in the same run as at the previous call, in its order.
  std::size_t kept = 0;
  for (Entry& entry : running_order_) {
    const JobRuntime& rt = jobs.runtime(entry.job);
    if (rt.state != JobState::kRunning || rt.start != running_start_[entry.job] ||
        rt.preemptions != running_preemptions_[entry.job]) {
      running_start_[entry.job] = kNever;
      continue;
    }
    entry.remaining = remaining(entry.job);
    running_order_[kept++] = entry;
  }
  running_order_.resize(kept);
  for (std::size_t i = 1; i < running_order_.size(); ++i)
    for (std::size_t j = i; j > 0 && running_order_[j] < running_order_[j - 1]; --j)
      std::swap(running_order_[j], running_order_[j - 1]);
  // The runs that began since: their run time is fixed until they stop.
  if (kept != jobs.running().size()) {
    for (JobIndex job : jobs.running()) {
      const JobRuntime& rt = jobs.runtime(job);
      if (running_start_[job] == rt.start && running_preemptions_[job] == rt.preemptions) continue;
      running_start_[job] = rt.start;
      running_preemptions_[job] = rt.preemptions;
      running_run_[job] = run_time(jobs, job);
      running_gpus_[job] = rt.gpus.size();
      running_order_.push_back({remaining(job), jobs.spec(job).submit, job, true});
    }
    std::sort(running_order_.begin() + static_cast<std::ptrdiff_t>(kept), running_order_.end());
    std::inplace_merge(running_order_.begin(), running_order_.begin() + static_cast<std::ptrdiff_t>(kept),
                       running_order_.end());
  }
  return running_order_;
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

  // The running jobs in the order, each with its fate: kept once the walk
  // passes it, preempted when a shorter job takes its GPUs; the undecided
  // ones are the only possible victims.
  enum class Fate { kUndecided, kKept, kPreempted };
  // Without preemption a running job is never a victim, and its place in the
  // order changes nothing: the order is not read.
  static const std::vector<Entry> kNoneRead;
  const std::vector<Entry>& running = preemptive_ ? update_running_order(ctx.jobs, ctx.now) : kNoneRead;
  std::size_t undecided_gpus = 0;
  for (const Entry& entry : running) undecided_gpus += running_gpus_[entry.job];
  std::vector<Fate> fate(running.size(), Fate::kUndecided);
  std::size_t next_running = 0;

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
    while (next_running < running.size() && fate[next_running] == Fate::kPreempted) ++next_running;
    // The first of the three heads in the order.
    enum class From { kNone, kRunning, kWaiting, kRejoined } from = From::kNone;
    const Entry* head = nullptr;
    if (next_running < running.size()) head = &running[next_running], from = From::kRunning;
    if (next_waiting != waiting_order_.end() && (!head || *next_waiting < *head))
      head = &*next_waiting, from = From::kWaiting;
    if (!rejoined.empty() && (!head || *rejoined.begin() < *head)) head = &*rejoined.begin(), from = From::kRejoined;
    if (from == From::kNone) break;
    const Entry entry = *head;
    if (from == From::kRunning) {
      fate[next_running++] = Fate::kKept;
      undecided_gpus -= running_gpus_[entry.job];
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
    std::vector<std::size_t> victims;
    std::size_t victim_gpus = 0;
    for (std::size_t i = running.size(); i > next_running && running[i - 1].remaining > entry.remaining; --i) {
      if (fate[i - 1] != Fate::kUndecided) continue;
      victims.push_back(i - 1);
      victim_gpus += running_gpus_[running[i - 1].job];
    }
    if (spec.gpus > spare + victim_gpus) continue;

    // Free the longest-remaining victims one by one until the job can be placed.
    std::vector<JobIndex> candidates;
    for (std::size_t i : victims) candidates.push_back(running[i].job);
    RoomForJob room = make_room(spec, candidates, ctx.jobs, cluster, *placement_, none_taken, spare);
    std::optional<std::vector<GpuId>>& gpus = room.gpus;
    for (std::size_t k : room.used) {
      const std::size_t i = victims[k];
      const JobIndex victim = running[i].job;
      const std::vector<GpuId>& held = ctx.jobs.runtime(victim).gpus;
      plan.preempt(victim);
      changes_.noted(victim);
      fate[i] = Fate::kPreempted;
      undecided_gpus -= held.size();
      spare += held.size();
      // Back in the order as a waiting job (see the file comment).
      rejoined.insert({run_time(ctx.jobs, victim), ctx.jobs.spec(victim).submit, victim, false});
    }
    if (gpus) allocate(entry.job, std::move(*gpus));
  }
}

}  // namespace gcsim
