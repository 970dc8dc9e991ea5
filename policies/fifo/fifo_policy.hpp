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
//
// Spot jobs (JobSpec::qos spot, best effort; a workload without any is
// served exactly as above): guaranteed jobs are served first, in order, and
// a guaranteed job that cannot be placed preempts running spot jobs to make
// room, lowest priority first, then the most recently started, as few as its
// placement needs (policies/kit/spot_victims.hpp); if even all of them would
// not make room, nothing is preempted and it blocks the guaranteed jobs
// behind it. Then the spot jobs, in order, with head-of-line blocking among
// themselves, start on the GPUs left; a spot job just preempted waits at its
// place among them and may start again at once where GPUs are free. A
// waiting spot job never holds up a guaranteed one, and never preempts. A
// preempted job resumes from its checkpoint (JobSpec::checkpoint).
//
// Options (--policy-opt):
//   preempt_spot=false  no preemption, and spot jobs wait in the one line
//                       like any other (default true)
//   order=priority      serve higher JobSpec::priority first, then by
//                       submission (default order=submission: priorities
//                       are ignored)
//
// Cost of one call, in waiting jobs w, running jobs r and GPUs g: it places
// the jobs it starts and the head that blocks, one placement each (O(g)),
// and never looks behind the head: O((k + 1) g) for k jobs started, whatever
// w and r. order=priority sorts the waiting jobs first (O(w log w)). With
// spot jobs it reads the waiting list once (O(w)); a guaranteed job that
// finds no room lists the running spot jobs (O(r + s log s), once per call)
// and tries them in order (O(v g) for v tried).
// Assumptions: no user limits.
//
//   FifoPolicy fifo(std::make_unique<PackPlacement>());
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "sim/core/policy.hpp"
#include "sim/core/policy_registry.hpp"

namespace gcsim {

struct FifoOptions {
  bool preempt_spot = true;
  bool by_priority = false;  // order=priority
};

class FifoPolicy final : public SchedulingPolicy {
 public:
  explicit FifoPolicy(std::unique_ptr<PlacementPolicy> placement, FifoOptions options = {});
  /// Reads `preempt_spot` (true/false) and `order` (submission/priority);
  /// throws std::invalid_argument for other values.
  static std::unique_ptr<SchedulingPolicy> create(const PolicyOptions& options,
                                                  std::unique_ptr<PlacementPolicy> placement);

  std::string_view name() const override { return "fifo"; }
  void schedule(const SchedulingContext& ctx, Plan& plan) override;
  bool shares_gpus() const override { return true; }

 private:
  // Whether `a` is served before `b`.
  bool serves_before(const QueueView& jobs, JobIndex a, JobIndex b) const;

  std::unique_ptr<PlacementPolicy> placement_;
  FifoOptions options_;
  std::optional<bool> spot_jobs_;  // whether the workload holds any, read at the first call
};

}  // namespace gcsim
