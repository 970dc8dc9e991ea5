// capacity_policy.hpp: Hadoop YARN's CapacityScheduler (Hadoop 3.1 and
// later) with GPUs as a resource (`capacity`).
//
// Source semantics honoured, with the YARN properties that set them (read by
// capacity_config_reader.hpp; docs/capacity-scheduler.md has the details):
//  - Hierarchical queues: yarn.scheduler.capacity.<path>.queues. A queue is
//    guaranteed `capacity` percent of its parent (siblings sum to 100) and may
//    grow into idle resources up to `maximum-capacity` percent of its parent
//    (elasticity); absolute shares multiply down the tree. Jobs are submitted
//    to leaf queues, named by full path ("root.research.a") or by a unique
//    short name ("a").
//  - Resources: GPUs, CPU cores and host memory of the cluster's node groups;
//    a job asks for JobSpec::gpus, cpu_cores and memory_bytes.
//    yarn.scheduler.capacity.resource-calculator is DominantResourceCalculator:
//    usages are compared by dominant share of the cluster (resource_vector.hpp).
//  - Allocation (queue_allocator.hpp): from root, children least used first
//    (used / guaranteed); within a leaf FIFO by priority then submission
//    (ordering-policy fifo); a job starts whole (gang) if the leaf and its
//    ancestors stay within their maximum capacity, its user is within the user
//    limit and the placement given to the factory (default pack) places it.
//    Queues within their guarantee come first for free GPUs (the analogue of
//    YARN's container reservations on nodes).
//  - User limits (user_limits.hpp): minimum-user-limit-percent and
//    user-limit-factor, with YARN's formula over resource vectors.
//  - Preemption, when yarn.resourcemanager.scheduler.monitor.enable is true
//    (preemption_planner.hpp, preemption_monitor.hpp): every
//    ...preemption.monitoring_interval ms the ideal share of every queue is
//    computed by water-filling over demand (on dominant shares); leaves over
//    their guarantee by more than ...max_ignored_over_capacity give back what
//    exceeds their ideal share (times ...natural_termination_factor), at most
//    ...total_preemption_per_round of the cluster per round, youngest job
//    first, only for pending demand of queues below their guarantee, never
//    taking a queue below its guarantee nor from one with disable_preemption.
//    A selected job is preempted when a round selects it again at least
//    ...max_wait_before_kill ms after it was first selected. Preempted jobs
//    go back to their queue; the engine restarts them from their last
//    checkpoint.
//  - Reservations (reservations.hpp): GPUs booked for a user's jobs in a leaf
//    for a time window, admitted against the queues' maximum capacities.
//  - Spot jobs (JobSpec::qos spot), the analogue of YARN's opportunistic
//    containers (yarn.resourcemanager.opportunistic-container-allocation),
//    which a NodeManager kills when a guaranteed container needs their
//    resources: with option preempt_spot (the default) and spot jobs in the
//    workload, each allocation serves the guaranteed jobs first; one that
//    cannot start preempts, at once and with no grace period, the running
//    spot jobs in its way: first those charged to its queues that keep it
//    above a queue's maximum or its user limit, then, of any queue, those
//    whose GPUs its placement needs; in each step lowest priority first,
//    then the most recently started, as few as needed
//    (policies/kit/spot_victims.hpp). If that would not let it start,
//    nothing is preempted. The spot jobs are then served on what is left. A
//    spot job never preempts, nor is one running against an active
//    reservation preempted. Spot jobs count against their queue's
//    capacities and user limits as any job (opportunistic containers do
//    not), and the monitor may preempt them as any job.
//
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: the
// queues' usage and each leaf's waiting jobs in serving order are kept across
// calls (live_queues.hpp) and brought up to date with the k jobs that started,
// ended, arrived or were preempted since the last call (O(k log w)), then
// copied for the call's own decisions (O(w)); each job started restarts the
// walk down the tree and re-reads its leaf's jobs before it, skipping those
// found unplaceable in the call (O(w) per start; a placement, O(g), per job
// tried); with preemption enabled, every call also reads the waiting jobs and
// sorts the running ones for the monitor (O(w + r log r)).
//
// Assumptions and simplifications:
//  - One container per job: a job is allocated and preempted whole. A user
//    may end one job above its limit (user_limits.hpp); preemption acts only
//    for waiting jobs that fit in their queue's guarantee and takes only jobs
//    that fit in their queue's excess over its guarantee
//    (preemption_planner.hpp), where YARN's small containers need no such rule.
//  - CPU cores and memory are checked against the cluster's free totals, not
//    node by node; the placement chooses GPUs only.
//  - Not modelled: node labels and partitions, absolute-resource capacities,
//    queue priorities, application masters and their resource limits,
//    container reservations on nodes, intra-queue preemption, queue states
//    and ACLs, user weights, the fair ordering policy. Properties for them are
//    rejected rather than ignored.
//  - Errors the user causes are InputErrors naming the configuration file:
//    configuration errors when the factory reads it; a job naming a queue that
//    is not a leaf, or reservations exceeding a queue's maximum capacity in
//    GPUs, at the first scheduling call (the cluster and the jobs are not
//    known before), where every job of the workload is checked at once.
//  - Options: --policy-opt preempt_spot=false: spot jobs are served as any
//    job, and preempted only by the monitor. --policy-opt config=FILE. Without it: a leaf root.NAME for each
//    queue name the workload's jobs give, in their order, equal guaranteed
//    capacities summing to 100%, each elastic to the whole cluster with no
//    per-user cap, no preemption (one queue root.default, YARN's shipped
//    configuration, when the jobs name no other queue).
//
//   auto policy = CapacityPolicy::create({{"config", "yarn.json"}}, std::make_unique<PackPlacement>());
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "policies/capacity/capacity_config.hpp"
#include "policies/capacity/live_queues.hpp"
#include "policies/capacity/preemption_monitor.hpp"
#include "policies/capacity/queue_allocator.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/reservations.hpp"
#include "policies/capacity/resource_vector.hpp"
#include "policies/kit/spot_victims.hpp"
#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

