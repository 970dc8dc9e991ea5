// record_listeners.hpp: what the run's record keeps of the engine's events.
//
// RecorderListener tells the run recorder (sim/report/run_recorder.hpp)
// each event the record counts: outcomes, GPU-time totals, the timeline of
// allocated, busy and queued GPUs, the events handled, why the run stopped
// early. RunLogListener keeps every run of every job and the node failures
// (sim/report/run_log.hpp) for the schedule's trace (`--timeline`), only
// when asked (SimulationOptions::keep_runs).
//
//   RecorderListener recording(jobs.size(), layout.gpu_count());
//   events.subscribe(recording);
//   ... the run ...
//   RunRecord record = recording.recorder().finish(now, state);
//   run_log.close(now, record);
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/engine/engine_events.hpp"
#include "sim/report/run_log.hpp"
#include "sim/report/run_recorder.hpp"

namespace gcsim {

class RecorderListener : public EngineListener {
 public:
  RecorderListener(std::size_t job_count, std::size_t total_gpus) : recorder_(job_count, total_gpus) {}

  RunRecorder& recorder() { return recorder_; }
  const RunRecorder& recorder() const { return recorder_; }

  void on_submitted(const JobSubmitted& e) override;
  void on_started(const RunStarted& e) override;
  void on_preempted(const RunPreempted& e) override;
  void on_stopped(const RunStopped& e) override;
  void on_finished(const JobFinished& e) override;
  void on_failed(const JobFailed& e) override;
  void on_busy(const BusyInterval& e) override { recorder_.busy(e.start, e.end, e.gpus, e.gpu_share); }
  void on_busy_cut(const BusyCut& e) override { recorder_.busy_cut(e.planned_end, e.now, e.gpus, e.gpu_share); }
  void on_events_handled(std::uint64_t count) override { recorder_.event_handled(count); }
  void on_allocation_changed(const AllocationChange& e) override {
    recorder_.allocation_changed(e.now, e.allocated_delta, e.queued_delta);
  }
  void on_node_down(const NodeDown& e) override;
  void on_node_up(const NodeUp&) override { recorder_.event_handled(); }
  void on_stopped_early(const EarlyStop& e) override;

 private:
  RunRecorder recorder_;
};

class RunLogListener : public EngineListener {
 public:
  /// The runs and node failures into `record` (RunRecord::runs), those still open ending at `end`. Call once.
  void close(Time end, RunRecord& record);

  void on_started(const RunStarted& e) override { log_.started(e.job, e.now, e.gpus, e.nodes); }
  void on_preempted(const RunPreempted& e) override { log_.stopped(e.job, e.now, RunEnd::kPreempted); }
  void on_stopped(const RunStopped& e) override;
  void on_finished(const JobFinished& e) override { log_.stopped(e.job, e.now, RunEnd::kFinished); }
  void on_failed(const JobFailed& e) override;
  void on_node_down(const NodeDown& e) override { log_.node_failed(e.now, e.node); }

 private:
  RunLog log_;
};

}  // namespace gcsim
