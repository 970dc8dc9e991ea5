// waiting_changes.hpp: which jobs joined and which left the waiting queue
// since the policy's previous call, so that a policy can keep its own order
// of the waiting jobs across calls instead of rebuilding it at every call.
//
// Jobs join the queue on arrival (at its end: the queue is in submission
// order) or when the policy preempts them; they leave it when the policy's
// allocations start them. The policy reports what it allocated and preempted
// (noted()), so that a call costs O(k) in the jobs that changed, not O(w) in
// the waiting ones. Should the queue have changed otherwise (its size does
// not add up), the changes are found by one pass over every job instead: the
// answer is the same, only slower. So is it when jobs were withdrawn from the
// queue (QueueView::withdrawals()): a job that left unseen could hide an arrival.
//
//   WaitingChanges changes;                   // a member of the policy
//   const WaitingChanges::Delta delta = changes.since_last_call(ctx.jobs);
//   for (JobIndex job : delta.left) order.erase(...);
//   for (JobIndex job : delta.joined) order.insert(...);
//   ... plan.allocate(job, gpus); changes.noted(job);
#pragma once

#include <cstddef>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

class WaitingChanges {
 public:
  struct Delta {
    std::vector<JobIndex> joined;  // waiting now, not at the previous call
    std::vector<JobIndex> left;    // waiting at the previous call, not now
  };

  /// The changes since the previous call (every waiting job on the first one).
  Delta since_last_call(const QueueView& jobs);
  /// A job the plan being built allocates GPUs to or preempts.
  void noted(JobIndex job) { touched_.push_back(job); }
  /// Whether `job` was waiting as of the last since_last_call().
  bool waiting(JobIndex job) const { return job < waiting_.size() && waiting_[job]; }

 private:
  void mark(JobIndex job, bool waiting, Delta& delta);
  void resynchronise(const QueueView& jobs, Delta& delta);

  std::vector<char> waiting_;  // per job: waiting as of the last call
  std::size_t waiting_count_ = 0;
  std::vector<JobIndex> touched_;  // allocated or preempted since the last call
  std::uint64_t withdrawals_ = 0;  // QueueView::withdrawals() at the last call
};

}  // namespace gcsim
