// node_wake.hpp: the wake-up a run waits for when it starts on sleeping
// nodes (a node group's sleep_after and wake_up, docs/cluster-format.md).
//
// It follows runs starting and ending on GPUs (sim/report/node_sleep_clock.hpp
// says which nodes sleep). A run of a training job, a measured run, a
// notebook or a phased job that starts on a sleeping node holds its GPUs
// and waits the node's wake_up before its first step; one that starts on a
// node still waking waits for the rest of that wake-up. DAG jobs and serving
// replicas start at once.
//
//   NodeWake wake(layout, jobs.size());
//   if (wake.any()) events.subscribe(wake);
//   Time delay = wake.wake_delay(gpus, now);  // before the run is told as started
#pragma once

#include <algorithm>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/engine/engine_events.hpp"
#include "sim/report/node_sleep_clock.hpp"

namespace gcsim {

class NodeWake : public EngineListener {
 public:
  NodeWake(const ClusterLayout& layout, std::size_t jobs)
      : clock_(NodeSleepClock::of(layout)), awake_at_(layout.node_count(), 0.0) {
    if (!clock_.any()) return;
    job_nodes_.resize(jobs);
    wake_up_.reserve(layout.node_count());
    for (NodeId n = 0; n < layout.node_count(); ++n) wake_up_.push_back(layout.group_of_node(n).wake_up);
  }

  /// Whether any node can sleep (else no run ever waits).
  bool any() const { return clock_.any(); }

  /// The seconds a run starting `now` on `gpus` waits for its nodes: the
  /// longest wake-up of those asleep, which start waking now, or the rest of
  /// one already waking; 0 when all are awake.
  Time wake_delay(const std::vector<GpuId>& gpus, Time now) {
    Time delay = 0;
    for (NodeId n : clock_.nodes_of(gpus)) {
      if (clock_.asleep(n, now)) awake_at_[n] = now + wake_up_[n];
      delay = std::max(delay, awake_at_[n] - now);
    }
    return delay;
  }

  void on_started(const RunStarted& e) override {
    job_nodes_[e.job] = clock_.nodes_of(e.gpus);
    clock_.started(job_nodes_[e.job], e.now, [](NodeId, Time) {});
  }
  void on_preempted(const RunPreempted& e) override { ended(e.job, e.now); }
  void on_stopped(const RunStopped& e) override { ended(e.job, e.now); }
  void on_finished(const JobFinished& e) override { ended(e.job, e.now); }
  void on_failed(const JobFailed& e) override { ended(e.job, e.now); }

 private:
  void ended(JobIndex job, Time now) {
    clock_.ended(job_nodes_[job], now);
    job_nodes_[job].clear();
  }

  NodeSleepClock clock_;
  std::vector<Time> wake_up_;                   // by node
  std::vector<Time> awake_at_;                  // by node: when its last wake-up ends
  std::vector<std::vector<NodeId>> job_nodes_;  // by job: the nodes its run holds
};

}  // namespace gcsim
