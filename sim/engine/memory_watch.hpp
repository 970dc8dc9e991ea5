// memory_watch.hpp: the device memory running jobs use, and which of them
// run out of it.
//
// A job uses its gpu_memory on each of its GPUs, or what its
// gpu_memory_use profile says from each point of a run on (a misconfigured
// job grows past what it asked for). With isolation (YARN with GPU
// isolation, the default) a job is held to what it asked for (a job that
// asked nothing, to its GPU's memory): passing that, it fails itself. Without
// isolation, GPUs shared by fractional jobs have no fences: a job fails when
// its use, at its start or when it grows, does not fit beside what its
// neighbours use on one of its GPUs at that moment, as a CUDA allocation
// would; the neighbour that grew past its ask earlier goes on. Changes at one
// instant are taken in job order, a failed job's memory freed before the next.
// Only jobs that can change anything are watched: with isolation, those with
// a profile; without, those that use any memory.
//
// It listens to the engine's events (engine_events.hpp): a GPU run's start
// and end.
//
//   MemoryWatch watch(jobs, layout, /*isolation=*/true);
//   watch.started(job, gpus, now);
//   for (JobIndex failed : watch.out_of_memory(now)) ...;  // then watch.ended(failed)
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "sim/core/cluster_layout.hpp"
#include "sim/core/job_spec.hpp"
#include "sim/engine/engine_events.hpp"

namespace gcsim {

class MemoryWatch : public EngineListener {
 public:
  MemoryWatch(const std::vector<JobSpec>& jobs, const ClusterLayout& layout, bool isolation);

  /// A run of `job` on `gpus` begins at `now`: its first use is checked at `now`.
  void started(JobIndex job, const std::vector<GpuId>& gpus, Time now);
  /// Its run ended (finished, preempted or failed): its memory is free again.
  void ended(JobIndex job);
  /// When the next use changes, or kNever.
  Time next_change();
  /// The uses due by `now` applied: the jobs that ran out of memory, in the
  /// order they did, each already ended here.
  std::vector<JobIndex> out_of_memory(Time now);

  void on_started(const RunStarted& e) override {
    if (e.nodes.empty()) started(e.job, e.gpus, e.now);
  }
  void on_preempted(const RunPreempted& e) override {
    if (!e.on_cpu) ended(e.job);
  }
  void on_stopped(const RunStopped& e) override {
    if (e.on_gpus) ended(e.job);
  }
  void on_finished(const JobFinished& e) override {
    if (!e.on_cpu) ended(e.job);
  }
  void on_failed(const JobFailed& e) override {
    if (e.ran()) ended(e.job);
  }

 private:
  struct Change {
    Time at;
    JobIndex job;
    std::uint32_t run;    // stale when the job's run changed since
    std::uint32_t point;  // index into the job's uses
    bool operator>(const Change& other) const { return at != other.at ? at > other.at : job > other.job; }
  };
  bool watched(JobIndex job) const;
  /// The job's use from point `k` of a run on (point 0: at its start).
  double use_at_point(JobIndex job, std::size_t k) const;
  std::size_t points(JobIndex job) const;
  Time point_time(JobIndex job, std::size_t k) const;
  /// Whether `bytes` on each of the job's GPUs fits (isolation: its limit; else beside the others).
  bool fits(JobIndex job, double bytes) const;
  void set_use(JobIndex job, double bytes);

  const std::vector<JobSpec>& jobs_;
  const ClusterLayout& layout_;
  bool isolation_;
  std::vector<std::uint32_t> run_;      // per job: its current run's number (0: none yet)
  std::vector<Time> start_;             // per job: when its current run began
  std::vector<double> use_;             // per job: its use on each of its GPUs now
  std::vector<std::vector<GpuId>> on_;  // per job: the GPUs of its current run (watched jobs only)
  std::vector<double> gpu_used_;        // per GPU: what the watched jobs on it use (without isolation)
  std::priority_queue<Change, std::vector<Change>, std::greater<>> changes_;
};

}  // namespace gcsim
