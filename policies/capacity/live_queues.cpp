#include "policies/capacity/live_queues.hpp"

#include <algorithm>

#include "policies/capacity/queue_allocator.hpp"
#include "policies/kit/exact_sums.hpp"

namespace gcsim {
namespace {

// Whether every sum of requests is exact: GPUs and cores are whole numbers,
// host memory is checked.
bool requests_sum_exactly(const std::vector<ResourceVector>& requests) {
  ExactSums memory;
  for (const ResourceVector& r : requests) memory.add(r.memory_bytes);
  return memory.exact();
}

}  // namespace

LiveQueues::LiveQueues(const QueueTree& tree, const std::vector<int>& leaf_of_job,
                       const std::vector<ResourceVector>& request_of_job, const std::vector<std::size_t>& user_of_job,
                       const std::vector<std::string>& user_names)
    : tree_(tree),
      leaf_of_job_(leaf_of_job),
      request_of_job_(request_of_job),
      user_of_job_(user_of_job),
      user_names_(user_names),
      exact_sums_(requests_sum_exactly(request_of_job)),
      usage_(tree),
      waiting_(tree.size()) {}

void LiveQueues::update(const QueueView& jobs) {
  follow_queue(jobs);
  if (exact_sums_)
    follow_runs(jobs);
  else
    sum_running_again(jobs);
}

void LiveQueues::follow_queue(const QueueView& jobs) {
  const WaitingChanges::Delta delta = changes_.since_last_call(jobs);
  auto before = [&](JobIndex a, JobIndex b) { return serves_before(jobs, a, b); };
  for (JobIndex job : delta.left) {
    std::vector<JobIndex>& queue = waiting_[leaf_of_job_[job]];
    queue.erase(std::lower_bound(queue.begin(), queue.end(), job, before));
    usage_.remove_waiting(leaf_of_job_[job], user_names_[user_of_job_[job]]);
    forget_if_idle(leaf_of_job_[job], user_of_job_[job]);
  }
  for (JobIndex job : delta.joined) {
    std::vector<JobIndex>& queue = waiting_[leaf_of_job_[job]];
    queue.insert(std::upper_bound(queue.begin(), queue.end(), job, before), job);
    usage_.add_waiting(leaf_of_job_[job], user_names_[user_of_job_[job]]);
  }
}

void LiveQueues::follow_runs(const QueueView& jobs) {
  const std::vector<RunEvent>& log = jobs.run_log();
  for (; runs_read_ < log.size(); ++runs_read_) {
    const RunEvent& event = log[runs_read_];
    const int leaf = leaf_of_job_[event.job];
    const std::string& user = user_names_[user_of_job_[event.job]];
    if (event.started) {
      usage_.start(leaf, user, request_of_job_[event.job]);
    } else {
      usage_.stop(leaf, user, request_of_job_[event.job]);
      forget_if_idle(leaf, user_of_job_[event.job]);
    }
  }
}

// The usage as a rebuild makes it: the running jobs' requests summed in
// their start order, then the waiting jobs counted.
void LiveQueues::sum_running_again(const QueueView& jobs) {
  usage_ = QueueUsage(tree_);
  std::vector<QueueUsage::Charge> running;
  running.reserve(jobs.running().size());
  for (JobIndex job : jobs.running()) running.push_back({leaf_of_job_[job], user_of_job_[job], &request_of_job_[job]});
  usage_.start_all(running, user_names_);
  for (int leaf : tree_.leaves())
    for (JobIndex job : waiting_[leaf]) usage_.add_waiting(leaf, user_names_[user_of_job_[job]]);
}

void LiveQueues::forget_if_idle(int leaf, std::size_t user) { usage_.forget_if_idle(leaf, user_names_[user]); }

}  // namespace gcsim
