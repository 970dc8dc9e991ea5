// dag_run.hpp: one DAG job running on its workers' hosts in SimGrid.
//
// Each worker is an actor on its host (a GPU worker on its GPU's, a CPU
// worker on its node's CPU host), following the rules of
// sim/model/dag_schedule.hpp with a condition variable per pool: a worker
// takes the head of its pool's queue, receives its predecessors' data
// (host-to-host communications over the platform's routes, sharing links with
// every other job; nothing when the predecessor ran on the same host: the
// same GPU, or a CPU worker of the same node), then executes the task (an
// Exec of its FLOPs plus its seconds at the host's speed; CPU tasks sleep
// their seconds, the cores being their own). A coordinator actor on the
// scheduler's host calls on_done when the last task finished, which is how
// the scheduler learns that the job ended.
//
//   DagRun dag(work, worker_hosts, scheduler_host, name, on_busy, on_done, failure);
//   ... on preemption: dag.cancel();
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/core/job_spec.hpp"
#include "sim/engine/actor_failure.hpp"

namespace gcsim {

class DagRun {
 public:
  /// Called with (start, end) of every task a GPU worker executed, at its end
  /// (or at cancel() for the part done by then).
  using BusyListener = std::function<void(double start, double end)>;
  /// Called once, from an actor on `scheduler_host`, when every task has finished.
  using DoneListener = std::function<void()>;

  /// `worker_hosts`: one per worker, pools in order (each pool's workers
  /// together). `name` names the actors. An exception in a worker goes to
  /// `failure` (actor_failure.hpp).
  struct State;

  DagRun(const DagWork& work, const std::vector<simgrid::s4u::Host*>& worker_hosts, simgrid::s4u::Host* scheduler_host,
         const std::string& name, BusyListener on_busy, DoneListener on_done, ActorFailure& failure);
  DagRun(const DagRun&) = delete;
  DagRun& operator=(const DagRun&) = delete;
  ~DagRun();

  /// Stops every worker and transfer now (the job was preempted).
  void cancel();

 private:
  std::shared_ptr<State> state_;
  std::vector<simgrid::s4u::ActorPtr> actors_;
};

}  // namespace gcsim
