#include "policies/drf/drf_policy.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "policies/kit/exact_sums.hpp"
#include "policies/kit/room_left.hpp"

namespace gcsim {

DrfResources DrfResources::demand_of(const JobSpec& job) {
  return {static_cast<double>(job.gpus) * job.gpu_share, static_cast<double>(job.cpu_cores), job.memory_bytes};
}

DrfResources DrfResources::cluster_total(const ClusterSpec& cluster) {
  DrfResources total;
  for (const NodeGroup& group : cluster.node_groups) {
    const double nodes = group.count;
    total.gpus += nodes * group.gpus_per_node;
    total.cpu_cores += nodes * group.cpu_cores;
    total.memory_bytes += nodes * group.memory_bytes;
  }
  return total;
}

DrfResources& DrfResources::operator+=(const DrfResources& other) {
  gpus += other.gpus;
  cpu_cores += other.cpu_cores;
  memory_bytes += other.memory_bytes;
  return *this;
}

double DrfResources::dominant_share(const DrfResources& total) const {
  double share = 0;
  if (total.gpus > 0) share = std::max(share, gpus / total.gpus);
  if (total.cpu_cores > 0) share = std::max(share, cpu_cores / total.cpu_cores);
  if (total.memory_bytes > 0) share = std::max(share, memory_bytes / total.memory_bytes);
  return share;
}

DrfPolicy::DrfPolicy(std::unique_ptr<PlacementPolicy> placement) : placement_(std::move(placement)) {
  if (!placement_) throw std::invalid_argument("drf needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> DrfPolicy::create(const PolicyOptions&, std::unique_ptr<PlacementPolicy> placement) {
  return std::make_unique<DrfPolicy>(std::move(placement));
}

void DrfPolicy::note_job(const QueueView& jobs, JobIndex job) {
  if (user_of_.size() != jobs.job_count()) {
    user_of_.resize(jobs.job_count(), kUnknownUser);
    demand_.resize(jobs.job_count());
  }
  if (user_of_[job] != kUnknownUser) return;
  const JobSpec& spec = jobs.spec(job);
  user_of_[job] = user_ids_.emplace(spec.user, user_ids_.size()).first->second;
  demand_[job] = DrfResources::demand_of(spec);
}

void DrfPolicy::update_waiting(const QueueView& jobs) {
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  for (JobIndex job : delta.left) {
    auto user = waiting_.find(jobs.spec(job).user);
    if (user == waiting_.end()) continue;
    user->second.jobs.erase({jobs.runtime(job).submitted, job});
    if (user->second.jobs.empty()) waiting_.erase(user);
  }
  for (JobIndex job : delta.joined) {
    note_job(jobs, job);
    UserQueue& queue = waiting_[jobs.spec(job).user];
    queue.user = user_of_[job];
    queue.jobs.insert({jobs.runtime(job).submitted, job});
  }
}

namespace {

// Whether sums of the jobs' demands, kept by adding and taking away, stay
// exactly the sums made afresh (exact_sums.hpp).
bool demands_sum_exactly(const QueueView& jobs) {
  ExactSums gpus, cpu_cores, memory_bytes;
  for (JobIndex job = 0; job < jobs.job_count(); ++job) {
    const DrfResources demand = DrfResources::demand_of(jobs.spec(job));
    gpus.add(demand.gpus);
    cpu_cores.add(demand.cpu_cores);
    memory_bytes.add(demand.memory_bytes);
  }
  return gpus.exact() && cpu_cores.exact() && memory_bytes.exact();
}

}  // namespace

void DrfPolicy::update_held(const QueueView& jobs) {
  if (sums_ == Sums::kUnknown) sums_ = demands_sum_exactly(jobs) ? Sums::kKept : Sums::kAfresh;
  if (sums_ == Sums::kAfresh) {
    // Summed in the order the jobs started.
    held_.assign(user_ids_.size(), DrfResources{});
    in_use_ = DrfResources{};
    for (JobIndex job : jobs.running()) {
      note_job(jobs, job);
      if (held_.size() < user_ids_.size()) held_.resize(user_ids_.size());
      held_[user_of_[job]] += demand_[job];
      in_use_ += demand_[job];
    }
    return;
  }
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const RunEvent& event = log[runs_read_];
    note_job(jobs, event.job);
    if (held_.size() < user_ids_.size()) held_.resize(user_ids_.size());
    const double sign = event.started ? 1 : -1;
    const DrfResources& demand = demand_[event.job];
    for (DrfResources* sum : {&held_[user_of_[event.job]], &in_use_}) {
      sum->gpus += sign * demand.gpus;
      sum->cpu_cores += sign * demand.cpu_cores;
      sum->memory_bytes += sign * demand.memory_bytes;
    }
  }
}

void DrfPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  const QueueView& jobs = ctx.jobs;
  update_waiting(jobs);
  if (jobs.waiting().empty()) return;  // the run log is read at a later call
  update_held(jobs);
  const DrfResources total = DrfResources::cluster_total(ctx.cluster.layout().spec());

  // What each user's running jobs hold, and what all of them hold together,
  // as the call's decisions change them.
  std::vector<DrfResources> held = held_;
  held.resize(user_ids_.size());
  DrfResources in_use = in_use_;

  RoomLeft room(ctx.cluster);  // what the jobs placed so far in this call leave
  const std::vector<bool> none_taken;
  auto pooled_fit = [&](const DrfResources& demand) {
    return (total.cpu_cores == 0 || in_use.cpu_cores + demand.cpu_cores <= total.cpu_cores) &&
           (total.memory_bytes == 0 || in_use.memory_bytes + demand.memory_bytes <= total.memory_bytes);
  };
  std::set<JobIndex> started;         // in this call: still in waiting_ until the next call
  std::set<std::string> out_of_call;  // users with nothing left that fits in this call

  while (!room.none()) {
    // The user with the lowest dominant share; the map's order breaks ties by name.
    auto user = waiting_.end();
    double lowest = 0;
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
      if (out_of_call.count(it->first)) continue;
      const double share = held[it->second.user].dominant_share(total);
      if (user == waiting_.end() || share < lowest) {
        lowest = share;
        user = it;
      }
    }
    if (user == waiting_.end()) break;

    bool served = false;
    for (const auto& [submit, job] : user->second.jobs) {
      if (started.count(job)) continue;
      const JobSpec& spec = jobs.spec(job);
      const DrfResources& demand = demand_[job];
      if (!room.may_fit(spec) || !pooled_fit(demand)) continue;
      auto gpus = placement_->place(spec, room.view(), none_taken);
      if (!gpus) continue;
      room.take(*gpus, spec);
      plan.allocate(job, std::move(*gpus));
      changes_.noted(job);
      started.insert(job);
      held[user->second.user] += demand;
      in_use += demand;
      served = true;
      break;
    }
    // A user with nothing left that fits drops out of this call (one whose
    // jobs all started finds none at its next turn, with nothing changed).
    if (!served) out_of_call.insert(user->first);
  }
}

}  // namespace gcsim
