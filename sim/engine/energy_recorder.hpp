// energy_recorder.hpp: tells the energy meter (sim/report/energy_meter.hpp)
// each run's start and end and its busy intervals, under `--energy`.
//
//   EnergyRecorder energy(jobs, power_model(layout, "cluster.json"));
//   options.listeners.push_back(&energy);
//   ... simulate ...
//   EnergyReport report = energy.finish(record.simulated_time);
#pragma once

#include <utility>
#include <vector>

#include "sim/engine/engine_events.hpp"
#include "sim/report/energy_meter.hpp"

namespace gcsim {

class EnergyRecorder : public EngineListener {
 public:
  EnergyRecorder(const std::vector<JobSpec>& jobs, PowerModel power) : meter_(jobs, std::move(power)) {}

  EnergyReport finish(Time end) { return meter_.finish(end); }

  void on_started(const RunStarted& e) override {
    meter_.run_started(e.job, e.now, e.gpus, e.power_limit_watts, e.power_plan);
  }
  // A preempted run threw away its lost share of the GPU time it held.
  void on_preempted(const RunPreempted& e) override {
    meter_.run_ended(e.job, e.now, e.held_gpu_seconds > 0 ? e.lost_gpu_seconds / e.held_gpu_seconds : 0.0);
  }
  void on_stopped(const RunStopped& e) override { meter_.run_ended(e.job, e.now, 0.0); }
  void on_finished(const JobFinished& e) override { meter_.run_ended(e.job, e.now, 0.0); }
  // A failed run's work is all lost.
  void on_failed(const JobFailed& e) override { meter_.run_ended(e.job, e.now, 1.0); }
  void on_busy(const BusyInterval& e) override { meter_.busy(e.job, e.start, e.end, e.gpus, e.gpu_share); }
  void on_busy_cut(const BusyCut& e) override { meter_.busy_cut(e.job, e.planned_end, e.now, e.gpus, e.gpu_share); }

 private:
  EnergyMeter meter_;
};

}  // namespace gcsim
