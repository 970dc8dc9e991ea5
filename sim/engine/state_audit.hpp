// state_audit.hpp: the rules every possible schedule keeps, checked against
// the scheduler state from scratch (`gcsim run --check`).
//
// The state keeps its counts incrementally (free GPUs, shares, host claims);
// the audit sums them again from who holds what and throws an
// InvariantViolation naming the rule at the first difference:
// - gpu-capacity: the shares of a GPU's holders add up to at most the whole
//   GPU; a job taking whole GPUs holds each alone; a failed node's GPUs are
//   held by nobody;
// - gpu-memory: the device memory its holders ask for fits on each GPU;
// - holdings-agree: a GPU lists exactly the jobs whose GPUs name it;
// - free-count: the free GPUs counted are those nobody holds, up;
// - allocated-sum: the GPUs allocated are the holders' shares summed;
// - host-capacity: no node's cores, memory, RDMA share or disk are claimed
//   beyond it;
// - node-role: every job holding GPUs or cores on a node asks its role or none;
// - anti-affinity: no node holds more jobs of an application than the
//   max_instance_per_node of any of them (each job counted once per node);
// - gang-whole: a running GPU job holds exactly the GPUs it asked for;
// - queue-states: the waiting jobs wait and the running jobs run, each listed once;
// - time-monotone: simulated time never goes back;
// - one-end: a job ends (finishes, fails or is retired) once.
// It also sums the GPU-seconds waiting jobs hold (partial allocations), which
// the record's timeline counts and no run does (record_audit.hpp).
// Each check costs O(GPUs + waiting + running jobs' GPUs): a run under
// --check pays it after every instant's events and every plan.
//
// It listens to the engine's events (engine_events.hpp): each stage of an
// instant settled is checked, each end of a job counted.
//
//   StateAudit audit(layout, jobs);
//   audit.check(state, now);   // after events, after a plan
//   audit.ended(job);          // each time a job ends
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/ids.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/engine/engine_events.hpp"

namespace gcsim {

class StateAudit : public EngineListener {
 public:
  StateAudit(const ClusterLayout& layout, const std::vector<JobSpec>& jobs);
  /// Every rule above on `state` at `now`; throws InvariantViolation.
  void check(const SchedulerState& state, Time now);
  /// A job ended; throws InvariantViolation (one-end) the second time.
  void ended(JobIndex job);
  /// At the end of a run: a job counted ended is finished or failed, and the
  /// other way round; with `complete` (nothing could happen any more and no
  /// guard stopped the run), no job waits or runs.
  void check_end(const SchedulerState& state, bool complete) const;
  /// GPU-seconds held until `now` by jobs waiting with some GPUs (a non-gang
  /// policy's partial allocations): allocated, but no run's.
  double waiting_hold_gpu_seconds(Time now) const { return waiting_hold_ + (now - last_) * waiting_held_; }

  void on_settled(const StateSettled& e) override { check(e.state, e.now); }
  void on_finished(const JobFinished& e) override { ended(e.job); }
  void on_failed(const JobFailed& e) override { ended(e.job); }
  void on_retired(const JobRetired& e) override { ended(e.job); }

 private:
  void check_gpus(const SchedulerState& state) const;
  void check_jobs(const SchedulerState& state);
  void check_hosts(const SchedulerState& state) const;
  /// node-role and anti-affinity, summed again from the holders of each node.
  void check_node_rules(const SchedulerState& state) const;

  const ClusterLayout& layout_;
  const std::vector<JobSpec>& jobs_;
  std::vector<std::uint8_t> ends_;    // per job, how many times it ended
  std::vector<std::uint8_t> listed_;  // per job, listed waiting or running (check_jobs())
  bool node_rules_ = false;           // some job asks a role or has an anti-affinity
  Time last_ = 0;
  double waiting_held_ = 0;  // GPUs waiting jobs held at the last check
  double waiting_hold_ = 0;  // GPU-seconds they held until then
};

}  // namespace gcsim