class CapacityPolicy final : public SchedulingPolicy {
 public:
  CapacityPolicy(CapacityConfig config, std::unique_ptr<PlacementPolicy> placement, bool preempt_spot = true);
  /// Reads options `config` (a file path; optional) and `preempt_spot`
  /// (true/false, default true). Throws InputError for a bad configuration
  /// file, std::invalid_argument for a bad option.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "capacity"; }
  /// Throws InputError on the first call if a job names an unknown or parent
  /// queue, or the reservations do not fit the cluster.
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  /// Each leaf queue, its absolute capacity of the cluster's GPUs, and the
  /// names that designate it (its path; its short name when no other leaf has it).
  std::vector<GuaranteedQueue> guaranteed_queues(const ClusterLayout& layout) const override;
  /// The usage kept across calls equals the usage summed again from the
  /// running jobs, queue by queue (invariant `queue-usage`).
  void check_invariants(const SchedulingContext& ctx) const override;

  const CapacityConfig& config() const { return config_; }
  const QueueTree& queues() const { return tree_; }
  /// The preemption marks and their times.
  const PreemptionMonitor& monitor() const { return monitor_; }

 private:
  void bind(const SchedulingContext& ctx);
  // `spot`: the spot jobs guaranteed jobs may preempt; null when they preempt none.
  void allocate(const SchedulingContext& ctx, const QueueAllocator& allocator, SchedulingRound& round, Plan& plan,
                SpotVictims* spot);
  std::vector<JobIndex> select_victims(const SchedulingContext& ctx, const QueueAllocator& allocator,
                                       const SchedulingRound& round) const;
  void preempt(const SchedulingContext& ctx, JobIndex job, SchedulingRound& round, Plan& plan) const;
  // A preempted job's usage, GPUs and place in its leaf's queue, in the round.
  void requeue(const SchedulingContext& ctx, JobIndex job, SchedulingRound& round) const;
  // SpotRoom (queue_allocator.hpp): spot jobs preempted for guaranteed `job`.
  std::optional<std::vector<GpuId>> room_from_spot_jobs(const SchedulingContext& ctx, const QueueAllocator& allocator,
                                                        SpotVictims& spot, SchedulingRound& round, JobIndex job,
                                                        std::size_t keep, Plan& plan) const;

  CapacityConfig config_;
  std::unique_ptr<PlacementPolicy> placement_;
  bool preempt_spot_;
  bool spot_jobs_ = false;  // preempt_spot_ and the workload holds spot jobs; known from the first call on
  QueueTree tree_;
  PreemptionMonitor monitor_;
  // Known from the first call on.
  std::optional<DominantResourceCalculator> drc_;
  std::vector<int> leaf_of_job_;
  std::vector<ResourceVector> request_of_job_;  // per job: ResourceVector::of its spec
  std::vector<std::size_t> user_of_job_;        // per job: its user's index in user_names_
  std::vector<std::string> user_names_;
  ReservationBook reservations_;
  std::optional<LiveQueues> live_;  // over the members above, so declared after them
};

}  // namespace gcsim
