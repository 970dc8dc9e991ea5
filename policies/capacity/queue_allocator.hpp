// queue_allocator.hpp: starting waiting jobs down the queue hierarchy, as
// YARN's CapacityScheduler assigns containers.
//
// Source: ParentQueue/LeafQueue.assignContainers and
// PriorityUtilizationQueueOrderingPolicy (Hadoop 3), one whole job (gang) per
// assignment. Each assignment starts from root:
//  - a parent offers to its children least used first: used capacity =
//    dominant share of what the child uses / its absolute capacity; children
//    with a capacity come before those without (which are ordered by the
//    dominant share they use); ties by queue path;
//  - a leaf tries its waiting jobs in FIFO order (higher priority first, then
//    earlier submission, then workload order) and starts the first job that
//    (1) keeps the leaf and every queue above it within its maximum capacity:
//        dominant share of (used + the job) <= absolute maximum capacity,
//    (2) belongs to a user within the user limit (user_limits.hpp),
//    (3) fits in the cluster's free GPUs (less the GPUs kept for
//        reservations) and free CPU cores and memory, and
//    (4) the placement can place whole.
//    A job failing a test is skipped; later jobs of the leaf may start.
// After each start the order is computed again from root, until no job can
// start.
// Spot jobs (JobSpec::qos; only when the policy gives a SpotRoom, which it
// does when the workload holds spot jobs and spot preemption is on): the
// guaranteed jobs are served first, down the hierarchy as above, and one
// that fails any of (1) to (4) asks the SpotRoom, which may preempt running
// spot jobs that stand in its way (their usage in its queues or of its user,
// their GPUs); then the spot jobs are served the same way on what is left,
// never preempting.
// Queues within their guarantee come first for free GPUs: when the first job
// of a leaf that would stay within the leaf's guarantee finds no room, the
// GPUs it needs are claimed for it, and jobs that would take their own queue
// above its guarantee (borrowers) start only if the free GPUs left afterwards
// still cover all such claims. (YARN gets the same effect by reserving the
// container on a node; without it, GPUs freed by preemption for a large job
// would go straight back to the queue they were taken from.)
//
//   QueueAllocator allocator(tree, drc, placement, ctx.jobs, leaf_of_job);
//   allocator.serve_reservations(round, reservations, ctx.now, plan);
//   allocator.serve_queues(round, kept_gpus, plan);
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/queue_usage.hpp"
#include "policies/capacity/reservations.hpp"
#include "policies/capacity/resource_vector.hpp"
#include "sim/core/plan.hpp"
#include "sim/core/policy.hpp"
#include "policies/kit/tentative_cluster.hpp"

namespace gcsim {

/// FIFO order inside a leaf: whether `a` is served before `b`.
bool serves_before(const QueueView& jobs, JobIndex a, JobIndex b);

/// What one scheduling call knows and has decided so far.
struct SchedulingRound {
  /// Starts from what the queues hold and who waits, per leaf in serving order.
  SchedulingRound(const QueueUsage& usage, std::vector<std::vector<JobIndex>> waiting, const ClusterView& cluster);

  QueueUsage usage;
  std::vector<std::vector<JobIndex>> waiting;  // per queue (leaves only), in FIFO order
  TentativeCluster cluster;                    // preempted jobs' GPUs shown free
  std::vector<bool> taken;                     // GPUs promised earlier in the plan
  std::size_t free_gpus;                       // free (or freed) and not promised
  std::vector<JobIndex> started;               // jobs started by the plan, in order
  std::vector<JobIndex> preempted;             // running jobs the plan preempts
};

/// Room for guaranteed job `job` that found none: GPUs for it, freed by
/// preempting running spot jobs (recorded in `plan` and `round`), or nullopt
/// (nothing preempted). `keep`: GPUs that must stay free besides its own.
using SpotRoom = std::function<std::optional<std::vector<GpuId>>(SchedulingRound& round, JobIndex job, std::size_t keep,
                                                                 Plan& plan)>;

class QueueAllocator {
 public:
  /// `leaf_of_job`: every job's leaf queue index.
  QueueAllocator(const QueueTree& tree, const DominantResourceCalculator& drc, const PlacementPolicy& placement,
                 const QueueView& jobs, const std::vector<int>& leaf_of_job);

  /// Starts waiting jobs against the active reservations, reservation by
  /// reservation in configuration order (reservations.hpp).
  void serve_reservations(SchedulingRound& round, ReservationBook& reservations, Time now, Plan& plan) const;
  /// Starts waiting jobs down the hierarchy until none can start, leaving
  /// `kept_gpus` GPUs free; with `spot_room`, guaranteed jobs first (asking
  /// it for room when they find none), then spot jobs.
  void serve_queues(SchedulingRound& round, std::size_t kept_gpus, Plan& plan,
                    const SpotRoom* spot_room = nullptr) const;

  /// The user limit of `leaf` in the round's current state, or with `usage`.
  ResourceVector user_limit(const SchedulingRound& round, int leaf) const { return user_limit(round.usage, leaf); }
  ResourceVector user_limit(const QueueUsage& usage, int leaf) const;
  /// The children of `parent` in the order they are offered resources.
  std::vector<int> children_in_order(const SchedulingRound& round, int parent) const;
  /// Whether `request` keeps `leaf` and every queue above it, root aside,
  /// within its maximum.
  bool within_queue_maximums(const SchedulingRound& round, int leaf, const ResourceVector& request) const {
    return within_queue_maximums(round.usage, leaf, request);
  }
  bool within_queue_maximums(const QueueUsage& usage, int leaf, const ResourceVector& request) const;
  /// Whether a job of `user` asking `request` passes tests (1) and (2) in
  /// `leaf` with `usage` (the round's, or one a SpotRoom tries).
  bool admits(const QueueUsage& usage, int leaf, const std::string& user, const ResourceVector& request) const;

 private:
  // One serve_queues call: free GPUs only shrink during it, so a job that
  // found no room keeps finding none. (Spot preemptions free GPUs, but only
  // GPUs that the job which found no room could have preempted itself.)
  struct Pass {
    std::size_t kept_gpus = 0;  // for reservations
    const SpotRoom* spot_room = nullptr;
    bool spot_turn = false;  // with spot_room: serving the spot jobs (else the guaranteed ones)
    std::set<JobIndex> unplaceable;
    std::set<int> claiming;        // leaves within their guarantee waiting for room
    std::size_t claimed_gpus = 0;  // what their first waiting jobs need
  };
  bool serve(SchedulingRound& round, int queue, Pass& pass, Plan& plan) const;
  bool fits_cluster(const SchedulingRound& round, const JobSpec& spec, std::size_t kept_gpus) const;
  void start(SchedulingRound& round, JobIndex job, std::vector<GpuId> gpus, Plan& plan) const;

  const QueueTree& tree_;
  const DominantResourceCalculator& drc_;
  const PlacementPolicy& placement_;
  const QueueView& jobs_;
  const std::vector<int>& leaf_of_job_;
};

}  // namespace gcsim
