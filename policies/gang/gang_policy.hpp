// gang_policy.hpp: all-or-nothing (gang) scheduling.
//
// Semantics: distributed training needs all its GPUs at once, so a job gets
// every GPU it asked for in one transaction or none. For each waiting job in
// submission order the policy reserves a full set from the placement; if the
// reservation reaches the job's size it is committed to the plan, otherwise it
// is rolled back and nothing is held (the rule of Kubernetes coscheduling:
// reserve, wait for quorum, then permit all or reject all). A job that cannot
// be placed whole does not block later jobs that can, so large jobs may wait
// longer than under fifo; `--policy-opt head_blocking=true` makes the head of
// the queue block the rest as fifo does.
// Jobs asking a fraction of a GPU share GPUs (shares_gpus()).
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: the sizes
// of the waiting jobs are kept across calls, only those of the k jobs that
// joined or left since the last call moving (O(k log w)); the walk stops as
// soon as no GPU (nor share of one) is free, or every waiting job asks whole
// GPUs, more than are free (O(1) to tell); until then a job too large for the
// free GPUs costs a count (O(1)) and one that may fit a placement (O(g)):
// O(k log w + j + p g) for j jobs read and p placements tried, independent
// of r. It reads far into the queue only while a job small enough for the
// free GPUs waits that the placement cannot place.
// Assumptions: no preemption, no priorities.
//
//   GangPolicy gang(std::make_unique<PackPlacement>(), /*head_blocking=*/false);
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>

#include "policies/kit/room_left.hpp"
#include "policies/kit/waiting_changes.hpp"
#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

/// A full set of GPUs reserved for one job inside one scheduling call; it
/// becomes an allocation only if it reaches the job's size.
class GangReservation {
 public:
  GangReservation(JobIndex job, std::uint32_t size) : job_(job), size_(size) {}
  void reserve(const std::vector<GpuId>& gpus) { gpus_.insert(gpus_.end(), gpus.begin(), gpus.end()); }
  bool has_quorum() const { return gpus_.size() == size_; }
  /// Commits into `plan` and takes the GPUs (the job's share of each) from
  /// `room` when the quorum is met; otherwise drops the reservation.
  /// Returns whether it committed.
  bool commit_or_roll_back(Plan& plan, RoomLeft& room, const JobSpec& job);

 private:
  JobIndex job_;
  std::uint32_t size_;
  std::vector<GpuId> gpus_;
};

class GangPolicy final : public SchedulingPolicy {
 public:
  GangPolicy(std::unique_ptr<PlacementPolicy> placement, bool head_blocking);
  /// Reads `head_blocking` (true/false, default false); throws std::invalid_argument otherwise.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "gang"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return true; }

 private:
  /// Brings the waiting jobs' sizes up to date with the jobs that joined or left the queue.
  void update_sizes(const QueueView& jobs);

  std::unique_ptr<PlacementPolicy> placement_;
  bool head_blocking_;
  WaitingChanges changes_;
  std::multiset<std::uint32_t> waiting_sizes_;  // GPUs asked by each waiting whole-GPU job
  std::size_t waiting_fractional_ = 0;          // waiting jobs asking a share of a GPU
};

}  // namespace gcsim
