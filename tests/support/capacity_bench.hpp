// capacity_bench.hpp: the capacity policy on a crafted cluster, driven call
// by call without the engine, with jobs arriving as the clock advances.
//
//   CapacityBench bench(crafted_cluster(1, 8), {queued_job("a", 4, 0, "prod"), queued_job("b", 4, 10, "dev")});
//   CapacityPolicy policy = capacity_policy(R"({"yarn.scheduler.capacity.root.queues": "prod,dev", ...})");
//   bench.advance(0);
//   bench.step(policy);             // schedule, then apply the plan
//   bench.ids(bench.state().running());
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "policies/capacity/capacity_config_reader.hpp"
#include "policies/capacity/capacity_policy.hpp"
#include "policies/placement/pack_placement.hpp"
#include "tests/support/policy_bench.hpp"

namespace gcsim::testing {

/// A 100-second job on type "GPU" in `queue`, submitted by `user`.
inline JobSpec queued_job(const std::string& id, std::uint32_t gpus, Time submit, const std::string& queue,
                          const std::string& user = "u", std::int64_t priority = 0) {
  JobSpec job = measured_job(id, gpus, submit);
  job.queue = queue;
  job.user = user;
  job.priority = priority;
  return job;
}

/// The capacity policy with pack placement, configured by `json` (labelled "test.json").
inline CapacityPolicy capacity_policy(const std::string& json) {
  return CapacityPolicy(parse_capacity_config(json, "test.json"), std::make_unique<PackPlacement>());
}

class CapacityBench {
 public:
  CapacityBench(const ClusterSpec& spec, std::vector<JobSpec> jobs)
      : layout_(spec),
        graph_(layout_),
        jobs_(std::move(jobs)),
        state_(layout_, graph_, jobs_),
        submitted_(jobs_.size(), false) {}

  /// Moves the clock to `t` and submits the jobs whose time has come.
  void advance(Time t) {
    now = t;
    for (JobIndex j = 0; j < jobs_.size(); ++j)
      if (!submitted_[j] && jobs_[j].submit <= now) {
        state_.submit(j);
        submitted_[j] = true;
      }
  }
  Plan schedule(SchedulingPolicy& policy) const {
    Plan plan;
    policy.schedule(SchedulingContext{now, state_, state_}, plan);
    return plan;
  }
  SchedulerState::Applied apply(const Plan& plan) { return state_.apply(plan, now); }
  SchedulerState::Applied step(SchedulingPolicy& policy) { return apply(schedule(policy)); }
  void finish(const std::string& id) { state_.finish(index(id), now); }

  JobIndex index(const std::string& id) const {
    for (JobIndex j = 0; j < jobs_.size(); ++j)
      if (jobs_[j].id == id) return j;
    throw std::out_of_range("no job " + id);
  }
  std::vector<std::string> ids(const std::vector<JobIndex>& jobs) const {
    std::vector<std::string> out;
    for (JobIndex j : jobs) out.push_back(jobs_[j].id);
    return out;
  }
  std::vector<std::string> running() const { return ids(state_.running()); }
  const SchedulerState& state() const { return state_; }
  const ClusterLayout& layout() const { return layout_; }
  Time now = 0;

 private:
  ClusterLayout layout_;
  ClusterGraph graph_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
  std::vector<bool> submitted_;
};

}  // namespace gcsim::testing
