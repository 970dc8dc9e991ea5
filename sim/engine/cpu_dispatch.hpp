// cpu_dispatch.hpp: where and when the jobs that hold no GPU run
// (runs_on_cpu()): CPU-only jobs (CpuWork), the replicas of serving
// deployments on CPUs, and DAGs whose pools are all CPU pools.
//
// Such a job holds no GPU, so the GPU scheduling policy never sees it: the
// engine dispatches it here, as a cluster manager places a pod that asks for
// CPU and memory alone (or Ray its tasks' workers). The rules:
// - waiting CPU jobs are served in the order they were submitted (time, then
//   workload order), each on the first node, in the cluster's order, that is
//   up and has all its cores and memory free; a DAG's workers (a core each,
//   or its cpu_cores split over them) fill the nodes in the cluster's order,
//   each node up taking as many as its free cores and memory hold
//   (SchedulerState::place_cpu_job()), and start only when all are placed;
//   one that fits nowhere waits and does not hold back those behind it;
// - CPU nodes (no GPU) and GPU nodes' cores alike: whatever a node's free
//   cores and memory hold;
// - the engine dispatches right after each policy call, so at one instant
//   GPU jobs are placed first and CPU jobs take what cores are left;
// - a CPU job runs for its seconds, its cores its own, and then lets go of
//   them; a serving replica runs until its deployment lets it go (withdraw(),
//   finish()); a DAG until its last task ends (finish()); the policy sees
//   their cores and memory taken (ClusterView::free_host);
// - when one of its nodes fails it starts over, waiting again in its place
//   in line.
//
//   CpuDispatch cpu(jobs);
//   cpu.submit(state, job, now);
//   for (JobIndex started : cpu.dispatch(state, now)) ...
//   for (JobIndex ended : cpu.finish_due(state, now)) ...
#pragma once

#include <cstdint>
#include <queue>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/state/scheduler_state.hpp"

namespace gcsim {

class CpuDispatch {
 public:
  explicit CpuDispatch(const std::vector<JobSpec>& jobs) : jobs_(jobs) {}

  /// A CPU job joins the line at `submitted`.
  void submit(SchedulerState& state, JobIndex job, Time submitted);
  /// Starts every waiting CPU job that fits now, in line order: the jobs
  /// started, each now running on its node in `state`. O(waiting x nodes).
  std::vector<JobIndex> dispatch(SchedulerState& state, Time now);
  /// The CPU jobs whose runs end by `now`, finished in `state`, by end time then job.
  std::vector<JobIndex> finish_due(SchedulerState& state, Time now);
  /// The node failed: its CPU jobs stop and wait again. Returns them.
  std::vector<JobIndex> stop_on_node(SchedulerState& state, NodeId node);
  /// A serving replica on CPUs the deployment lets go, waiting or running: it
  /// leaves the line or its node and is pending again (SchedulerState::withdraw()).
  void withdraw(SchedulerState& state, JobIndex job, Time now);
  /// A running serving replica on CPUs ends with its deployment, a DAG with its last task.
  void finish(SchedulerState& state, JobIndex job, Time now);
  /// When the next running CPU job ends (kNever: none runs).
  Time next_end();
  bool waiting() const { return !line_.empty(); }
  std::size_t running() const { return running_; }

 private:
  struct End {
    Time at;
    JobIndex job;
    std::uint32_t run;  // the job's run it ends; a stopped run's end is stale
    bool operator>(const End& other) const { return std::tie(at, job, run) > std::tie(other.at, other.job, other.run); }
  };
  bool stale(const End& end) const { return end.run != runs_[end.job]; }
  void drop_stale_ends();

  const std::vector<JobSpec>& jobs_;
  std::set<std::pair<Time, JobIndex>> line_;  // waiting: (submitted, job)
  std::vector<Time> submitted_;               // per job, once it was submitted
  std::vector<std::uint32_t> runs_;           // per job, its runs started
  std::priority_queue<End, std::vector<End>, std::greater<>> ends_;
  std::size_t running_ = 0;
};

}  // namespace gcsim
