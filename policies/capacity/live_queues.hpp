// live_queues.hpp: the queues' usage and each leaf's waiting jobs in serving
// order, kept from one scheduling call to the next.
//
// A call starts from what the queues hold and who waits where. Rebuilt at
// every call, that costs O(r) in running jobs and O(w log w) in waiting ones
// even when one job arrived. LiveQueues keeps both and brings them up to date
// with what changed since the previous call: the runs that began or ended
// (QueueView::run_log()) and the jobs that joined or left the queue
// (WaitingChanges), O(k log w) for k changes.
//
// Kept sums equal rebuilt ones only when adding and taking away is exact
// (policies/kit/exact_sums.hpp): GPUs and cores are whole numbers, and host
// memory is when every job asks for whole bytes. Otherwise the usage is summed
// again at every call, in the running jobs' order, as a rebuild would; the
// waiting orders are kept either way.
//
//   LiveQueues live(tree, leaf_of_job, request_of_job, user_of_job, user_names);
//   live.update(ctx.jobs);               // at the start of every call
//   SchedulingRound round(live.usage(), live.waiting(), ctx.cluster);
//   ... live.noted(job);                 // every job the call starts or preempts
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "policies/capacity/queue_tree.hpp"
#include "policies/capacity/queue_usage.hpp"
#include "policies/capacity/resource_vector.hpp"
#include "policies/kit/waiting_changes.hpp"
#include "sim/core/queue_view.hpp"

namespace gcsim {

class LiveQueues {
 public:
  /// Per job: its leaf, its request, and its user as an index in `user_names`.
  LiveQueues(const QueueTree& tree, const std::vector<int>& leaf_of_job,
             const std::vector<ResourceVector>& request_of_job, const std::vector<std::size_t>& user_of_job,
             const std::vector<std::string>& user_names);

  /// Takes in every change since the previous call.
  void update(const QueueView& jobs);
  /// A job the call starts or preempts (WaitingChanges::noted()).
  void noted(JobIndex job) { changes_.noted(job); }

  /// What the queues and their users hold, and how many jobs each user has waiting.
  const QueueUsage& usage() const { return usage_; }
  /// Per queue (leaves only), its waiting jobs in serving order (serves_before()).
  const std::vector<std::vector<JobIndex>>& waiting() const { return waiting_; }

 private:
  void follow_runs(const QueueView& jobs);
  void sum_running_again(const QueueView& jobs);
  void follow_queue(const QueueView& jobs);
  // Drops the user's entry once it holds and waits for nothing, as a rebuilt
  // usage would not list it.
  void forget_if_idle(int leaf, std::size_t user);

  const QueueTree& tree_;
  const std::vector<int>& leaf_of_job_;
  const std::vector<ResourceVector>& request_of_job_;
  const std::vector<std::size_t>& user_of_job_;
  const std::vector<std::string>& user_names_;
  bool exact_sums_ = true;
  QueueUsage usage_;
  std::vector<std::vector<JobIndex>> waiting_;
  WaitingChanges changes_;
  std::size_t runs_read_ = 0;  // entries of the run log taken in
};

}  // namespace gcsim
