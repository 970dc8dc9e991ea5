// drf_policy.hpp: Dominant Resource Fairness across users (`drf`).
//
// Source semantics: Ghodsi et al., "Dominant Resource Fairness: Fair
// Allocation of Multiple Resource Types", NSDI 2011 (§4, Algorithm 1,
// progressive filling), with jobs in the role of the paper's tasks and the
// workload's `user` field as the paper's users:
// - Resources: GPUs, CPU cores and host memory. The cluster totals are summed
//   over the node groups (count x gpus_per_node, cpu_cores, memory_bytes); a
//   job demands its `gpus` (times its gpu_share: jobs asking a fraction of a
//   GPU share GPUs, shares_gpus()), `cpu_cores` and `memory_bytes`.
// - A user's share of a resource is what its running jobs hold over the
//   cluster total; its dominant share is the largest of the three.
// - Each call repeatedly picks, among users with a waiting job that fits, the
//   one with the lowest dominant share (ties: user name, in byte order),
//   starts that user's oldest fitting job (queue order: submission, then
//   workload order), adds its demand to the user's shares, and picks again,
//   until no waiting job of any user fits. A user none of whose waiting jobs
//   fits is skipped; the others are still served.
// - A job fits when the placement finds all its GPUs (gang, in one
//   transaction) among those free and not promised earlier in the call (for
//   a fractional job: GPUs with its share and memory left), and
//   its CPU cores and memory are at most what running jobs and jobs started
//   earlier in the call leave of the cluster totals.
// Non-preemptive: running jobs keep their resources whatever the shares; the
// policy never asks to be woken (only arrivals and completions change what
// fits).
// Assumptions: shares are of the cluster's totals of GPUs, cores and memory,
// as the paper's single resource pool, but a job starts only where it fits
// on nodes: its cores and memory split over its GPUs' nodes
// (sim/core/node_fit.hpp), which the placement checks; a resource whose
// cluster total is 0 is not described and neither counts in shares nor
// limits fits; a job asking for more CPU cores or memory than the whole
// cluster has never starts. Job priorities and queues are ignored; a waiting
// job holds no GPUs.
// Cost of one call, in waiting jobs w, running jobs r, users u and GPUs g:
// each user's waiting jobs are kept in queue order across calls, and only
// those that joined or left since the last call move (O(log w) each); each
// user's holdings are kept too, from the runs that began or ended since
// (QueueView::run_log(), O(1) each), and copied for the call (O(u)). Kept
// sums equal sums made afresh only when every demand is a whole number (whole
// GPUs, whole bytes): with fractional GPU shares or bytes they are summed
// again at every call, O(r), in the order the jobs started. Then per job
// started O(u) to find the lowest dominant share and a walk of that user's
// queue, a count (O(1)) per job too large for the room left and a placement
// (O(g)) per job that may fit. It stops once no GPU is free; with room left
// that no waiting job fits, every queue is read once: O(w). Options: none.
// Placement is delegated (default: pack).
//
//   DrfPolicy drf(std::make_unique<PackPlacement>());
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "policies/kit/waiting_changes.hpp"
#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

/// An amount of each resource DRF divides: GPUs, CPU cores, host memory bytes.
struct DrfResources {
  double gpus = 0;
  double cpu_cores = 0;
  double memory_bytes = 0;

  static DrfResources demand_of(const JobSpec& job);
  /// Totals over the node groups of the cluster.
  static DrfResources cluster_total(const ClusterSpec& cluster);
  DrfResources& operator+=(const DrfResources& other);
  /// The largest of the shares amount / total, over the resources whose total is not 0.
  double dominant_share(const DrfResources& total) const;
};

class DrfPolicy final : public SchedulingPolicy {
 public:
  explicit DrfPolicy(std::unique_ptr<PlacementPolicy> placement);
  /// Reads no option.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "drf"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return true; }

 private:
  /// Brings waiting_ up to date with the jobs that joined or left the queue.
  void update_waiting(const QueueView& jobs);

  /// Notes the job's user and demand, the first time the job is seen.
  void note_job(const QueueView& jobs, JobIndex job);
  /// Brings held_ and in_use_ up to date with the runs that began or ended.
  void update_held(const QueueView& jobs);

  static constexpr std::size_t kUnknownUser = static_cast<std::size_t>(-1);
  // A user's waiting jobs in queue order (submit time, then workload order).
  struct UserQueue {
    std::size_t user = kUnknownUser;  // in user_ids_
    std::set<std::pair<Time, JobIndex>> jobs;
  };

  std::unique_ptr<PlacementPolicy> placement_;
  WaitingChanges changes_;
  // Each user with waiting jobs, by name; users with none are left out.
  std::map<std::string, UserQueue> waiting_;
  // A number per user, and per job its user's number (kUnknownUser: not
  // seen yet) and its demand, fixed for the run.
  std::map<std::string, std::size_t> user_ids_;
  std::vector<std::size_t> user_of_;
  std::vector<DrfResources> demand_;
  // What each user's running jobs hold, and all of them together.
  std::vector<DrfResources> held_;
  DrfResources in_use_;
  std::size_t runs_read_ = 0;  // entries of the run log taken in
  enum class Sums { kUnknown, kKept, kAfresh } sums_ = Sums::kUnknown;
};

}  // namespace gcsim
