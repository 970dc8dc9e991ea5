// fifo_policy.hpp: first in, first out, with head-of-line blocking.
//
// Semantics: jobs start in strict submission order (ties: workload order).
// When the job at the head of the queue cannot be placed, no later job starts,
// even one that would fit: the head blocks the line. This is the baseline
// every other policy is compared against, and the behaviour of a plain batch
// queue without backfilling.
// Placement is delegated (default: pack, fewest nodes first). Jobs asking a
// fraction of a GPU share GPUs (shares_gpus()); the head blocks the line
// until its share fits.
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: it places
// the jobs it starts and the head that blocks, one placement each (O(g)),
// and never looks behind the head: O((k + 1) g) for k jobs started, whatever
// w and r.
// Assumptions: no preemption, no priorities, no user limits.
//
//   FifoPolicy fifo(std::make_unique<PackPlacement>());
#pragma once

#include <memory>

#include "sim/core/policy.hpp"

namespace gcsim {

class FifoPolicy final : public SchedulingPolicy {
 public:
  explicit FifoPolicy(std::unique_ptr<PlacementPolicy> placement);
  std::string_view name() const override { return "fifo"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return true; }

 private:
  std::unique_ptr<PlacementPolicy> placement_;
};

}  // namespace gcsim
