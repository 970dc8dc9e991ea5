#include "policies/capacity/capacity_policy.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <stdexcept>

#include "policies/capacity/capacity_config_reader.hpp"
#include "policies/capacity/preemption_planner.hpp"
#include "policies/capacity/user_limits.hpp"
#include "sim/core/input_error.hpp"
#include "sim/core/invariant_violation.hpp"
#include "sim/core/number_text.hpp"

namespace gcsim {

CapacityPolicy::CapacityPolicy(CapacityConfig config, std::unique_ptr<PlacementPolicy> placement)
    : config_(std::move(config)), placement_(std::move(placement)), tree_(config_), monitor_(config_.preemption) {
  if (!placement_) throw std::invalid_argument("capacity needs a placement policy");
}

std::unique_ptr<SchedulingPolicy> CapacityPolicy::create(const PolicyOptions& options,
                                                         std::unique_ptr<PlacementPolicy> placement) {
  auto it = options.find("config");
  CapacityConfig config =
      it == options.end() ? CapacityConfig::single_default_queue() : read_capacity_config(it->second);
  return std::make_unique<CapacityPolicy>(std::move(config), std::move(placement));
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
  live_.emplace(tree_, leaf_of_job_, request_of_job_, user_of_job_, user_names_);
}

void CapacityPolicy::allocate(const SchedulingContext& ctx, const QueueAllocator& allocator, SchedulingRound& round,
                              Plan& plan) {
  allocator.serve_reservations(round, reservations_, ctx.now, plan);
  std::size_t kept = 0;
  for (std::size_t r = 0; r < reservations_.reservations().size(); ++r)
    kept += reservations_.unused_gpus(r, ctx.jobs, ctx.now);
  allocator.serve_queues(round, kept, plan);
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
  for (JobIndex job : ctx.jobs.running()) add(job);
  for (JobIndex job : round.started) add(job);
  for (auto& in_leaf : candidates)  // youngest first: the reverse of the leaf's FIFO order
    std::sort(in_leaf.begin(), in_leaf.end(), [&](const PreemptionCandidate& a, const PreemptionCandidate& b) {
      return serves_before(ctx.jobs, b.job, a.job);
    });

  const PreemptionPlanner planner(tree_, *drc_, config_.preemption);
  return planner.select_victims(planner.compute_targets(used, pending), candidates);
}

void CapacityPolicy::preempt(const SchedulingContext& ctx, JobIndex job, SchedulingRound& round, Plan& plan) const {
  assert(ctx.jobs.runtime(job).state == JobState::kRunning && "only a job marked in an earlier round is preempted");
  const JobSpec& spec = ctx.jobs.spec(job);
  const int leaf = leaf_of_job_[job];
  plan.preempt(job);
  round.usage.stop(leaf, spec.user, ResourceVector::of(spec));
  round.usage.add_waiting(leaf, spec.user);
  const std::vector<GpuId>& gpus = ctx.jobs.runtime(job).gpus;
  round.cluster.free(gpus, spec);
  round.free_gpus += gpus.size();
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
  allocate(ctx, allocator, round, plan);

  if (monitor_.enabled()) {
    // Computed at every call, so that a call between rounds knows whether the next round has work.
    const std::vector<JobIndex> selected = select_victims(ctx, allocator, round);
    if (monitor_.is_round(ctx.now)) {
      const std::vector<JobIndex> victims = monitor_.record_round(selected, ctx.now);
      for (JobIndex job : victims) preempt(ctx, job, round, plan);
      if (!victims.empty()) allocate(ctx, allocator, round, plan);
    }
    if (!selected.empty() || monitor_.has_marks()) plan.wake_at(monitor_.next_round_after(ctx.now));
  }
  if (auto edge = reservations_.next_edge_after(ctx.now)) plan.wake_at(*edge);
  for (const Decision& decision : plan.decisions()) live_->noted(decision.job);
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
