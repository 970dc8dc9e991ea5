#include "sim/engine/node_outages.hpp"

#include <algorithm>

#include "sim/core/work_forms.hpp"

namespace gcsim {

void NodeOutages::repair(NodeId node) {
  engine_.state.bring_up(node);
  repairs_.pop();
  engine_.events.node_up({engine_.now, node});
}

void NodeOutages::fail(const NodeFailure& failure) {
  SchedulerState& state = engine_.state;
  Plan plan;
  std::vector<JobIndex> holders;
  for (GpuId g : engine_.in.layout.node(failure.node).gpus)
    for (JobIndex job : state.holders(g))
      if (std::find(holders.begin(), holders.end(), job) == holders.end()) holders.push_back(job);
  std::sort(holders.begin(), holders.end());
  for (JobIndex job : holders) {
    if (state.runtime(job).state == JobState::kRunning) {
      plan.preempt(job);
    } else {
      plan.release(job);
    }
  }
  double lost = 0;
  const SchedulerState::Applied applied = runs_.apply_plan(plan, &lost, /*crashed=*/true);
  const std::vector<JobIndex> cpu_jobs_stopped = cpu_.stop_on_node(state, failure.node);
  for (JobIndex job : cpu_jobs_stopped) {
    const bool replica = replica_of(engine_.in.jobs[job].work) != nullptr;
    engine_.events.preempted({job, engine_.now, /*on_cpu=*/true, replica});
    runs_.stop_on_cpu(job);  // a DAG of CPU workers: its actors stop, it starts over
  }
  engine_.events.node_down({engine_.now, failure.node, applied.preempted.size() + cpu_jobs_stopped.size(), lost});
  state.take_down(failure.node);
  repairs_.push({failure.at + failure.duration, failure.node});
}

}  // namespace gcsim
