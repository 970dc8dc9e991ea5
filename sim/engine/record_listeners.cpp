#include "sim/engine/record_listeners.hpp"

#include <variant>

namespace gcsim {

void RecorderListener::on_submitted(const JobSubmitted& e) {
  // A CPU job joins no GPU queue: the timeline's queued jobs leave it out.
  if (e.on_cpu) {
    recorder_.event_handled();
  } else {
    recorder_.job_submitted(e.now);
  }
  if (e.replica) recorder_.replica_submitted(e.job, e.submitted);
}

void RecorderListener::on_started(const RunStarted& e) {
  if (e.rescaled) recorder_.job_rescaled();
  if (e.replica) recorder_.replica_run_started(e.job, e.now);
  if (!e.nodes.empty()) {
    recorder_.cpu_job_started(e.job, e.now, e.nodes);
  } else {
    recorder_.job_started(e.job, e.now, e.gpus);
  }
}

void RecorderListener::on_preempted(const RunPreempted& e) {
  if (!e.on_cpu) recorder_.job_preempted(e.held_gpu_seconds, e.lost_gpu_seconds, e.kept_nothing);
  if (e.replica) recorder_.replica_run_ended(e.job, e.now);
}

void RecorderListener::on_stopped(const RunStopped& e) {
  if (e.on_gpus) recorder_.run_cut(e.held_gpu_seconds);
  // Only a replica's run is timed here; a withdrawn one (waiting or running) left the cluster.
  recorder_.replica_run_ended(e.job, e.now);
  if (e.why == RunStopped::Why::kWithdrawn) recorder_.replica_left(e.job, e.now);
}

void RecorderListener::on_finished(const JobFinished& e) {
  if (e.speeds) recorder_.job_speeds(e.job, e.synthetic_iterations_per_s, e.real_iterations_per_s);
  recorder_.job_finished(e.job, e.now, e.gpus, e.gpu_share, e.held_gpu_seconds);
  if (e.replica) recorder_.replica_run_ended(e.job, e.now);
}

void RecorderListener::on_failed(const JobFailed& e) {
  if (e.ran()) {
    recorder_.job_failed(e.job, e.now, e.gpus, e.gpu_share, e.held_gpu_seconds, e.failure);
    if (e.replica) recorder_.replica_run_ended(e.job, e.now);
  } else {
    recorder_.dependency_failed(e.job, e.cause);
  }
}

void RecorderListener::on_node_down(const NodeDown& e) {
  recorder_.node_failed(e.runs_stopped, e.lost_gpu_seconds);
  recorder_.event_handled();
}

void RecorderListener::on_stopped_early(const EarlyStop& e) {
  if (const auto* deadlock = std::get_if<DeadlockReport>(&e)) recorder_.deadlocked(*deadlock);
  if (const auto* livelock = std::get_if<LivelockReport>(&e)) recorder_.livelocked(*livelock);
  if (const auto* thrashing = std::get_if<ThrashingReport>(&e)) recorder_.thrashed(*thrashing);
}

void RunLogListener::close(Time end, RunRecord& record) {
  record.runs = log_.close_all(end);
  record.node_failure_events = log_.node_failures();
}

void RunLogListener::on_stopped(const RunStopped& e) {
  // A run the simulation's end cuts stays open: close() ends it, unfinished.
  if (e.why == RunStopped::Why::kWithdrawn) log_.stopped(e.job, e.now, RunEnd::kWithdrawn);
}

void RunLogListener::on_failed(const JobFailed& e) {
  if (e.ran()) log_.stopped(e.job, e.now, RunEnd::kFailed);
}

}  // namespace gcsim
