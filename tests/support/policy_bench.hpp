// policy_bench.hpp: a crafted cluster, its jobs and a scheduler state, for
// unit tests that drive a policy call by call without the engine.
//
//   PolicyBench bench(one_node(4), {measured("a", 4, 0), measured("b", 4, 1)});
//   bench.submit_all();
//   Plan plan = bench.schedule(policy);
//   bench.apply(plan);
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/policy.hpp"
#include "sim/state/scheduler_state.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/support/crafted_specs.hpp"

namespace gcsim::testing {

/// `nodes` nodes of `gpus_per_node` GPUs of type "GPU" (1e12 FLOP/s, 32 GB), one rack.
inline ClusterSpec crafted_cluster(std::uint32_t nodes, std::uint32_t gpus_per_node) {
  ClusterSpec spec;
  spec.name = "bench";
  spec.gpu_types = {GpuType{"GPU", 1e12, 32e9}};
  spec.node_groups = {crafted_node_group("n", nodes, gpus_per_node, "GPU")};
  spec.fabric.nodes_per_rack = nodes;
  return spec;
}

/// A job running `seconds` on type "GPU".
inline JobSpec measured_job(const std::string& id, std::uint32_t gpus, Time submit, Time seconds = 100) {
  JobSpec job;
  job.id = id;
  job.gpus = gpus;
  job.submit = submit;
  job.work = MeasuredWork{seconds, "GPU"};
  return job;
}

/// A plan's decision as (kind, job), GPUs left out.
struct PlanStep {
  Decision::Kind kind;
  JobIndex job;
  bool operator==(const PlanStep& other) const { return kind == other.kind && job == other.job; }
};
inline std::vector<PlanStep> steps_of(const Plan& plan) {
  std::vector<PlanStep> steps;
  for (const Decision& d : plan.decisions()) steps.push_back({d.kind, d.job});
  return steps;
}
inline void PrintTo(const PlanStep& step, std::ostream* os) {
  *os << (step.kind == Decision::Kind::kPreempt    ? "preempt "
          : step.kind == Decision::Kind::kAllocate ? "allocate "
                                                   : "release ")
      << step.job;
}

class PolicyBench {
 public:
  PolicyBench(const ClusterSpec& spec, std::vector<JobSpec> jobs)
      : layout_(spec), graph_(layout_), jobs_(std::move(jobs)), state_(layout_, graph_, jobs_) {}

  void submit_all() {
    for (JobIndex j = 0; j < jobs_.size(); ++j) state_.submit(j);
  }
  void submit(JobIndex job) { state_.submit(job); }
  Plan schedule(SchedulingPolicy& policy) const {
    Plan plan;
    policy.schedule(SchedulingContext{now, state_, state_}, plan);
    return plan;
  }
  SchedulerState::Applied apply(const Plan& plan) { return state_.apply(plan, now); }
  /// schedule() then apply().
  SchedulerState::Applied step(SchedulingPolicy& policy) { return apply(schedule(policy)); }
  void finish(JobIndex job) { state_.finish(job, now); }

  const SchedulerState& state() const { return state_; }
  const ClusterLayout& layout() const { return layout_; }
  Time now = 0;

 private:
  ClusterLayout layout_;
  ClusterGraph graph_;
  std::vector<JobSpec> jobs_;
  SchedulerState state_;
};

}  // namespace gcsim::testing
