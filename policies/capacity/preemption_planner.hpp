// preemption_planner.hpp: one round of YARN's ProportionalCapacityPreemptionPolicy:
// how much each leaf queue should give back, and which running jobs to take it from.
//
// Source: Hadoop 3 PreemptableResourceCalculator,
// AbstractPreemptableResourceCalculator, TempQueuePerPartition,
// FifoCandidatesSelector and CapacitySchedulerPreemptionUtils, with one
// container per job (a gang job is preempted whole).
//
// Every quantity is a dominant share of the cluster (resource_vector.hpp): a
// queue's used share is the dominant share of what its jobs hold, its demand
// the dominant share of what they hold plus its pending demand, its guarantee
// and maximum its absolute capacity and absolute maximum capacity. (YARN
// water-fills resource vectors; with jobs that ask for GPUs but few cores,
// idle cores handed to a queue's ideal share would then hide its excess of
// GPUs, so the shares are filled instead.)
//
// Ideal shares, top down from root (whose ideal is the whole cluster); for
// the children of each parent, sharing out the parent's ideal T:
//  1. each child starts at its used share, or at its guarantee if it uses
//     more (plus what disable_preemption below it makes untouchable);
//  2. what is left of T is water-filled among the children still wanting
//     more (start < demand), in proportion to their guarantees: each gets
//     clamp(L x guarantee, start, cap) for the level L that shares out all of
//     it, where cap = min(maximum, demand) and, for a leaf, at most
//     max(used, guarantee): pending demand alone never lifts a leaf above its
//     guarantee at another's expense. Children with no guarantee share what
//     remains equally, after the others;
//  3. each child should give back used - max(min(demand, guarantee), ideal),
//     scaled down for all siblings together so that their sum is at most
//     total_preemption_per_round.
// A leaf gives back only if used > guarantee x (1 + max_ignored_over_capacity)
// (the dead zone) and preemption is not disabled for it; it then has to
// obtain what it should give back x natural_termination_factor.
//
// Pending demand (demand_preemption_can_serve): a leaf's waiting jobs in FIFO
// order, each counted if its user is within the user limit with the jobs
// counted before (YARN counts pending requests up to the user limit) and if
// the leaf with the jobs counted so far stays within its guarantee:
// preemption restores guarantees, so a job that would have to borrow waits for
// idle GPUs instead. (YARN's requests are small containers that fit in what
// is left of a guarantee; a gang job may not, and preempting for it would
// free GPUs it cannot use.)
//
// Victims: leaf queues in configuration order; in each, the candidates in the
// leaf's preemption order (the reverse of its FIFO order: lowest priority,
// then latest submitted, first) while some share remains to obtain. A job is
// taken only if its dominant share fits in what is left of the round's
// allowance (total_preemption_per_round, shared by all leaves) - a job larger
// than the allowance is never preempted, as in YARN 3 - and in what its leaf
// holds above its guarantee: a leaf never goes below its guarantee. The last
// victim may take more than remained to obtain (YARN takes whole containers
// while any amount remains).
//
//   PreemptionPlanner planner(tree, drc, config.preemption);
//   auto targets = planner.compute_targets(used_per_queue, pending_per_queue);
//   std::vector<JobIndex> victims = planner.select_victims(targets, candidates_per_leaf);
#pragma once

#include <map>
#include <string>
#include <vector>

#include "policies/capacity/capacity_config.hpp"
#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/resource_vector.hpp"
#include "policies/capacity/user_limits.hpp"
#include "sim/core/ids.hpp"

namespace gcsim {

/// One queue's figures in a round, as dominant shares of the cluster.
struct QueueTargets {
  double used = 0, demand = 0, guaranteed = 0, maximum = 0;
  double ideal = 0;            // the ideal share
  double to_be_preempted = 0;  // step 3, after scaling
  double to_obtain = 0;        // leaves: after the dead zone and the natural termination factor
};

/// A running job that may be preempted, with what it holds.
struct PreemptionCandidate {
  JobIndex job;
  ResourceVector resources;
};

/// One waiting job as the preemption monitor sees it.
struct WaitingRequest {
  std::string user;
  ResourceVector request;
};

/// The part of a leaf's waiting jobs (in FIFO order) that preemption acts
/// for: `queue_used` is what the leaf holds, `guarantee` its absolute capacity.
ResourceVector demand_preemption_can_serve(const DominantResourceCalculator& drc, const ResourceVector& queue_used,
                                           double guarantee, const ResourceVector& user_limit,
                                           const std::map<std::string, UserUsage>& users,
                                           const std::vector<WaitingRequest>& waiting);

class PreemptionPlanner {
 public:
  PreemptionPlanner(const QueueTree& tree, const DominantResourceCalculator& drc, const PreemptionConfig& config);

  /// `used`: per queue, parents included (what QueueUsage holds). `pending`:
  /// per queue, leaves only; a parent's pending demand is its children's.
  std::vector<QueueTargets> compute_targets(const std::vector<ResourceVector>& used,
                                            const std::vector<ResourceVector>& pending) const;

  /// `candidates`: per queue (leaves only), in the leaf's preemption order.
  std::vector<JobIndex> select_victims(const std::vector<QueueTargets>& targets,
                                       const std::vector<std::vector<PreemptionCandidate>>& candidates) const;

 private:
  struct Work;
  void distribute(Work& work, int parent) const;
  void fill(Work& work, const std::vector<int>& queues, double& unassigned, bool equal_increments) const;

  const QueueTree& tree_;
  const DominantResourceCalculator& drc_;
  PreemptionConfig config_;
};

}  // namespace gcsim
