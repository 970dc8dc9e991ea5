// node_outages.hpp: the node failures a run replays (SimulationOptions::
// node_failures), and the repairs that end them.
//
// A node fails: the jobs holding any of its GPUs let go of all theirs, the
// running ones stopped as if preempted (back to their last periodic
// checkpoint: a crash leaves no time for a save at preemption) and waiting
// again, as one plan the engine applies; its CPU jobs start over later;
// then its GPUs are down until the repair ends. The policy sees it all in
// its next call. Failures and repairs matter only while some job is yet to
// end, so the scheduler waits for them only then.
//
//   NodeOutages outages(engine, runs, cpu);
//   if (outages.take_due()) ... news for the policy;
//   Time next = outages.next_time();
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/core/ids.hpp"
#include "sim/core/node_failure.hpp"
#include "sim/engine/cpu_dispatch.hpp"
#include "sim/engine/engine_context.hpp"
#include "sim/engine/job_runs.hpp"

namespace gcsim {

class NodeOutages {
 public:
  NodeOutages(EngineContext& engine, JobRuns& runs, CpuDispatch& cpu)
      : engine_(engine), runs_(runs), cpu_(cpu), failures_(engine.in.options.node_failures) {}

  /// The failures due by now happen, then the repairs due end. True when any did.
  bool take_due() {
    bool changed = false;
    for (; next_failure_ < failures_.size() && failures_[next_failure_].at <= engine_.now; ++next_failure_) {
      fail(failures_[next_failure_]);
      changed = true;
    }
    while (!repairs_.empty() && repairs_.top().first <= engine_.now) {
      repair(repairs_.top().second);
      changed = true;
    }
    return changed;
  }
  /// When the next failure or repair is due (kNever: none).
  Time next_time() const {
    Time next = next_failure_ < failures_.size() ? failures_[next_failure_].at : kNever;
    return repairs_.empty() ? next : std::min(next, repairs_.top().first);
  }

 private:
  void fail(const NodeFailure& failure);
  // The node's repair, the first due, ends: its GPUs are up.
  void repair(NodeId node);

  EngineContext& engine_;
  JobRuns& runs_;
  CpuDispatch& cpu_;
  const std::vector<NodeFailure>& failures_;  // in order of time
  std::size_t next_failure_ = 0;
  // The nodes down, by when their repair ends.
  std::priority_queue<std::pair<Time, NodeId>, std::vector<std::pair<Time, NodeId>>, std::greater<>> repairs_;
};

}  // namespace gcsim
