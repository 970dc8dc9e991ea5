#include "policies/capacity/capacity_policy.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <stdexcept>

#include "policies/capacity/capacity_config_reader.hpp"
#include "policies/capacity/preemption_planner.hpp"
#include "policies/capacity/user_limits.hpp"
#include "policies/kit/preemption_room.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/invariant_violation.hpp"
#include "sim/core/number_text.hpp"

namespace gcsim {

CapacityPolicy::CapacityPolicy(CapacityConfig config, std::unique_ptr<PlacementPolicy> placement, bool preempt_spot)
    : config_(std::move(config)),
      placement_(std::move(placement)),
      preempt_spot_(preempt_spot),
      tree_(config_),
      monitor_(config_.preemption) {
  if (!placement_) throw std::invalid_argument("capacity needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> CapacityPolicy::create(const PolicyOptions& options,
                                                         std::unique_ptr<PlacementPolicy> placement) {
  auto it = options.find("config");
  const bool preempt_spot = options.flag("preempt_spot", true);
  CapacityConfig config =
      it == options.end() ? CapacityConfig::single_default_queue() : read_capacity_config(it->second);
  return std::make_unique<CapacityPolicy>(std::move(config), std::move(placement), preempt_spot);
}

std::vector<GuaranteedQueue> CapacityPolicy::guaranteed_queues(const ClusterLayout& layout) const {
  std::vector<GuaranteedQueue> queues;
  for (int leaf : tree_.leaves()) {
    const QueueNode& node = tree_.queue(leaf);
    GuaranteedQueue queue{node.path(), node.absolute_capacity * static_cast<double>(layout.gpu_count()), {node.path()}};
    if (tree_.find_leaf(node.config.name()).index == leaf) queue.job_queue_names.push_back(node.config.name());
    queues.push_back(std::move(queue));
  }
  return queues;
}

void CapacityPolicy::bind(const SchedulingContext& ctx) {
  if (config_.source.empty()) {
    // No configuration file: a queue per queue name of the workload (YARN's
    // one default queue when the jobs name no other).
    std::vector<std::string> names;
    bool dotted = false;
    for (JobIndex j = 0; j < ctx.jobs.job_count(); ++j) {
      const std::string& queue = ctx.jobs.spec(j).queue;
      dotted |= queue.find('.') != std::string::npos;
      if (std::find(names.begin(), names.end(), queue) == names.end()) names.push_back(queue);
    }
    if (!dotted && !(names.size() == 1 && names.front() == "default") && !names.empty()) {
      config_ = CapacityConfig::one_queue_per_name(names);
      tree_ = QueueTree(config_);
    }
  }
  drc_.emplace(cluster_totals(ctx.cluster.layout()));
  leaf_of_job_.assign(ctx.jobs.job_count(), -1);
  request_of_job_.assign(ctx.jobs.job_count(), ResourceVector{});
  user_of_job_.assign(ctx.jobs.job_count(), 0);
  user_names_.clear();
  std::map<std::string, std::size_t> user_numbers;
  for (JobIndex j = 0; j < ctx.jobs.job_count(); ++j) {
    const JobSpec& spec = ctx.jobs.spec(j);
    request_of_job_[j] = ResourceVector::of(spec);
    const auto [user, fresh] = user_numbers.emplace(spec.user, user_names_.size());
    if (fresh) user_names_.push_back(spec.user);
    user_of_job_[j] = user->second;
    const LeafLookup leaf = tree_.find_leaf(spec.queue);
    if (leaf.index < 0) throw InputError(config_.label(), "job '" + spec.id + "'", "queue", leaf.problem);
    leaf_of_job_[j] = leaf.index;
  }
  reservations_ = ReservationBook::admit(config_, tree_, ctx.cluster.layout().gpu_count());
  spot_jobs_ = preempt_spot_ && holds_spot_jobs(ctx.jobs);
  live_.emplace(tree_, leaf_of_job_, request_of_job_, user_of_job_, user_names_);
}

void CapacityPolicy::allocate(const SchedulingContext& ctx, const QueueAllocator& allocator, SchedulingRound& round,
                              Plan& plan, SpotVictims* spot) {
  allocator.serve_reservations(round, reservations_, ctx.now, plan);
  std::size_t kept = 0;
  for (std::size_t r = 0; r < reservations_.reservations().size(); ++r)
    kept += reservations_.unused_gpus(r, ctx.jobs, ctx.now);
  if (!spot) return allocator.serve_queues(round, kept, plan);
  const SpotRoom room = [&](SchedulingRound& in, JobIndex job, std::size_t keep, Plan& decisions) {
    return room_from_spot_jobs(ctx, allocator, *spot, in, job, keep, decisions);
  };
  allocator.serve_queues(round, kept, plan, &room);
}

std::optional<std::vector<GpuId>> CapacityPolicy::room_from_spot_jobs(const SchedulingContext& ctx,
                                                                      const QueueAllocator& allocator,
                                                                      SpotVictims& spot, SchedulingRound& round,
                                                                      JobIndex job, std::size_t keep,
                                                                      Plan& plan) const {
  const JobSpec& spec = ctx.jobs.spec(job);
  const int leaf = leaf_of_job_[job];
  const ResourceVector request = ResourceVector::of(spec);
  std::vector<JobIndex> victims;
  std::size_t freed = 0;
  ResourceVector released;
  const auto take = [&](JobIndex victim) {
    victims.push_back(victim);
    spot.taken(victim);
    freed += ctx.jobs.runtime(victim).gpus.size();
    released += ResourceVector::of(ctx.jobs.spec(victim));
  };
  const auto give_up = [&](std::size_t freed_in_cluster) {
    for (std::size_t v = 0; v < victims.size(); ++v) {
      spot.returned(victims[v]);
      if (v < freed_in_cluster) round.cluster.take(ctx.jobs.runtime(victims[v]).gpus, ctx.jobs.spec(victims[v]));
    }
    return std::nullopt;
  };

  // 1. Spot jobs whose usage keeps the job above a maximum of its queues or
  // its user limit: those charged to a queue on its path (root aside), in
  // order, until it is admitted; each waits again, as preempted.
  QueueUsage usage = round.usage;
  const std::vector<int> path = tree_.path_to_root(leaf);
  const auto in_its_way = [&](JobIndex victim) {
    for (int q : tree_.path_to_root(leaf_of_job_[victim]))
      if (q != QueueTree::root() && std::find(path.begin(), path.end(), q) != path.end()) return true;
    return false;
  };
  if (!allocator.admits(usage, leaf, spec.user, request)) {
    const NextCandidate next = spot.walk();
    for (std::optional<JobIndex> victim = next(); victim; victim = next()) {
      if (!in_its_way(*victim)) continue;
      const JobSpec& held = ctx.jobs.spec(*victim);
      usage.stop(leaf_of_job_[*victim], held.user, ResourceVector::of(held));
      usage.add_waiting(leaf_of_job_[*victim], held.user);
      take(*victim);
      if (allocator.admits(usage, leaf, spec.user, request)) break;
    }
    if (!allocator.admits(usage, leaf, spec.user, request)) return give_up(0);
  }
  for (JobIndex victim : victims) round.cluster.free(ctx.jobs.runtime(victim).gpus, ctx.jobs.spec(victim));

  // 2. Spot jobs of any queue whose GPUs it needs, as few as its placement needs.
  const std::size_t admitted_by = victims.size();
  const std::size_t free_gpus = round.free_gpus + freed;
  const std::size_t usable = free_gpus > keep ? free_gpus - keep : 0;
  std::optional<std::vector<GpuId>> gpus;
  if (!victims.empty() && usable >= spec.gpus) gpus = placement_->place(spec, round.cluster, round.taken);
  if (!gpus) {
    RoomForJob room = make_room(spec, spot.walk(), ctx.jobs, round.cluster, *placement_, round.taken, usable);
    if (!room.gpus) return give_up(admitted_by);
    for (JobIndex victim : room.victims) take(victim);
    gpus = std::move(room.gpus);
  }

  // The GPUs kept for others, and the cluster's free cores and memory, with the victims' back.
  const ResourceVector free = drc_->cluster() - round.usage.used(QueueTree::root()) + released;
  const ResourceVector host{0, static_cast<double>(spec.cpu_cores), spec.memory_bytes};
  if (round.free_gpus + freed < spec.gpus + keep || !drc_->fits_in(host, componentwise_max(free, {})))
    return give_up(victims.size());
  for (JobIndex victim : victims) {
    plan.preempt(victim);
    requeue(ctx, victim, round);  // its GPUs are free in round.cluster already
  }
  return gpus;
}

std::vector<JobIndex> CapacityPolicy::select_victims(const SchedulingContext& ctx, const QueueAllocator& allocator,
                                                     const SchedulingRound& round) const {
  std::vector<ResourceVector> used(tree_.size()), pending(tree_.size());
  for (std::size_t q = 0; q < tree_.size(); ++q) used[q] = round.usage.used(static_cast<int>(q));
  for (int leaf : tree_.leaves()) {
    std::vector<WaitingRequest> waiting;
    for (JobIndex job : round.waiting[leaf])
      waiting.push_back({ctx.jobs.spec(job).user, ResourceVector::of(ctx.jobs.spec(job))});
    pending[leaf] = demand_preemption_can_serve(*drc_, round.usage.used(leaf), tree_.queue(leaf).absolute_capacity,
                                                allocator.user_limit(round, leaf), round.usage.users(leaf), waiting);
  }

  // Running jobs, and those this plan starts, except those running against an active reservation.
  std::vector<std::vector<PreemptionCandidate>> candidates(tree_.size());
  auto add = [&](JobIndex job) {
    if (auto r = reservations_.charged_to(job); r && reservations_.reservations()[*r].active(ctx.now)) return;
    candidates[leaf_of_job_[job]].push_back({job, ResourceVector::of(ctx.jobs.spec(job))});
  };
  // Not those preempted in this call already (for a guaranteed job), even if started again.
  auto preempted = [&](JobIndex job) {
    return std::find(round.preempted.begin(), round.preempted.end(), job) != round.preempted.end();
  };
  for (JobIndex job : ctx.jobs.running())
    if (!preempted(job)) add(job);
  for (JobIndex job : round.started)
    if (!preempted(job)) add(job);
  for (auto& in_leaf : candidates)  // youngest first: the reverse of the leaf's FIFO order
    std::sort(in_leaf.begin(), in_leaf.end(), [&](const PreemptionCandidate& a, const PreemptionCandidate& b) {
      return serves_before(ctx.jobs, b.job, a.job);
    });

  const PreemptionPlanner planner(tree_, *drc_, config_.preemption);
  return planner.select_victims(planner.compute_targets(used, pending), candidates);
}

void CapacityPolicy::preempt(const SchedulingContext& ctx, JobIndex job, SchedulingRound& round, Plan& plan) const {
  assert(ctx.jobs.runtime(job).state == JobState::kRunning && "only a job marked in an earlier round is preempted");
  plan.preempt(job);
  round.cluster.free(ctx.jobs.runtime(job).gpus, ctx.jobs.spec(job));
  requeue(ctx, job, round);
}

void CapacityPolicy::requeue(const SchedulingContext& ctx, JobIndex job, SchedulingRound& round) const {
  const JobSpec& spec = ctx.jobs.spec(job);
  const int leaf = leaf_of_job_[job];
  round.usage.stop(leaf, spec.user, ResourceVector::of(spec));
  round.usage.add_waiting(leaf, spec.user);
  round.free_gpus += ctx.jobs.runtime(job).gpus.size();
  round.preempted.push_back(job);
  auto& waiting = round.waiting[leaf];
  waiting.insert(std::upper_bound(waiting.begin(), waiting.end(), job,
                                  [&](JobIndex a, JobIndex b) { return serves_before(ctx.jobs, a, b); }),
                 job);
}

void CapacityPolicy::schedule(const SchedulingContext& ctx, Plan& plan) {
  if (!drc_) bind(ctx);
  monitor_.forget_stopped(ctx.jobs);
  reservations_.forget_stopped(ctx.jobs);

  const QueueAllocator allocator(tree_, *drc_, *placement_, ctx.jobs, leaf_of_job_);
  live_->update(ctx.jobs);
  SchedulingRound round(live_->usage(), live_->waiting(), ctx.cluster);
  // Spot jobs a guaranteed job may preempt: not those running against an active reservation.
  std::optional<SpotVictims> spot;
  if (spot_jobs_)
    spot.emplace(ctx.jobs, [&](JobIndex job) {
      const auto r = reservations_.charged_to(job);
      return r && reservations_.reservations()[*r].active(ctx.now);
    });
  SpotVictims* const spot_victims = spot ? &*spot : nullptr;
  allocate(ctx, allocator, round, plan, spot_victims);

  if (monitor_.enabled()) {
    // Computed at every call, so that a call between rounds knows whether the next round has work.
    const std::vector<JobIndex> selected = select_victims(ctx, allocator, round);
    if (monitor_.is_round(ctx.now)) {
      const std::vector<JobIndex> victims = monitor_.record_round(selected, ctx.now);
      for (JobIndex job : victims) {
        preempt(ctx, job, round, plan);
        if (spot_victims) spot_victims->taken(job);
      }
      if (!victims.empty()) allocate(ctx, allocator, round, plan, spot_victims);
    }
    if (!selected.empty() || monitor_.has_marks()) plan.wake_at(monitor_.next_round_after(ctx.now));
  }
  if (auto edge = reservations_.next_edge_after(ctx.now)) plan.wake_at(*edge);
  for (const Decision& decision : plan.decisions()) live_->noted(decision.job);
  for (JobIndex job : round.preempted) monitor_.forget(job);
}

void CapacityPolicy::check_invariants(const SchedulingContext& ctx) const {
  if (!live_) return;
  QueueUsage summed(tree_);
  std::vector<QueueUsage::Charge> running;
  for (JobIndex job : ctx.jobs.running())
    running.push_back({leaf_of_job_[job], user_of_job_[job], &request_of_job_[job]});
  summed.start_all(running, user_names_);
  for (int queue = 0; queue < static_cast<int>(tree_.size()); ++queue) {
    const ResourceVector& kept = live_->usage().used(queue);
    const ResourceVector& sum = summed.used(queue);
    for (std::size_t kind = 0; kind < ResourceVector::kKinds; ++kind) {
      // Kept sums are exact for whole quantities and may differ by rounding otherwise.
      if (std::abs(kept[kind] - sum[kind]) <= 1e-9 * std::max(1.0, std::abs(sum[kind]))) continue;
      static const char* const kKinds[] = {"GPUs", "CPU cores", "bytes of host memory"};
      throw InvariantViolation("queue-usage", "queue '" + tree_.queue(queue).path() + "' counts " +
                                                  significant(kept[kind], 12) + " " + kKinds[kind] +
                                                  " in use; its running jobs hold " + significant(sum[kind], 12));
    }
  }
}

}  // namespace gcsim
